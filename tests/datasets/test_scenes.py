"""Generated scenes: labels on visible faces inside the photo, determinism, layout side files."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from datasets.faces import ALTERNATE
from datasets.generate import Job, generate
from datasets.layouts import LAYOUTS
from datasets.scenes import Renderer
from scoring.tiles import CLASS_NAMES, tile
from vision.labels.yolo import read_labels

SIZE = 320  # small photos keep the tests fast


@pytest.fixture(scope="module")
def renderer(styles: tuple[str, ...]) -> Renderer:
    return Renderer(styles, size=SIZE)


def test_labels_are_inside_the_photo_and_on_visible_tiles(renderer: Renderer) -> None:
    seen_layouts = set()
    for index in range(24):
        scene = renderer.scene(11, index)
        h, w = scene.image.shape[:2]
        assert max(h, w) == SIZE and scene.labels
        seen_layouts.add(scene.layout)
        for label in scene.labels:
            x0, y0, x1, y1 = label.box
            assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
            assert 0 <= label.cls < len(CLASS_NAMES)
            inside = scene.coverage[int(y0):int(np.ceil(y1)), int(x0):int(np.ceil(x1))]
            assert inside.mean() > 0.4, f"scene {index}: box {label.box} is mostly not a tile"
    assert seen_layouts == set(LAYOUTS)


def test_same_seed_same_scene_other_seed_other_scene(renderer: Renderer) -> None:
    a, b, c = renderer.scene(5, 3), renderer.scene(5, 3), renderer.scene(6, 3)
    assert np.array_equal(a.image, b.image) and a.labels == b.labels
    assert not (a.image.shape == c.image.shape and np.array_equal(a.image, c.image))


def test_workers_do_not_change_the_output(styles: tuple[str, ...], tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    few = styles[:2]  # each worker process loads its styles' faces: keep that short
    generate(Job(one, 9, few, size=SIZE), 6, workers=1)
    generate(Job(two, 9, few, size=SIZE), 6, workers=2)
    files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file() and p.name != "data.yaml")
    assert files and files == sorted(p.relative_to(two) for p in two.rglob("*")
                                     if p.is_file() and p.name != "data.yaml")
    assert all((one / f).read_bytes() == (two / f).read_bytes() for f in files)
    names = (one / "data.yaml").read_text()
    assert "nc: 43" in names and "42: 'back'" in names


def test_layout_side_files_agree_with_labels_and_hand(styles: tuple[str, ...], tmp_path: Path) -> None:
    generate(Job(tmp_path, 4, styles, layouts=("hand", "table", "seat"), size=SIZE), 8)
    files = sorted((tmp_path / "layouts").glob("*.json"))
    assert len(files) == 8
    for path in files:
        truth = json.loads(path.read_text())
        labels = read_labels(tmp_path / truth["labels"], truth["width"], truth["height"])
        records = truth["tiles"]
        for rec in records:
            if rec["label"] is None:
                continue
            cls, box = labels[rec["label"]]
            assert CLASS_NAMES[cls] == rec["class"] == ("back" if rec["face_down"] else rec["code"])
            assert np.allclose(box, rec["box"], atol=0.05)
        hand = truth["hand"]
        in_hand = [r for r in records if r["group"] is not None]
        expected = Counter([*hand["concealed"], hand["win_tile"], *hand["flowers"],
                            *(t for m in hand["melds"] for t in m["tiles"])])
        assert Counter(r["code"] for r in in_hand) == expected
        for g, group in enumerate(truth["groups"]):
            members = sorted((r for r in in_hand if r["group"] == g), key=lambda r: r["position"])
            assert [r["code"] for r in members] == group["tiles"]
            if group["role"] == "winning":
                assert group["tiles"] == [hand["win_tile"]]
            if group["role"] == "meld" and not group["concealed"]:
                assert sum(r["sideways"] for r in members) in (1, 2)  # 2 when an added tile is stacked
            if group["role"] == "meld" and group["concealed"]:
                assert sum(r["face_down"] for r in members) in (2, 4)
        assert all(tile(r["code"]) for r in records)


def test_every_face_of_every_style_appears_in_random_layouts(styles: tuple[str, ...]) -> None:
    from datasets import faces
    from datasets.layouts import make_layout

    for name in styles:
        have = {key for key in faces.BY_NAME[name].faces() if ALTERNATE not in key}
        rng = np.random.default_rng(0)
        shown = {p.shown for _ in range(30) for p in make_layout("grid", rng, have).tiles}
        assert shown == have | {"back"}, name


def test_hand_tiles_are_ordered_along_their_rows(styles: tuple[str, ...], tmp_path: Path) -> None:
    generate(Job(tmp_path, 8, styles, layouts=("hand",), size=SIZE), 6)
    for path in sorted((tmp_path / "layouts").glob("*.json")):
        records = json.loads(path.read_text())["tiles"]
        for row in {r["row"] for r in records}:
            orders = sorted(r["order"] for r in records if r["row"] == row)
            assert orders == list(range(len(orders)))
        by_order = sorted((r for r in records if r["row"] == 0), key=lambda r: r["order"])
        groups = [r["group"] for r in by_order]
        assert groups == sorted(groups)  # flowers, concealed, winning tile, melds: left to right
