"""A base for stand-in detectors in tests: they answer a whole reading in one call, as `Detector.__call__`
does, and this gives them the detector's two steps that `vision.zoom` takes (`locate`, then `read`) and
its threshold (``conf``: none unless a stand-in sets one, so each keeps what it was given)."""

from __future__ import annotations

import numpy as np

from scoring.tiles import TILES
from vision.detections import TileDetections
from vision.detector import NMS_IOU, FaceMemory, Located, top_two


class StandIn:
    """Locating is the stand-in's call (its faces become the scores located); reading gives them back."""

    iou = NMS_IOU
    version = "stand-in"
    conf = 0.0
    stride: int | None = None  # a fixed square input, unless a test frees it
    refiner = None  # boxes as the stand-in gives them

    def locate(self, image: np.ndarray, side: int | None = None) -> Located:
        reading: TileDetections = self(image)  # type: ignore[operator]  # the subclass's reading
        scores = np.zeros((len(reading), len(TILES)), np.float32)
        rows = np.arange(len(reading))
        second = reading.runner_up >= 0
        scores[rows[second], reading.runner_up[second]] = reading.runner_up_confidence[second]
        scores[rows, reading.class_id] = reading.confidence
        return Located(reading.xyxy, scores)

    def read(self, image: np.ndarray, located: Located, turn: int = 0, memory: FaceMemory | None = None,
             ) -> TileDetections:
        reading = TileDetections(located.xyxy, *top_two(located.scores))
        return reading[reading.confidence >= self.conf]

    def tuned(self, views: int | None = None, conf: float | None = None, iou: float | None = None,
              refine: bool | None = None) -> StandIn:
        """The stand-in itself (its reading of crops at any views is its reading; its counters stay
        in one place), held to ``conf`` and ``iou`` when given, noting the views and conf asked for in ``tunings``;
        it has no refiner to turn off."""
        self.tunings = [*getattr(self, "tunings", []), (views, conf)]
        self.conf = self.conf if conf is None else conf
        self.iou = self.iou if iou is None else iou
        return self
