"""The face reader's crop geometry (shared by training and inference) and its loading errors."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from scoring.tiles import CLASS_NAMES, tile
from vision import faces
from vision.faces import (
    MARGIN,
    SECOND_LOOK,
    SECOND_LOOKS,
    SURE_READ,
    SURE_VIEW,
    FaceReader,
    crop_window,
    face_model_path,
    reader_paths,
    shrunk,
    square_crop,
    window,
)
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


def test_shrunk_averages_whole_blocks() -> None:
    patch = np.arange(4 * 6 * 3, dtype=np.uint8).reshape(4, 6, 3)
    small = shrunk(patch, 3, 2)  # 3 columns and 2 rows to a pixel
    assert small.shape == (2, 2, 3)
    assert (small[1, 0] == np.round(patch[2:4, 0:3].reshape(-1, 3).mean(axis=0))).all()


@pytest.mark.parametrize(("side", "size"), [(97.0, 48), (333.0, 48), (1000.0, 48), (250.4, 96)])
def test_a_window_shrunk_in_two_steps_is_the_picture_one_area_resize_gives(side: float, size: int) -> None:
    """Twice the crop or more, the window is shrunk by a whole factor first (grown to a multiple of it): the crop
    is the single area resize's picture, to a few grey levels at the edges the growing adds."""
    blurred = cv2.GaussianBlur(np.random.default_rng(3).integers(0, 256, (700, 700, 3), np.uint8), (0, 0), 4)
    x0, s = round(350.3 - side / 2), round(side)
    once = cv2.resize(window(blurred, x0, x0, x0 + s, x0 + s), (size, size), interpolation=cv2.INTER_AREA)
    difference = np.abs(square_crop(blurred, 350.3, 350.3, side, size).astype(int) - once)
    assert difference.mean() < 1.5 and difference.max() <= 8


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
    monkeypatch.setattr("vision.faces.default_face_model_path", lambda name: tmp_path / name)
    assert face_model_path() is None  # a checkout without a shipped reader: the detector alone
    (tmp_path / "mcr-faces.onnx").write_bytes(b"")
    assert face_model_path() == tmp_path / "mcr-faces.onnx"
    shipped, flowers = tmp_path / "mcr-faces.onnx", tmp_path / SECOND_LOOKS["flowers"]
    assert reader_paths() == (shipped, {})  # the second looks are looked up alike
    flowers.write_bytes(b"")
    assert reader_paths() == (shipped, {"flowers": flowers})
    mine = tmp_path / "mine-characters.onnx"
    assert reader_paths(given, {"characters": mine}) == (given, {"flowers": flowers, "characters": mine})
    assert reader_paths(faces=False) == (None, {})
    with pytest.raises(ValueError, match="no second-look reader named dots"):
        reader_paths(second_looks={"dots": mine})
    shipped.unlink()
    assert reader_paths() == (None, {})  # no face reader: nothing for a second look to look again at


class FlowerReader(FaceReader):
    """A second-look reader of the eight flowers and seasons that reads every crop it is given as autumn
    (7f, 0.6) or spring (5f, 0.2), the rest spread evenly, and records the boxes it was asked about."""

    def __init__(self) -> None:  # no ONNX file: what `FaceReader` reads from one, set here
        self.classes = tuple(f"{i}f" for i in range(1, 9))
        self.tile_index = np.array([tile(code).index for code in self.classes])
        self.asked: list[np.ndarray] = []

    def __call__(self, image: np.ndarray, xyxy: np.ndarray, views: int = 1, turn: int = 0) -> np.ndarray:
        self.asked.append(xyxy)
        reading = np.full(8, 0.2 / 6, np.float32)
        reading[[4, 6]] = 0.2, 0.6
        return np.tile(reading, (len(xyxy), 1))


def test_second_look_rereads_crops_mostly_on_its_faces_and_spreads_their_share_by_both_readings() -> None:
    probs = np.zeros((3, len(CLASS_NAMES)), np.float32)
    probs[0, [tile("1m").index, tile("7f").index]] = 0.9, 0.1  # a character: not looked at again
    probs[1, [tile("E").index, tile("5f").index, tile("7f").index]] = 0.4, 0.3, 0.3  # a season, unsure which
    probs[2, [tile("W").index, tile("1f").index, tile("8f").index]] = 1 - SECOND_LOOK, SECOND_LOOK / 2, SECOND_LOOK / 2
    xyxy = np.array([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10]], np.float32)
    reader = FlowerReader()
    again = reader.second_look(np.zeros((10, 60, 3), np.uint8), xyxy, probs)
    assert len(reader.asked) == 1 and (reader.asked[0] == xyxy[1:]).all()  # one batch, the last two crops
    assert (again[0] == probs[0]).all()
    autumn = np.sqrt(0.3 * 0.6) / (np.sqrt(0.3 * 0.6) + np.sqrt(0.3 * 0.2))  # geometric mean, renormalised
    assert again[1, tile("7f").index] == pytest.approx(0.6 * autumn)  # both readers' choice, surer than either
    assert again[1, tile("5f").index] == pytest.approx(0.6 * (1 - autumn))
    assert again[1, tile("E").index] == pytest.approx(0.4)  # the share outside the flowers is kept
    assert again[1, tile("8f").index] < 1e-9 and again[2, tile("7f").index] < 1e-9  # the face reader ruled them out
    assert again[2, tile("1f").index] == pytest.approx(SECOND_LOOK / 2)  # the second look: no preference
    assert again.sum(axis=1) == pytest.approx([1, 1, 1])
    assert probs[1, tile("5f").index] == pytest.approx(0.3)  # the reading given is left as it was


