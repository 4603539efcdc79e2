"""Crops of real tiles, by face, for composed hand photos (`datasets.composed`): cut from the training photos of the
labelled real dataset (tiles whose box overlaps no other box and shows the face square on; never the held-out
photos), split by source photo into ``dev`` (for choosing constants) and ``test`` (measured only), with face-down
tiles coloured from them (the source labels none).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from datasets.real_photos import class_map, is_held_out, read_labels, source_name
from scoring.tiles import BACK, PLAYABLE, TILES, tile
from vision.faces import FaceReader

OVERLAP = 0.05  # a crop's box shares less than this share of its area with any other box (touching is fine)
UPRIGHT = (0.95, 1.8)  # height over width of a box that shows an upright tile's face
MIN_CROP = 18  # pixels: narrower boxes are too blurred to stand for a tile
SPLITS = ("dev", "test")
SIDES = Path(__file__).with_name("composed_sides.json")  # which crops each split keeps mirrored, as the face reader
# chose them once: it tells most crops from their mirror image by a hair, so a choice made again drifts with any change
# to its crops, and the measure with it
BANK_VERSION = 3  # of what a split's crops are (`CropBank.from_source`): cached banks of another version are cut again
LABEL_FIXES: dict[tuple[str, int], str | None] = {
    # (label file's stem, row): the face the tile shows, None where its label is wrong and its face unsure. Checked
    # by eye in the photo; the readers were trained on these labels as they are.
    ("2aGXQnBH5SHRuF2LqyrkpYxAIOY3vY_jpg.rf.5662bf152f937a69bd6cdd8fa65f6830", 70): "7f",  # 3 秋 labelled spring
    ("393106986_330400479921277_8639035021738803631_n_jpg.rf.0ad7e1d99c0336ff3d1a5b10dde1500d", 14): None,  # one
    # of three alike tiles in a row, labelled winter: a set has one winter
    ("421228375_228393930327701_3607711690449264464_n_jpg.rf.abbccdccdbaebd826ad212bb66cd89d3", 1): "6s",  # six
    # sticks and the index 6 (a 6s of the same pink set beside it in the bank), labelled 9s
}


def crop_split(source: str) -> str:
    """Which split a source photo's crops belong to: a stable hash, half and half."""
    return SPLITS[hashlib.sha256(f"composed:{source}".encode()).digest()[0] % 2]


class CropBank:
    """Crops of upright real tiles by face code, from the source dataset (``chinese-mahjong-v4``: its
    ``classes.tsv`` and ``train/{images,labels}``), one split of its training source photos."""

    def __init__(self, crops: dict[str, list[np.ndarray]]) -> None:
        missing = [t.code for t in (*PLAYABLE, BACK) if not crops.get(t.code)]
        if missing:
            raise ValueError(f"the crop bank has no crop of {', '.join(missing)}")
        self.crops = crops

    @classmethod
    def from_source(cls, root: Path, split: str, reader: FaceReader, per_face: int = 40) -> CropBank:
        """The crops of one split, each under its label (`LABEL_FIXES` corrected). The source mirrored about half
        its augmented copies, and a mirrored character is no tile's face: each crop is kept as is or mirrored, as
        `SIDES` records for the split, and where its record is not of these crops (another count: another source),
        whichever the face reader finds likelier to be its labelled face (it only chooses the side; every crop is
        kept)."""
        if split not in SPLITS:
            raise ValueError(f"split {split!r}: one of {', '.join(SPLITS)}")
        mapping = class_map(root / "classes.tsv")
        cuts: list[tuple[str, np.ndarray]] = []
        taken: Counter[str] = Counter()
        for label in sorted((root / "train" / "labels").glob("*.txt")):
            source = source_name(label)
            if is_held_out(source) or crop_split(source) != split:
                continue
            rows = read_labels(label, mapping)
            wanted = [k for k in _isolated_upright(rows) if taken[TILES[int(rows[k, 0])].code] < per_face]
            image = cv2.imread(str(root / "train" / "images" / f"{label.stem}.jpg")) if wanted else None
            if image is None:
                continue
            height, width = image.shape[:2]
            for k in wanted:
                _, cx, cy, w, h = rows[k]
                x0, x1 = int(round((cx - w / 2) * width)), int(round((cx + w / 2) * width))
                y0, y1 = int(round((cy - h / 2) * height)), int(round((cy + h / 2) * height))
                x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
                if x1 - x0 < MIN_CROP:
                    continue
                crop = image[y0:y1, x0:x1]
                code = LABEL_FIXES.get((label.stem, k), TILES[int(rows[k, 0])].code)
                if code is None or not _square_on(crop):
                    continue
                cuts.append((code, crop.copy()))
                taken[code] += 1
        sides = _recorded_sides(split, len(cuts))
        found: dict[str, list[np.ndarray]] = {}
        for k, (code, crop) in enumerate(cuts):
            mirrored = sides[k] if sides is not None else _mirrored(crop, tile(code).index, reader)
            found.setdefault(code, []).append(np.ascontiguousarray(crop[:, ::-1]) if mirrored else crop)
        faces = [crop for code, crops in sorted(found.items()) for crop in crops]
        found[BACK.code] = [_back(faces[k % len(faces)], colour) for k, colour in enumerate(BACKS)]
        return cls(found)

    def save(self, path: Path) -> None:
        arrays = {f"{code}/{i}": crop for code, crops in self.crops.items() for i, crop in enumerate(crops)}
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path: Path) -> CropBank:
        crops: dict[str, list[np.ndarray]] = {}
        with np.load(path) as data:
            for key in sorted(data.files, key=lambda k: (k.split("/")[0], int(k.split("/")[1]))):
                crops.setdefault(key.split("/")[0], []).append(data[key])
        return cls(crops)

    def pick(self, code: str, rng: np.random.Generator) -> np.ndarray:
        options = self.crops[code]
        return options[int(rng.integers(len(options)))]


