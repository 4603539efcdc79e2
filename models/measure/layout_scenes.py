"""Layout grouping on generated hand scenes with ground truth, exact hand and grouping:
``uv run python -m models.measure.layout_scenes --n 3000``.

The scenes are the generator's own (`datasets.layouts`: every meld kind, sideways tiles on each side,
face-down and added kongs, flowers, second rows, a wall and discards) seen through its camera
(`datasets.camera`: any rotation, tilt, perspective), without drawing pixels: the boxes are the
ground-truth boxes a perfect detector would give.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from datasets import camera
from datasets.layouts import Layout, Placed, make_layout
from datasets.tilebody import footprint
from scoring import Hand
from scoring.tiles import TILES, tile
from vision.detections import TileDetections
from vision.layout import LayoutReading, read_hand

ROLES = {"flowers": "flowers", "concealed": "concealed", "winning": "win", "meld": "meld"}
SIZE = (4000, 3000)  # a phone photo; boxes scale with it, so only clipping at the edges depends on it


@dataclass(frozen=True)
class LayoutScene:
    detections: TileDetections
    hand: dict[str, Any]  # the true hand, Hand JSON form
    groups: list[dict[str, Any]]  # true groups: role, tiles (indices into detections) and meld fields
    hidden: str  # why the photo cannot show the whole hand ("" when it can)

    @property
    def observable(self) -> bool:
        return not self.hidden


def photograph(tiles: Sequence[Placed], aspect: float, hom: np.ndarray,
               ccw: bool = True) -> tuple[TileDetections, dict[int, int]]:
    """Ground-truth detections of tiles on the table seen through the homography ``hom`` (plane to
    photo pixels), and which detection each tile became (tiles less than half inside are not seen)."""
    boxes, classes, where = [], [], {}
    for k, p in enumerate(tiles):
        seen = cv2.perspectiveTransform(footprint(p, aspect, ccw)[None].astype(np.float32), hom)[0]
        x0, y0 = seen.min(axis=0)
        x1, y1 = seen.max(axis=0)
        inside = (min(x1, SIZE[0]) - max(x0, 0)) * (min(y1, SIZE[1]) - max(y0, 0))
        if x1 <= 0 or y1 <= 0 or x0 >= SIZE[0] or y0 >= SIZE[1] or inside < 0.5 * (x1 - x0) * (y1 - y0):
            continue
        where[k] = len(boxes)
        boxes.append([max(x0, 0), max(y0, 0), min(x1, SIZE[0]), min(y1, SIZE[1])])
        classes.append(tile(p.shown).index)
    detections = TileDetections(np.array(boxes, np.float32).reshape(-1, 4), np.ones(len(boxes)),
                                np.array(classes, np.int64))
    return detections, where


def layout_scene(seed: int, index: int) -> LayoutScene:
    """A generated hand or table layout, photographed, as ground-truth detections."""
    rng = np.random.default_rng([seed, index])
    layout: Layout = make_layout(str(rng.choice(["hand", "table"])), rng, {t.code for t in TILES})
    ccw = bool(rng.random() < 0.5)
    allc = np.vstack([footprint(p, layout.aspect, ccw) for p in layout.tiles])
    extent = (*allc.min(axis=0), *allc.max(axis=0))
    elevation = float(rng.uniform(35.0, 88.0))  # degrees, as `datasets.scenes` draws it
    fill = float(rng.uniform(0.65, 0.97) if layout.name == "hand" else rng.uniform(0.6, 1.15))
    hom, _ = camera.homography(rng, extent, SIZE, elevation, fill)
    detections, where = photograph(layout.tiles, layout.aspect, hom, ccw)
    assert layout.hand is not None
    groups = []
    for g, group in enumerate(layout.groups):
        members = sorted((p.position, where.get(k, -1)) for k, p in enumerate(layout.tiles) if p.group == g)
        record = group.to_json()
        groups.append({**record, "role": ROLES[group.role], "tiles": [i for _, i in members]})
    hidden = any(i < 0 for g in groups for i in g["tiles"])
    unreadable = any(m.concealed and all(p.face_down for p in layout.tiles if p.group == g)
                     for g, m in ((g, grp.meld) for g, grp in enumerate(layout.groups) if grp.meld))
    shown_added = any(m.added and not any(p.stacked for p in layout.tiles if p.group == g)
                      for g, m in ((g, grp.meld) for g, grp in enumerate(layout.groups) if grp.meld))
    why = ("a hand tile outside the photo" if hidden else "a concealed kong all face down" if unreadable
           else "an added kong shown as four in a row" if shown_added else "")
    return LayoutScene(detections, layout.hand.to_json(), groups, why)


def _canonical_hand(data: dict[str, Any]) -> dict[str, Any]:
    """The Hand JSON form with its lists in one order, so equal hands compare equal."""
    return {**Hand.from_json(data).to_json(), "melds": sorted(json.dumps(m, sort_keys=True) for m in data["melds"])}


def _canonical_groups(groups: list[dict[str, Any]]) -> list[str]:
    keep = ("role", "from", "concealed")
    return sorted(json.dumps({"tiles": sorted(g["tiles"]), **{k: g.get(k) for k in keep},
                              "kind": g.get("kind") if g["role"] == "meld" else None}, sort_keys=True)
                  for g in groups)


def judge(scene: LayoutScene, reading: LayoutReading) -> tuple[bool, bool]:
    """(exact hand, exact grouping) of a reading against the scene's truth."""
    if reading.hand is None:
        return False, False
    truth_groups = [{**g, "concealed": g["role"] == "concealed" or bool(g.get("concealed"))}
                    for g in scene.groups]
    for g in truth_groups:
        if g["role"] != "meld":
            g["from"] = None
    hand_ok = _canonical_hand(reading.hand.to_json()) == _canonical_hand(scene.hand)
    groups_ok = _canonical_groups([g.to_json() for g in reading.groups]) == _canonical_groups(truth_groups)
    return hand_ok, groups_ok


def measure(seed: int, n: int) -> Counter[str]:
    """Over ``n`` scenes: ``scenes``, ``observable`` ones (the photo shows the whole hand; the others counted by
    why not), ``exact`` hand and grouping (of all, and of the observable), and the ``hand`` alone right."""
    tally: Counter[str] = Counter()
    for index in range(n):
        scene = layout_scene(seed, index)
        hand_ok, groups_ok = judge(scene, read_hand(scene.detections))
        tally["scenes"] += 1
        tally["observable"] += scene.observable
        tally[scene.hidden] += 1
        tally["exact"] += hand_ok and groups_ok
        tally["exact_observable"] += hand_ok and groups_ok and scene.observable
        tally["hand"] += hand_ok
    return tally


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m models.measure.layout_scenes", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    t = measure(args.seed, args.n)
    print(f"{t['scenes']} scenes in {time.perf_counter() - start:.1f} s: exact hand and grouping "
          f"{t['exact'] / t['scenes']:.1%} of all, {t['exact_observable'] / t['observable']:.1%} of the "
          f"{t['observable']} whose hand the photo can show; hand alone {t['hand'] / t['scenes']:.1%}")
    for reason in ("a hand tile outside the photo", "a concealed kong all face down", "an added kong shown as four in a row"):
        print(f"  not shown by the photo: {reason}: {t[reason]}")


if __name__ == "__main__":
    main()