def test_second_look_leaves_a_crop_read_surely_as_read() -> None:
    probs = np.zeros((2, len(CLASS_NAMES)), np.float32)
    probs[0, [tile("7f").index, tile("5f").index]] = SURE_READ, 1 - SURE_READ  # sure of autumn already
    probs[1, [tile("7f").index, tile("5f").index]] = SURE_READ - 0.05, 1.05 - SURE_READ
    xyxy = np.array([[0, 0, 10, 10], [20, 0, 30, 10]], np.float32)
    reader = FlowerReader()
    again = reader.second_look(np.zeros((10, 40, 3), np.uint8), xyxy, probs)
    assert len(reader.asked) == 1 and (reader.asked[0] == xyxy[1:]).all()  # only the unsure crop
    assert (again[0] == probs[0]).all() and not np.allclose(again[1], probs[1])


class QuadrantReader(FaceReader):
    """A reader of four 'faces' whose reading is the softmax of a crop's four quadrants' brightness: it
    tells a crop from the same crop turned, as a real reader may."""

    def __init__(self) -> None:  # no ONNX file: what `FaceReader` reads from one, set here
        self.size, self.classes = 16, ("1m", "2m", "3m", "4m")
        self._model = self  # `run` below stands in for the ONNX session

    def run(self, blob: np.ndarray) -> np.ndarray:
        quadrants = np.stack([blob[:, :, :8, :8], blob[:, :, :8, 8:], blob[:, :, 8:, 8:], blob[:, :, 8:, :8]], 1)
        logits = 4 * quadrants.mean(axis=(2, 3, 4))
        return np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)


def test_more_views_read_each_crop_turned_and_take_the_geometric_mean() -> None:
    rng = np.random.default_rng(0)
    photo = rng.integers(0, 256, (40, 40, 3), dtype=np.uint8)
    box = np.array([[0, 0, 40, 40]], np.float32)  # centred: a quarter turn of the photo turns its crop
    reader = QuadrantReader()
    upright, upside_down = reader(photo, box), reader(np.rot90(photo, 2).copy(), box)
    assert not np.allclose(upright, upside_down, atol=1e-3)  # one view depends on the way up
    two = np.sqrt(upright * upside_down)
    assert reader(photo, box, views=2) == pytest.approx(two / two.sum(), abs=1e-5)
    four = reader(photo, box, views=4)
    assert four == pytest.approx(reader(np.rot90(photo).copy(), box, views=4), abs=1e-5)  # every way up alike
    assert four.sum() == pytest.approx(1.0)
    with pytest.raises(ValueError, match=r"views must be one of \[1, 2, 4\], not 3"):
        reader(photo, box, views=3)
    for turn in range(4):  # a turn reads each crop as the photo turned that way shows it
        turned = np.rot90(photo, turn).copy()
        assert reader(photo, box, turn=turn) == pytest.approx(reader(turned, box), abs=1e-6)
        assert reader(photo, box, views=2, turn=turn) == pytest.approx(reader(turned, box, views=2), abs=1e-6)


def test_only_a_crop_its_first_view_leaves_in_doubt_is_read_turned(monkeypatch: pytest.MonkeyPatch) -> None:
    photo = np.zeros((60, 120, 3), np.uint8)
    photo[5:30, 65:90] = 255  # the right crop's top-left quadrant bright: its first view reads "1m" surely
    photo[5:30, 5:30] = 120  # the left crop's only faintly: in doubt
    boxes = np.array([[10, 10, 50, 50], [70, 10, 110, 50]], np.float32)
    reader = QuadrantReader()
    batches: list[int] = []
    run = reader.run
    reader.run = lambda blob: (batches.append(len(blob)), run(blob))[1]  # type: ignore[method-assign]
    once = reader(photo, boxes)
    assert once[1].max() >= SURE_VIEW > once[0].max()
    batches.clear()
    four = reader(photo, boxes, views=4)
    assert batches == [2, 3]  # both crops at their first view, then the doubtful one at the other three
    assert four[1] == pytest.approx(once[1], abs=1e-6)  # the sure crop: its first view's reading
    monkeypatch.setattr(faces, "SURE_VIEW", 1.01)  # every crop in doubt: each read at its four turns
    assert four[0] == pytest.approx(reader(photo, boxes, views=4)[0], abs=1e-6)
    assert not np.allclose(four[0], once[0], atol=1e-3)


def test_reader_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="nothing.onnx: no such face model file"):
        FaceReader(tmp_path / "nothing.onnx")
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not a model")
    with pytest.raises(ValueError, match="junk.onnx: not a loadable ONNX model"):
        FaceReader(junk)
