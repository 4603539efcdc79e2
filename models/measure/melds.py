"""How well hands with melds are read end to end, per layout convention, on photos composed from real
tile crops (`datasets.composed`): tiles read exactly, hand grouped exactly (a kong shown all face down: its face aside), scored as the
true hand (the fans and the total), and scored so once what the reading doubts is corrected as its doubts ask
(a kong shown all face down: its face; one shown face up with no tile turned: claimed or concealed; a winning
tile not set apart: which it is; tiles past a gap among the standing ones that make melds: the melds; flowers
beside the hand left out as read unsurely: how many). The issue names these as what a photo cannot tell.

    uv run python -m models.measure.melds --n 200 --split test

``--split dev`` composes from the other half of the source photos: the one to choose constants on.
``--boxes`` reads the true boxes (a perfect detector) to tell layout errors from reading errors.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from datasets.composed import ComposedScene, compose
from datasets.crops import BANK_VERSION, CropBank
from models.measure import measured
from models.training.recipes import REAL_PHOTOS
from scoring import Hand, MeldKind, Situation, format_hand, score
from scoring.tiles import BACK, tile
from vision.detections import TileDetections
from vision.detector import Detector
from vision.faces import FaceReader, default_face_model_path
from vision.layout import FLOWERS_UNSURE, MELDS_PAST_GAP, WIN_NOT_APART, Overrides, read_hand
from vision.scan import ScanResult, scan, scan_detections

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ("tiles", "grouped", "scored", "corrected")


def bank(split: str, cache: Path) -> CropBank:
    """The split's crops, cut once and kept in ``cache``."""
    path = cache / f"composed-{split}-v{BANK_VERSION}.npz"
    if path.exists():
        return CropBank.load(path)
    if not REAL_PHOTOS.is_dir():
        raise OSError(f"{REAL_PHOTOS}: the source photos are not there")
    crops = CropBank.from_source(REAL_PHOTOS, split, FaceReader(default_face_model_path()))
    cache.mkdir(parents=True, exist_ok=True)
    crops.save(path)
    return crops


def _shape(hand: Hand, faces: bool = True) -> tuple:
    """A hand's parts, comparable; ``faces`` False: a concealed kong's face left out (all face down)."""
    melds = sorted((m.kind.value, m.concealed, tuple(t.code for t in m.tiles) if faces or not m.concealed else ())
                   for m in hand.melds)
    return tuple(t.code for t in hand.concealed), hand.win_tile.code, tuple(melds), hand.flower_count


def judge(scene: ComposedScene, result: ScanResult) -> dict[str, bool]:
    """Which figures a reading of the scene meets."""
    listed = [result.detections.tiles[i].code for g in result.groups for i in g.tiles]
    tiles = Counter(listed) == Counter(scene.shown)
    faces_shown = not (scene.conventions.concealed_kong == "all_down" and
                       any(m.concealed for m in scene.hand.melds))
    grouped = result.hand is not None and _shape(result.hand, faces_shown) == _shape(scene.hand, faces_shown)
    truth = _points(scene.hand)
    scored = result.hand is not None and _points(result.hand) == truth
    corrected = scored or (result.hand is not None and _points(_doubts_answered(result, scene.hand)) == truth)
    return {"tiles": tiles, "grouped": grouped, "scored": scored, "corrected": corrected}


def _points(hand: Hand) -> tuple[object, ...]:
    """What a referee needs alike: the fans (ids, counts) and the total."""
    result = score(hand, Situation())
    return result.fan_counts, result.total


def _doubts_answered(result: ScanResult, truth: Hand) -> Hand:
    """The hand read with what its doubts ask answered as the user answers them: where a doubt says tiles past a gap
    among the standing ones may be melds, the true melds given (read with the photo's tiles as `mcr scan --melds`
    reads them); else each kong a doubt names replaced by the true kong of its face (a kong read all face down: the
    next true concealed kong), other melds as read; the true count of flowers where a doubt says flowers beside the
    hand were left out; and the true winning tile where a doubt names the one taken (a winning tile not set apart) and
    it stands among the tiles read."""
    assert result.hand is not None
    given = read_hand(result.detections, Overrides(melds=truth.melds)).hand if _doubted(result, MELDS_PAST_GAP) \
        else None
    hand = given if given is not None else _kongs_answered(result, truth)
    if _doubted(result, FLOWERS_UNSURE):
        hand = hand.with_flower_count(truth.flower_count)
    if _doubted(result, WIN_NOT_APART) and truth.win_tile in hand.concealed:
        return hand.won_on(truth.win_tile)
    return hand