def _mirrored(crop: np.ndarray, label: int, reader: FaceReader) -> bool:
    """Whether the face reader reads the crop's mirror image likelier as ``label`` than the crop."""
    pad = cv2.copyMakeBorder(crop, 8, 8, 8, 8, cv2.BORDER_REPLICATE)
    box = np.array([[8, 8, 8 + crop.shape[1], 8 + crop.shape[0]]], np.float32)
    as_is, mirrored = (float(reader(view, box)[0, label]) for view in (pad, np.ascontiguousarray(pad[:, ::-1])))
    return mirrored > as_is


def _recorded_sides(split: str, count: int) -> list[bool] | None:
    """`SIDES`' flags for a split's ``count`` crops, in the order `CropBank.from_source` cuts them (True: kept
    mirrored); None where the record holds another number of crops."""
    flags = json.loads(SIDES.read_text()).get(split, "")
    return [flag == "1" for flag in flags] if len(flags) == count else None


BACKS = ((40, 140, 40), (160, 90, 30), (40, 190, 230), (40, 110, 230), (50, 40, 190), (150, 50, 120),
         (30, 90, 30), (120, 60, 20))  # BGR: green, blue, yellow, orange, red, purple, dark green, navy


def _back(face: np.ndarray, colour: tuple[int, int, int]) -> np.ndarray:
    """A face-down tile of a set with backs of ``colour``: the source has no face-down tile labelled, so
    a real crop's light and shading (its face blurred away) is coloured; an ivory rim on one long side
    where the face layer shows, as on two-tone tiles."""
    shade = cv2.GaussianBlur(cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), face.shape[1] / 4)
    shade = shade / max(float(shade.mean()), 1.0)
    back = np.array(colour, np.float32)[None, None] * shade[..., None]
    rim = max(1, face.shape[0] // 12)
    back[-rim:] = 0.5 * back[-rim:] + 0.5 * np.float32([200, 225, 235]) * shade[-rim:, :, None]
    return np.clip(back, 0, 255).astype(np.uint8)


SQUARE_ON = 45.0  # colour distance (0-255 BGR) under which a crop's corners match its edges' middles


def _square_on(crop: np.ndarray) -> bool:
    """Whether the crop shows a tile square to its box: its corners are the tile's rim, like the middles
    of its edges, not the table around a tile lying at an angle."""
    h, w = crop.shape[:2]
    a, b = max(h // 10, 1), max(w // 10, 1)

    def patch(y: int, x: int) -> np.ndarray:
        return crop[max(y - a // 2, 0):y + a // 2 + 1, max(x - b // 2, 0):x + b // 2 + 1].reshape(-1, 3).mean(axis=0)

    corners = [patch(y, x) for y in (a // 2, h - 1 - a // 2) for x in (b // 2, w - 1 - b // 2)]
    rim = np.median([patch(a // 2, w // 2), patch(h - 1 - a // 2, w // 2), patch(h // 2, b // 2), patch(h // 2, w - 1 - b // 2)], axis=0)
    return max(float(np.linalg.norm(c - rim)) for c in corners) < SQUARE_ON


def _isolated_upright(rows: np.ndarray) -> list[int]:
    """Indices of label rows (``class cx cy w h``) whose box shares under `OVERLAP` of its area with any
    other box and is shaped like an upright tile."""
    boxes = np.stack([rows[:, 1] - rows[:, 3] / 2, rows[:, 2] - rows[:, 4] / 2,
                      rows[:, 1] + rows[:, 3] / 2, rows[:, 2] + rows[:, 4] / 2], axis=1)
    keep = []
    for k, box in enumerate(boxes):
        others = np.delete(boxes, k, axis=0)
        w = np.clip(np.minimum(others[:, 2], box[2]) - np.maximum(others[:, 0], box[0]), 0, None)
        h = np.clip(np.minimum(others[:, 3], box[3]) - np.maximum(others[:, 1], box[1]), 0, None)
        shared = float((w * h).max(initial=0.0)) / float(rows[k, 3] * rows[k, 4])
        if shared < OVERLAP and UPRIGHT[0] <= rows[k, 4] / max(rows[k, 3], 1e-9) <= UPRIGHT[1]:
            keep.append(k)
    return keep
