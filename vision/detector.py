"""The tile detector at run time: the models of a reading, loaded once, and one reading of an image with them.

`Detector` loads our YOLO model as ONNX (run by onnxruntime, never torch) beside the face reader, its second looks
and the box refiner, and holds them as the two detection stages' values: its `Locator` (stage 2, `vision.locate`:
one pass of the detector, finding the candidate tiles) and its `Readers` (stage 3, `vision.tilefaces.read_faces`:
their faces read). A call runs the one stage, then the other, on one image: each tile's best face and its runner-up
as a `TileDetections`. The stages are apart so that a pass whose tiles will be read again zoomed (`vision.zoom`,
given the `Locator` alone) costs the detector only; `vision.views` runs them for the photo's turns.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import numpy as np

from vision.boxes import BoxRefiner
from vision.detections import TileDetections
from vision.faces import FaceReader, checked_views, face_model_path, reader_paths
from vision.locate import BoxBins, Locator
from vision.onnxmodel import OnnxModel
from vision.tilefaces import Readers, read_faces
from vision.weights import BOX_REFINER, DETECTOR, shipped

NMS_IOU = 0.5  # IoU over which two boxes of one face are one tile: tiles standing in a row overlap far less, and at
# 0.6 a tile read twice (two boxes a few pixels apart) stayed twice, which no hand can hold


def default_model_path() -> Path:
    """The shipped detector (`vision.weights`); a clear error if this checkout has none yet."""
    path = shipped(DETECTOR)
    if not path.is_file():
        raise FileNotFoundError(f"no shipped detector at {path}: train one (`mcr train`) or pass --model")
    return path


def checked_conf(conf: float) -> float:
    """A confidence threshold, refused outside (0, 1) where it would keep every box or none."""
    if not 0.0 < conf < 1.0:
        raise ValueError(f"need 0 < conf < 1 (got {conf})")
    return conf


def checked_iou(iou: float) -> float:
    """An NMS overlap threshold, refused outside (0, 1] where no box would be kept or merged."""
    if not 0.0 < iou <= 1.0:
        raise ValueError(f"need 0 < iou <= 1 (got {iou})")
    return iou


class Detector:
    """Finds and reads every tile in a photo with our ONNX model, each face read again by the face
    reader (`vision.faces`) when there is one; load once, call per image.

    ``face_model``: a face reader's ONNX file; None takes the shipped one when the checkout has it.
    ``second_looks``: likewise, by name (`vision.faces.SECOND_LOOKS`), the readers that look again at tiles
    read as one of their few faces (flowers and seasons, characters). ``faces=False`` reads faces with the
    detector alone. ``views``: the quarter turns at which the readers read each crop one view leaves in doubt
    (1, 2 or 4: `FaceReader.__call__`, `vision.faces.SURE_VIEW`); 1 by default, as `mcr detect`, `eval` and
    `label` read (`scan` reads its first reading at `vision.scan.SCAN_VIEWS`). ``box_model``: the box
    refiner's ONNX file (`vision.boxes`), None the shipped one when the checkout has it; ``refine=False``
    keeps the boxes as the detector drew them."""

    def __init__(
        self,
        model_path: str | Path | None = None,
        threads: int = 2,
        conf: float = 0.25,
        iou: float = NMS_IOU,
        max_det: int = 300,
        face_model: str | Path | None = None,
        faces: bool = True,
        second_looks: Mapping[str, str | Path | None] | None = None,
        views: int = 1,
        box_model: str | Path | None = None,
        refine: bool = True,
    ) -> None:
        if threads < 1:
            raise ValueError(f"need threads >= 1 (got {threads})")
        conf, iou, views = checked_conf(conf), checked_iou(iou), checked_views(views)  # refused before loading
        path = Path(model_path) if model_path is not None else default_model_path()
        model = OnnxModel.load(path, threads, "model", "models.training.export")
        self.size, self.classes = model.size, model.classes
        self.locator = Locator(model, BoxBins.of(model.metadata), conf, iou, max_det)
        face_path, look_paths = reader_paths(face_model, second_looks, faces)
        refiner_path = face_model_path(box_model, refine, BOX_REFINER)
        self.readers = Readers(
            FaceReader(face_path, threads) if face_path is not None else None,
            {name: FaceReader(path, threads) for name, path in look_paths.items()},
            BoxRefiner(refiner_path, threads) if refiner_path is not None else None,
            views,
        )

    def __call__(self, image: np.ndarray) -> TileDetections:
        """Detections for one BGR image (as `load_image` or cv2 gives it), in its own pixel coordinates: the
        candidates located (stage 2), then their faces read (stage 3)."""
        return read_faces(self.readers, image, self.locator(image), self.conf, self.iou)

    def tuned(self, views: int | None = None, conf: float | None = None, iou: float | None = None,
              refine: bool | None = None) -> Detector:
        """The same detector (its sessions shared, nothing loaded again) reading each crop at ``views``
        quarter turns, keeping tiles surer than ``conf`` and boxes of one face overlapping less than ``iou``,
        each as before when not given; ``refine=False``: its boxes as drawn, no refiner."""
        other = copy.copy(self)
        other.locator = replace(self.locator, conf=self.conf if conf is None else checked_conf(conf),
                                iou=self.iou if iou is None else checked_iou(iou))
        other.readers = replace(self.readers, views=self.views if views is None else checked_views(views),
                                refiner=None if refine is False else self.refiner)
        return other

    @property
    def conf(self) -> float:
        """The tile threshold both stages hold candidates and read tiles to."""
        return self.locator.conf

    @property
    def iou(self) -> float:
        """The overlap over which both stages take two boxes of one face for one tile."""
        return self.locator.iou

    @property
    def views(self) -> int:
        """The quarter turns at which the readers read each crop one view leaves in doubt."""
        return self.readers.views

    @property
    def faces(self) -> FaceReader | None:
        """The face reader (None: faces as the detector scores them)."""
        return self.readers.faces

    @property
    def second_looks(self) -> Mapping[str, FaceReader]:
        """The second-look readers, by name."""
        return self.readers.second_looks

    @property
    def refiner(self) -> BoxRefiner | None:
        """The box refiner (None: boxes as drawn)."""
        return self.readers.refiner

    @property
    def version(self) -> str:
        """The detector's version and those of the models it reads with (``+faces-…``, a second look's,
        ``+boxes-…``)."""
        version = self.locator.model.version
        if self.faces is not None:
            version += f"+faces-{self.faces.version}"
        version += "".join(f"+{name}-{reader.version}" for name, reader in self.second_looks.items())
        return version + (f"+boxes-{self.refiner.version}" if self.refiner is not None else "")

    @property
    def stride(self) -> int | None:
        """The multiple of which a free-shaped model's input sides are; None for a fixed square input,
        which reads every image at ``size``."""
        return self.locator.stride