def _kongs_answered(result: ScanResult, truth: Hand) -> Hand:
    """The hand read with each kong a doubt names replaced by the true kong of its face (see `_doubts_answered`)."""
    assert result.hand is not None
    doubted = [set(d.tiles) for d in result.doubts if d.kind == "assumed"]
    groups = [g for g in result.groups if g.role == "meld"]
    faces_down = iter(m for m in truth.melds if m.concealed)
    melds = []
    for meld, group in zip(result.hand.melds, groups, strict=True):
        if meld.kind is MeldKind.KONG and any(set(group.tiles) <= d for d in doubted):
            backs = all(result.detections.tiles[i] is BACK for i in group.tiles)
            same = [m for m in truth.melds if m.kind is MeldKind.KONG and m.tiles[0] == meld.tiles[0]]
            meld = next(faces_down, meld) if backs else (same[0] if same else meld)
        melds.append(meld)
    return replace(result.hand, melds=tuple(melds))


def _doubted(result: ScanResult, opening: str) -> bool:
    """Whether the reading has a doubt that begins so."""
    return any(d.message.startswith(opening) for d in result.doubts)


def conventions_of(scene: ComposedScene) -> list[str]:
    """The conventions the scene shows (only those its hand has: a chow convention needs a chow)."""
    c, hand = scene.conventions, scene.hand
    kinds = {("added" if m.added else "concealed" if m.concealed else m.kind.value) for m in hand.melds}
    shown = [f"rotation={c.rotation}", f"sorted={c.sorted}", f"win_apart={c.win_apart}", f"sliver={c.sliver}"]
    if hand.melds:
        shown += [f"melds_at={c.melds_at}"] + ([f"meld_gap={c.meld_gap}"] if len(hand.melds) > 1 else [])
    shown += [f"chow={c.chow}"] if "chow" in kinds else []
    shown += [f"claim={c.claim}"] if kinds & {"pung", "kong"} else []
    shown += [f"added={c.added}"] if "added" in kinds else []
    shown += [f"concealed_kong={c.concealed_kong}"] if "concealed" in kinds else []
    shown += [f"flowers_at={c.flowers_at}"] if hand.flowers else []
    shown += ["white_dragon"] if tile("P") in hand.all_tiles else []
    return shown


def measure(n: int, split: str, seed: int, boxes: bool, cache: Path, failures: Path | None,
            as_json: bool) -> None:
    crops = bank(split, cache)
    detector = None if boxes else Detector()
    totals: Counter[str] = Counter()
    per: dict[str, Counter[str]] = defaultdict(Counter)
    for k in range(n):
        scene = compose(crops, seed + k)
        if boxes:
            classes = np.array([tile(c).index for c in scene.classes])
            detections = TileDetections(scene.boxes, np.ones(len(classes), np.float32), classes)
            result = scan_detections(detections, Situation())
        else:
            result = scan(scene.image, detector, Situation())
        met = judge(scene, result)
        totals.update({key for key, ok in met.items() if ok})
        for convention in conventions_of(scene):
            per[convention]["n"] += 1
            per[convention].update({key for key, ok in met.items() if ok})
        if failures is not None and not met["scored"]:
            _keep(failures, seed + k, scene, result)
    report = {"n": n, "split": split, "seed": seed, "boxes": boxes, **{f: totals[f] / n for f in FIGURES},
              "conventions": {c: {"n": v["n"], **{f: v[f] / v["n"] for f in FIGURES}} for c, v in sorted(per.items())}}
    if as_json:
        print(json.dumps(report, indent=2))
        return
    print(f"{n} scenes ({split} crops{', true boxes' if boxes else ''}): tiles exact {totals['tiles']}, "
          f"grouped exact {totals['grouped']}, scored alike {totals['scored']}, and once the doubts on what the photo "
          f"cannot tell (kongs shown all face down or face up, a winning tile not set apart, melds past a gap, flowers "
          f"left out as unsure) are answered {totals['corrected']}")
    print(f"{'convention':32} {'n':>4} {'tiles':>6} {'grouped':>8} {'scored':>7} {'corrected':>9}")
    for c, v in sorted(per.items()):
        print(f"{c:32} {v['n']:4d} " + " ".join(f"{v[f] / v['n']:{w}.0%}" for f, w in zip(FIGURES, (6, 8, 7, 9))))


def _keep(folder: Path, seed: int, scene: ComposedScene, result: ScanResult) -> None:
    """A missed scene's photo, with what it shows and what was read, for a look by eye."""
    folder.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder / f"scene-{seed}.jpg"), scene.image)
    (folder / f"scene-{seed}.json").write_text(json.dumps({
        "truth": scene.hand.to_json(), "conventions": scene.conventions.to_json(), "read": result.to_json()},
        indent=1))


