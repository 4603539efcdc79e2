"""The sets of clubs outside China (riichi, Hong Kong, numeral-only, corner index): every face and back told
apart, red fives labelled as the fives they are, licences recorded, and the held-out styles never trained on."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from api.cli.synth import pick_styles
from datasets import faces, tilebody
from datasets.faces import drawn, fluffy, regional
from datasets.generate import Job, generate
from datasets.scenes import Renderer
from scoring.tiles import CLASS_NAMES
from tests.datasets.test_faces import BONUS, distinct
from vision.labels.yolo import read_labels

NEW = tuple(s.name for s in (*regional.SOURCES, *fluffy.SOURCES)) + ("mahjong-numbered",)
RIICHI = tuple(name for name in NEW if name.startswith("riichi-"))


@pytest.fixture(scope="module")
def new_styles(styles: tuple[str, ...]) -> tuple[str, ...]:
    here = tuple(name for name in NEW if name in styles)
    if not here:
        pytest.skip(f"none of the new styles is installed: apt-get install {faces.apt_packages()}")
    return here


def backs(size: tuple[int, int]) -> dict[str, np.ndarray]:
    """The top of a face-down tile in every back colour and two-tone back, as a face-sized image."""
    out = {}
    plain = [(colour, None) for colour in tilebody.BACKS]
    for k, (colour, panel) in enumerate([*plain, *tilebody.TWO_TONE]):
        body = tilebody.Body(tuple(map(float, colour)), (215.0, 232.0, 240.0), 0.3, 0.5, 0.1, True,
                             None if panel is None else tuple(map(float, panel)))
        out[f"back{k}"] = tilebody.tops({}, body, size)["back"][:, :, :3].astype(np.uint8)
    return out


def test_each_new_style_draws_its_faces_and_every_back_apart(new_styles: tuple[str, ...]) -> None:
    for name in new_styles:
        got = faces.BY_NAME[name].faces()
        codes = {faces.code_of(k) for k in got}
        expected = set(faces.FACE_CODES) - (BONUS if name.startswith("riichi-") else set())
        assert codes == expected, f"{name} lacks {sorted(expected - codes)}"
        least, a, b = distinct(got | backs((faces.FACE_W, faces.FACE_H)))
        assert least > 2.0, f"{name}: {a} and {b} look the same ({least:.1f})"


def test_riichi_sets_have_red_fives_blank_or_framed_white_dragons_and_no_flowers(new_styles) -> None:
    for name in (n for n in RIICHI if n in new_styles):
        got = faces.BY_NAME[name].faces()
        assert {k for k in got if faces.ALTERNATE in k} == {"5m-red", "5p-red", "5s-red"}, name
        assert not any(k.endswith("f") for k in got), name
        for suit in "mps":  # the red five is redder than the plain one: more of its ink is red
            plain, red = (got[key].astype(int) for key in (f"5{suit}", f"5{suit}-red"))
            redness = [((f[:, :, 2] - f[:, :, :2].max(axis=2)) > 60).mean() for f in (plain, red)]
            assert redness[1] > redness[0] + 0.01, (name, suit, redness)
    blank = drawn.face_svg("P", "serif", drawn.Palette(blank_white=True)).decode()
    assert blank.count("<rect") == 1  # the ground alone


def test_a_red_five_is_labelled_as_the_five_of_its_suit(new_styles: tuple[str, ...], tmp_path: Path) -> None:
    riichi = tuple(n for n in RIICHI if n in new_styles)
    if not riichi:
        pytest.skip("no riichi style installed")
    generate(Job(tmp_path, 3, riichi, layouts=("hand", "seat"), size=256), 24)
    red = 0
    for path in sorted((tmp_path / "layouts").glob("*.json")):
        truth = json.loads(path.read_text())
        labels = read_labels(tmp_path / truth["labels"], truth["width"], truth["height"])
        for rec in truth["tiles"]:
            if rec["face"].endswith("-red"):
                red += 1
                assert rec["code"] == rec["class"] == rec["face"][:2] and rec["class"] in ("5m", "5p", "5s")
                if rec["label"] is not None:
                    assert CLASS_NAMES[labels[rec["label"]][0]] == rec["code"]
            else:
                assert rec["face"] == rec["class"]
    assert red > 0  # the scenes show red fives at all


def test_every_style_records_its_licence_and_what_forbids_training_is_held_out() -> None:
    assert all(s.licence for s in faces.SOURCES), [s.name for s in faces.SOURCES if not s.licence]
    forbidden = {s.name for s in faces.SOURCES if not s.trainable}
    assert forbidden == {"riichi-fluffy"} and forbidden <= set(faces.HELD_OUT)
    assert "CC BY-NC 4.0" in faces.BY_NAME["riichi-fluffy"].licence
    assert "pymdownx-mahjong" not in faces.apt_packages()  # a PyPI package, installed by uv sync


def test_held_out_styles_are_never_in_the_default_training_set(monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(faces.HELD_OUT) >= 2 and any(name.startswith("riichi-") for name in faces.HELD_OUT)
    trained = {s.name for s in faces.group("train")}
    assert not trained & set(faces.HELD_OUT)
    assert not trained & {s.name for s in faces.SOURCES if not s.trainable}
    everything = {s.name: s for s in faces.SOURCES}  # every style installed: the default still leaves them out
    monkeypatch.setattr(faces, "SOURCES", tuple(s.__class__(**{**s.__dict__, "requires": ()}) for s in faces.SOURCES))
    assert not set(pick_styles("train")) & set(faces.HELD_OUT)
    assert set(pick_styles("train")) | set(faces.HELD_OUT) == set(everything)


def test_seat_scenes_are_low_level_rows_of_13_to_17_tiles_before_a_raised_wall(new_styles: tuple[str, ...]) -> None:
    renderer = Renderer(new_styles[:2], ("seat",), size=256)
    for index in range(6):
        truth = renderer.scene(4, index).ground_truth
        assert truth is not None and 30 <= truth["camera"]["elevation"] <= 60
        assert abs(truth["camera"]["rotation"]) < 20  # the phone held level
        hand = [t for t in truth["tiles"] if t["group"] is not None]
        wall = [t for t in truth["tiles"] if t["group"] is None and t["face_down"]]
        assert 13 <= len(hand) <= 17 and 9 <= len(wall) <= 17


def test_a_missing_pypi_style_says_uv_sync_not_apt_get(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    gone = faces.FaceSource("gone", "pymdownx-gone", (tmp_path / "nope.svg",), render=dict, pypi=True)
    monkeypatch.setattr(faces, "SOURCES", (gone,))
    monkeypatch.setattr(faces, "BY_NAME", {"gone": gone})
    assert faces.missing_report() == "tile style gone is not installed (uv sync (the dev group's pymdownx-gone))"
    with pytest.raises(ValueError, match=r"gone; uv sync \(the dev group's pymdownx-gone\)$"):
        pick_styles("gone")
    with pytest.raises(OSError, match="needs the package pymdownx-gone: uv sync"):
        gone.faces()
