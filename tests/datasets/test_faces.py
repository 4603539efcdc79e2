"""Every face of every installed style renders, is not blank, and differs from the style's other faces."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from datasets import faces
from datasets.faces import drawn, kde, xpm
from datasets.contact import face_sheet

BONUS = {"1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f"}
# Faces a style lacks on purpose (postmodern's bonus tiles are unnamed pictures, its white dragon a logo; riichi
# sets have no flowers or seasons).
LACKING = {"gnome-postmodern": {"P"} | BONUS} | {s.name: BONUS for s in faces.SOURCES if s.name.startswith("riichi-")}


def distinct(images: dict[str, np.ndarray]) -> tuple[float, str, str]:
    """The smallest difference between two images of different tiles (mean absolute, as 30 x 40 thumbnails:
    enough to tell faces apart, and quick) and which two; two drawings of one tile (``5m``, ``5m-red``) may
    be alike."""
    codes = sorted(images)
    stack = np.stack([cv2.resize(images[c], (30, 40), interpolation=cv2.INTER_AREA) for c in codes]).astype(np.float32)
    diff = np.stack([np.abs(stack - face).mean(axis=(1, 2, 3)) for face in stack])
    tiles = np.array([faces.code_of(c) for c in codes])
    diff[tiles[:, None] == tiles[None, :]] = np.inf
    i, j = np.unravel_index(np.argmin(diff), diff.shape)
    return float(diff[i, j]), codes[i], codes[j]


def test_every_style_has_every_face_and_each_is_distinct(styles: tuple[str, ...]) -> None:
    for name in styles:
        got = faces.BY_NAME[name].faces()
        assert {faces.code_of(k) for k in got} == set(faces.FACE_CODES) - LACKING.get(name, set()), name
        for code, img in got.items():
            assert img.shape == (faces.FACE_H, faces.FACE_W, 3), (name, code)
        least, a, b = distinct(got)
        assert least > 2.0, f"{name}: {a} and {b} look the same ({least:.1f})"
        # every face but a blank white dragon carries art: its pixels vary
        assert all(img.std() > 8 for code, img in got.items() if code != "P"), name


def test_contact_sheet_shows_every_face(styles: tuple[str, ...]) -> None:
    sheet = face_sheet(styles[0])
    assert sheet.ndim == 3 and sheet.shape[0] > faces.FACE_H and sheet.shape[1] > faces.FACE_W * 7


def test_kde_classic_swaps_plum_and_orchid() -> None:
    assert kde.element_codes()["FLOWER_1"] == "1f"
    assert kde.element_codes(swap_plum_orchid=True)["FLOWER_1"] == "2f"
    assert sorted(kde.element_codes().values()) == sorted(faces.FACE_CODES)


def test_xpm_names_cover_every_face() -> None:
    assert sorted(xpm.file_codes().values()) == sorted(faces.FACE_CODES)


def test_missing_style_names_its_package(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setenv("MCR_LENS_CACHE", str(tmp_path))
    ghost = faces.FaceSource("ghost", "fonts-ghost", (tmp_path / "nope.ttf",), render=dict)
    assert not ghost.installed
    with pytest.raises(OSError, match="apt-get install fonts-ghost"):
        ghost.faces()


def test_faces_stored_in_the_cache_make_a_style_usable_without_its_package(
        monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """How a lent GPU machine (no Debian packages) draws in our styles: their faces carried and stored."""
    monkeypatch.setenv("MCR_LENS_CACHE", str(tmp_path))
    ghost = faces.FaceSource("ghost", "fonts-ghost", (tmp_path / "nope.ttf",), render=dict)
    face = np.full((faces.FACE_H, faces.FACE_W, 3), 90, np.uint8)
    ghost.store({"1m": face, "E": face + 1})
    assert ghost.installed  # its package is still absent: the cache is enough
    stored = ghost.faces()
    assert sorted(stored) == ["1m", "E"] and np.array_equal(stored["E"], face + 1)


def test_missing_report_lists_styles_and_the_install_line(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    ghost = faces.FaceSource("ghost", "fonts-ghost", (tmp_path / "nope.ttf",), render=dict)
    here = faces.FaceSource("here", "fonts-here", (tmp_path,), render=dict)
    monkeypatch.setattr(faces, "SOURCES", (ghost, here))
    report = faces.missing_report()
    assert "tile style ghost is not installed (apt-get install fonts-ghost)" in report
    assert "apt-get install fonts-ghost librsvg2-bin" in report and "here" not in report
    assert faces.apt_packages() == "fonts-ghost fonts-here librsvg2-bin"  # what .ci/run installs
    monkeypatch.setattr(faces, "SOURCES", (here,))
    assert faces.missing_report() == ""


def test_changed_art_is_rendered_anew_not_read_from_an_older_cache(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path) -> None:
    monkeypatch.setenv("MCR_LENS_CACHE", str(tmp_path))
    art = {"1m": np.full((faces.FACE_H, faces.FACE_W, 3), 40, np.uint8)}
    faces.FaceSource("inked", "fonts-inked", (tmp_path,), render=lambda: art).faces()
    art = {"1m": np.full((faces.FACE_H, faces.FACE_W, 3), 200, np.uint8)}
    same = faces.FaceSource("inked", "fonts-inked", (tmp_path,), render=lambda: art).faces()
    redrawn = faces.FaceSource("inked", "fonts-inked", (tmp_path,), render=lambda: art, version=2).faces()
    assert same["1m"].mean() == 40 and redrawn["1m"].mean() == 200


def test_the_fourth_drawing_shows_other_motifs_than_the_first_three() -> None:
    """Variant 3 draws the one of bamboo as a stick, the white dragon as nested frames and the flowers by
    their name alone, so a reader cannot know those faces by a bird, a blue frame or a corner number."""
    fourth = drawn.Palette(variant=3)
    flower = drawn.face_svg("2f", "serif", fourth).decode()
    assert flower.count("<text") == 1 and "蘭" in flower  # the name, no number
    assert drawn.face_svg("2f", "serif", drawn.Palette(variant=1)).decode().count("<text") == 2
    assert "<path" not in drawn.face_svg("1s", "serif", fourth).decode()  # no bird: one stick
    assert all("<path" in drawn.face_svg("1s", "serif", drawn.Palette(variant=v)).decode() for v in range(3))
    frames = drawn.face_svg("P", "serif", fourth).decode()
    assert frames.count("<rect") == 1 + 3 and fourth.blue not in frames  # the ground, three frames in ink


def test_style_groups_split_the_known_styles_into_trained_and_held_out() -> None:
    train, held_out = faces.group("train"), faces.group("held-out")
    assert {s.name for s in held_out} == set(faces.HELD_OUT) | {s.name for s in faces.SOURCES if not s.trainable}
    assert set(train) | set(held_out) == set(faces.group("all")) == set(faces.SOURCES)
    assert not set(train) & set(held_out) and {"font-ukai-c", "font-kouzan-c"} <= {s.name for s in train}
    with pytest.raises(ValueError, match="unknown style group 'some'; known: all, train, held-out"):
        faces.group("some")