PICTURED = {  # each convention pictured, in the sheet's order, with its caption there (28 characters at most)
    "chow=left": "chow: claimed tile left", "chow=rank": "chow: claimed tile in place",
    "chow=upright": "chow: nothing turned", "claim=shown": "pung, kong: discarder shown",
    "claim=none": "pung, kong: nothing turned", "melds_at=right": "melds right", "melds_at=left": "melds left",
    "melds_at=front": "melds in front", "melds_at=behind": "melds behind", "meld_gap=touching": "melds touching",
    "meld_gap=wide": "melds far apart", "added=stacked": "added kong: stacked",
    "added=beside": "added kong: beside", "concealed_kong=ends_down": "concealed kong: ends down",
    "concealed_kong=middle_down": "concealed kong: middles down", "concealed_kong=all_down": "concealed kong: all down",
    "concealed_kong=all_up": "concealed kong: all up", "flowers_at=left": "flowers left",
    "flowers_at=right": "flowers right", "flowers_at=row": "flowers in their own row",
    "sliver=True": "a sliver at the edge", "rotation=sideways": "photo sideways", "rotation=any": "photo at any angle",
    "white_dragon": "blank white dragons",
}
PICTURE_SIDE = 560  # pixels: the long side of a documentation picture


def pictures(folder: Path, split: str, cache: Path) -> None:
    """One composed photo per convention (`PICTURED`), the first seed that shows it, for the documentation, and
    all of them on one sheet (``sheet.jpg``, in `PICTURED`'s order, each with its caption) for the README."""
    crops = bank(split, cache)
    folder.mkdir(parents=True, exist_ok=True)
    wanted, seed = set(PICTURED), 0
    drawn: dict[str, np.ndarray] = {}
    while wanted and seed < 10_000:
        scene = compose(crops, seed)
        for convention in sorted(wanted & set(conventions_of(scene)))[:1]:  # a photo pictures one convention
            image = scene.image
            scaled = cv2.resize(image, None, fx=PICTURE_SIDE / max(image.shape[:2]), fy=PICTURE_SIDE / max(image.shape[:2]),
                                interpolation=cv2.INTER_AREA)
            name = convention.replace("=", "-").replace("_", "-").lower()
            cv2.imwrite(str(folder / f"{name}.jpg"), scaled, [cv2.IMWRITE_JPEG_QUALITY, 80])
            print(f"{name}.jpg: seed {seed}, {format_hand(scene.hand)}")
            drawn[convention] = scaled
            wanted.discard(convention)
        seed += 1
    cv2.imwrite(str(folder / "sheet.jpg"), _sheet([(PICTURED[c], drawn[c]) for c in PICTURED if c in drawn]),
                [cv2.IMWRITE_JPEG_QUALITY, 75])


SHEET_COLUMNS, SHEET_CELL = 4, 280  # the sheet's pictures per row, and each one's box (pixels)


def _sheet(captioned: list[tuple[str, np.ndarray]]) -> np.ndarray:
    """The pictures in a grid of `SHEET_COLUMNS`, each fitted in a square cell under its caption."""
    label = 22
    rows = -(-len(captioned) // SHEET_COLUMNS)
    sheet = np.full((rows * (SHEET_CELL + label), SHEET_COLUMNS * SHEET_CELL, 3), 255, np.uint8)
    for k, (caption, image) in enumerate(captioned):
        top, left = (k // SHEET_COLUMNS) * (SHEET_CELL + label), (k % SHEET_COLUMNS) * SHEET_CELL
        scale = (SHEET_CELL - 8) / max(image.shape[:2])
        fitted = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        y, x = top + label + (SHEET_CELL - fitted.shape[0]) // 2, left + (SHEET_CELL - fitted.shape[1]) // 2
        sheet[y:y + fitted.shape[0], x:x + fitted.shape[1]] = fitted
        cv2.putText(sheet, caption, (left + 6, top + label - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                    (40, 40, 40), 1, cv2.LINE_AA)
    return sheet


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.measure.melds", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=200, help="scenes to compose and read (default 200)")
    parser.add_argument("--split", choices=("dev", "test"), default="test", help="which half of the crops")
    parser.add_argument("--seed", type=int, default=0, help="the first scene's seed")
    parser.add_argument("--boxes", action="store_true", help="read the true boxes instead of the photo")
    parser.add_argument("--cache", type=Path, default=ROOT / "data", help="where the crops are kept")
    parser.add_argument("--failures", type=Path, help="write each scene not scored alike here")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--pictures", type=Path, help="write one photo per convention here instead (docs/conventions)")
    args = parser.parse_args(argv)
    if args.pictures:
        return measured(lambda: pictures(args.pictures, args.split, args.cache))
    return measured(lambda: measure(args.n, args.split, args.seed, args.boxes, args.cache, args.failures, args.json))


if __name__ == "__main__":
    raise SystemExit(main())
