"""Loading one of our ONNX models (the detector, the face readers, the box refiner) for CPU inference, with clear
errors.

The detector and the readers carry their output classes as a JSON list of tile codes in the metadata key
``classes``; each model a ``version``; their input is a batch of RGB images (`to_blob`), grey (`PAD_VALUE`)
where the input reaches past the photo. A reader's input (and the refiner's) is a fixed square whose side
this reads from the graph; the detector's height and width are free (exported with dynamic axes): it learned
at the side its metadata ``imgsz`` gives and reads a photo at that long side, padded only up to a multiple of
its ``stride``, so a thin strip costs a thin input (a 1005×473 zoom window 18.5 -> 10.7 ms). The rest of a
model's metadata is kept (``metadata``) for the code that reads its output (`vision.locate.BoxBins`). What a
model's per-class scores say, as the locate and read-faces stages both read them: in the tile vocabulary's
order (`in_tile_order`), and how sure they are of a tile whatever its face (`tile_there`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from scoring.tiles import TILES, tile

PAD_VALUE = 114  # Ultralytics' letterbox grey: what both models saw outside a photo while training


def to_blob(images: np.ndarray) -> np.ndarray:
    """BGR uint8 images (n, h, w, 3), as cv2 gives them, as our models' input: RGB float 0–1, (n, 3, h, w). One
    pass into one new array (a reordered copy, a float copy and a quotient were three), the same values."""
    n, height, width, _ = images.shape
    blob = np.empty((n, 3, height, width), np.float32)
    np.divide(images[..., ::-1].transpose(0, 3, 1, 2), np.float32(255), out=blob, dtype=np.float32)
    return blob


def in_tile_order(scores: np.ndarray, tile_index: np.ndarray) -> np.ndarray:
    """A model's per-class columns placed in the tile vocabulary's order (faces it lacks score 0)."""
    placed = np.zeros((len(scores), len(TILES)), np.float32)
    placed[:, tile_index] = scores
    return placed


def tile_there(class_scores: np.ndarray, axis: int) -> np.ndarray:
    """How sure a model is of a tile, whatever its face: the noisy-or of its independent per-face
    scores along ``axis``. A tile the detector hesitates over between faces (a flower of a set it has
    not seen, eight faces at 0.1 each) is still surely a tile: its best face alone would drop it."""
    return 1.0 - np.prod(1.0 - class_scores, axis=axis)


@dataclass(frozen=True)
class OnnxModel:
    """An onnxruntime session with what our code needs to know about it."""

    session: Any
    input_name: str
    size: int  # the input's side; a free-shaped input's long side
    stride: int | None  # a free-shaped input's sides are multiples of this; None: a fixed square of ``size``
    classes: tuple[str, ...]
    tile_index: np.ndarray  # each output class's index in the tile vocabulary
    version: str
    metadata: dict[str, str]  # every key the exporter wrote

    @classmethod
    def load(cls, path: Path, threads: int, kind: str, exporter: str, classes: bool = True) -> OnnxModel:
        """The model at ``path`` (a ``kind`` such as "model", for messages), run on ``threads`` CPU
        threads; ``exporter`` names the module that writes its metadata. ``classes=False``: a model whose
        output is no faces (the box refiner), without that metadata."""
        import onnxruntime as ort

        if not path.is_file():
            raise FileNotFoundError(f"{path}: no such {kind} file")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        # No spinning between runs: the detector and the readers take turns on the same cores, and a session
        # whose idle threads spin takes them from the others (a photo's reading twice as slow); letting the
        # detector's threads alone spin speeds its own pass but slows a scan as a whole.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        # No memory arena: it keeps the buffers of the largest input a session has seen for good, and a service
        # reading photos of every size (zoomed passes, crops in batches of every count) grew past 600 MB on it;
        # without it the memory is given back after each run, at no cost to a scan's time that we could measure.
        options.enable_cpu_mem_arena = False
        try:
            session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own types for corrupt files
            raise ValueError(f"{path}: not a loadable ONNX model ({exc})") from exc
        model_input = session.get_inputs()[0]
        meta = session.get_modelmeta().custom_metadata_map
        if classes and "classes" not in meta:
            raise ValueError(f"{path}: {kind} has no 'classes' metadata (export it with {exporter})")
        codes = tuple(json.loads(meta.get("classes", "[]")))
        side = model_input.shape[-1]
        if isinstance(side, int):
            size, stride = side, None
        elif "imgsz" in meta and "stride" in meta:
            size, stride = int(meta["imgsz"]), int(meta["stride"])
        else:
            raise ValueError(f"{path}: {kind} input of free size without 'imgsz' and 'stride' metadata "
                             f"(export it with {exporter})")
        return cls(session, model_input.name, size, stride, codes,
                   np.array([tile(code).index for code in codes], dtype=np.int64), meta.get("version", "unknown"),
                   dict(meta))

    def run(self, blob: np.ndarray) -> np.ndarray:
        """The first output for an input batch."""
        return self.session.run(None, {self.input_name: blob})[0]
