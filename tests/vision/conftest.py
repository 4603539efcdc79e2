"""Helpers the vision tests share: hands laid out in a row (`lay`) and photographed from above (`shoot`) as a
perfect detector would read them, a stand-in detector that reads the same hand in any photo (`FixedTiles`), and
the readings of faces a runner asks for, noted (`reads`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from datasets.layouts import Placed
from models.measure.layout_scenes import SIZE, photograph
from scoring.tiles import TILES
from tests.conftest import StandIn
from vision.detections import TileDetections
from vision.locate import Located
from vision.tilefaces import FaceMemory, Readers, read_faces

Read = tuple[int, tuple[int, ...], np.ndarray, int | None]  # a reading of faces: turn, image shape, boxes, memory

ASPECT = 1.35
GAP = 0.6  # tile widths between groups


def lay(spec: str) -> list[Placed]:
    """Tiles in a row from a spec: a code per tile, ``~`` after a code for a sideways tile, ``|`` a gap."""
    tiles, x = [], 0.0
    for token in spec.split():
        if token == "|":
            x += GAP
            continue
        sideways = token.endswith("~")
        code = token.rstrip("~")
        depth = 1.0 if sideways else ASPECT
        tiles.append(Placed(code if code != "back" else "E", x, ASPECT - depth, sideways, code == "back"))
        x += ASPECT if sideways else 1.0
    return tiles


def chow_apart(gap: float) -> list[Placed]:
    """A chow with no tile turned, ``gap`` tile widths left of standing tiles that read as a hand without it too
    (`46m234p34555678s5m`, or `[345s,1]46m234p55678s5m`)."""
    tiles = lay("3s 4s 5s | 4m 6m 2p 3p 4p 5s 5s 6s 7s 8s | 5m")
    return [replace(t, x=t.x - (GAP - gap)) if k >= 3 else t for k, t in enumerate(tiles)]


def shoot(tiles: list[Placed], angle: float = 0.0, scale: float = 90.0) -> TileDetections:
    """The tiles photographed from straight above, turned by ``angle`` degrees, centred in the photo."""
    a = np.deg2rad(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) * scale
    hom = np.eye(3)
    hom[:2, :2] = rot
    middle = (tiles[0].x + tiles[-1].x + 1.0) / 2
    hom[:2, 2] = np.array(SIZE) / 2 - rot @ np.array([middle, ASPECT / 2])
    detections, where = photograph(tiles, ASPECT, hom)
    assert len(where) == len(tiles), "the test layout must fit in the photo"
    return detections


HAND = "1f 6f | 1m 2m 3m 9p | 9p | 5p~ 5p 5p | 7s 8s~ 9s | E back back E"
NOTATION = "16f[555p,1][789s,2][EEEE]123m9p9p"
SHORT_HAND = "1f | 1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 5s | 5s"  # a flower and a pure straight, 5s set apart


class FixedTiles(StandIn):
    """Stands in for `vision.detector.Detector` in the CLI: the same tiles for any photo, read at a
    size at which they never need a zoomed pass."""

    size = 4000

    def __init__(self, *args: object, **kwargs: object) -> None:
        self.tiles = shoot(lay(SHORT_HAND), 0, scale=40)

    def __call__(self, image: np.ndarray) -> TileDetections:
        return self.tiles


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[Read]:
    """Each reading of faces `vision.views` runs (stage 3, `read_faces`), noted as it is asked: the turn, the
    image's shape, the boxes, and the memory's size then (None: no memory). A stand-in reads no crops, so the
    boxes are remembered here as a face reader remembers what it read."""
    noted: list[Read] = []

    def noting(readers: Readers, image: np.ndarray, located: Located, conf: float, iou: float, turn: int = 0,
               memory: FaceMemory | None = None) -> TileDetections:
        noted.append((turn, image.shape, located.xyxy, None if memory is None else len(memory.xyxy)))
        if memory is not None:
            memory.remember(located.xyxy, np.zeros((len(located.xyxy), len(TILES)), np.float32))
        return read_faces(readers, image, located, conf, iou, turn, memory)

    monkeypatch.setattr("vision.views.read_faces", noting)
    return noted
