"""The face reader's crop geometry (shared by training and inference) and its loading errors."""

from pathlib import Path

import numpy as np
import pytest

from vision.faces import MARGIN, FaceReader, crop_window, face_model_path, square_crop
from vision.onnxmodel import to_blob


def test_crop_window_is_square_around_the_box_with_a_margin() -> None:
    cx, cy, side = crop_window(np.array([100, 50, 130, 90]))  # a portrait tile 30×40
    assert (cx, cy) == (115, 70)
    assert side == pytest.approx(40 * (1 + 2 * MARGIN))


def test_square_crop_centres_the_tile_and_scales_it() -> None:
    image = np.zeros((200, 300, 3), np.uint8)
    image[50:90, 100:130] = 255  # the tile
    crop = square_crop(image, 115, 70, 80, 40)  # a window twice the tile's height, halved
    ys, xs = np.nonzero(crop[:, :, 0] > 127)
    assert (ys.min(), ys.max(), xs.min(), xs.max()) == (10, 29, 12, 27)


def test_square_crop_pads_outside_the_image_with_grey() -> None:
    image = np.full((100, 100, 3), 200, np.uint8)
    crop = square_crop(image, 0, 0, 40, 40)  # centred on the corner: three quarters outside
    assert (crop[:20, :20] == 114).all() and (crop[20:, 20:] == 200).all()
    assert (crop[:20, 20:] == 114).all() and (crop[20:, :20] == 114).all()


def test_square_crop_shrinks_without_aliasing() -> None:
    stripes = np.zeros((400, 400, 3), np.uint8)
    stripes[:, ::2] = 255  # one-pixel stripes: nearest-pixel sampling would give pure black or white
    crop = square_crop(stripes, 200, 200, 400, 40)
    assert np.abs(crop.astype(int) - 127).max() <= 2


def test_blob_is_rgb_channels_first_in_unit_range() -> None:
    crops = np.zeros((2, 8, 8, 3), np.uint8)
    crops[..., 2] = 255  # red in BGR
    blob = to_blob(crops)
    assert blob.shape == (2, 3, 8, 8) and blob.dtype == np.float32
    assert (blob[:, 0] == 1.0).all() and (blob[:, 1:] == 0.0).all()


def test_which_face_reader_a_detector_uses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    given = tmp_path / "mine.onnx"
    assert face_model_path(given) == given  # given: that one, checked when loaded
    assert face_model_path(given, faces=False) is None
    monkeypatch.setattr("vision.faces.default_face_model_path", lambda: tmp_path / "shipped.onnx")
    assert face_model_path() is None  # a checkout without a shipped reader: the detector alone
    (tmp_path / "shipped.onnx").write_bytes(b"")
    assert face_model_path() == tmp_path / "shipped.onnx"


def test_reader_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="nothing.onnx: no such face model file"):
        FaceReader(tmp_path / "nothing.onnx")
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not a model")
    with pytest.raises(ValueError, match="junk.onnx: not a loadable ONNX model"):
        FaceReader(junk)
