"""The box refiner's region geometry (shared by training and inference) and its loading."""

from pathlib import Path

import numpy as np
import pytest

from vision.boxes import (
    BLEND,
    MARGIN,
    BoxRefiner,
    edges_in_region,
    outlines_from,
    region_view,
    regions,
    turned_edges,
)

SIZE = 64


def drawn_tile(height: int, width: int, outline: tuple[int, int, int, int]) -> np.ndarray:
    """A grey photo with one white tile whose outline (x1, y1, x2, y2, pixels) is given."""
    image = np.full((height, width, 3), 40, np.uint8)
    x1, y1, x2, y2 = outline
    image[y1:y2, x1:x2] = 255
    return image


def extent(view: np.ndarray) -> np.ndarray:
    """Where the white tile lies in a view, as shares of its side (x1, y1, x2, y2), to a fraction of a view
    pixel: each axis' profile of the tile's share of a pixel gives its width (the sum) and its centre."""
    share = np.clip((view[:, :, 0].astype(np.float64) - 40) / (255 - 40), 0, 1)
    lo, hi = [], []
    for profile in (share.sum(axis=0), share.sum(axis=1)):
        profile = profile / profile.max()
        width = profile.sum()
        centre = ((np.arange(len(profile)) + 0.5) * profile).sum() / width
        lo.append(centre - width / 2)
        hi.append(centre + width / 2)
    return np.array(lo + hi, np.float32) / view.shape[0]


def test_a_region_is_the_box_with_a_margin_on_every_side() -> None:
    x, y, w, h = regions(np.array([100, 50, 130, 90]))[0]  # a portrait tile 30×40
    assert (x, y) == pytest.approx((100 - 30 * MARGIN, 50 - 40 * MARGIN))
    assert (w, h) == pytest.approx((30 * (1 + 2 * MARGIN), 40 * (1 + 2 * MARGIN)))
    box = np.array([[100, 50, 130, 90]], np.float32)
    assert edges_in_region(box, box)[0] == pytest.approx(np.array([MARGIN, MARGIN, 1 + MARGIN, 1 + MARGIN])
                                                         / (1 + 2 * MARGIN))


def test_edges_in_a_region_map_back_to_the_outline() -> None:
    rng = np.random.default_rng(0)
    origin = rng.uniform(0, 500, (20, 2))
    boxes = np.concatenate([origin, origin + rng.uniform(10, 80, (20, 2))], axis=1).astype(np.float32)
    outlines = boxes + rng.normal(0, 5, boxes.shape).astype(np.float32)
    assert outlines_from(boxes, edges_in_region(boxes, outlines)) == pytest.approx(outlines, abs=1e-3)


@pytest.mark.parametrize(("shape", "outline"), [
    ((480, 640), (200, 100, 236, 150)),  # warped directly
    ((480, 640), (201, 103, 205, 109)),  # a tiny tile, blown up four times
    ((4000, 3000), (1667, 833, 1967, 1250)),  # shrunk by area first
])
def test_the_view_shows_the_tile_where_its_edges_say(shape: tuple[int, int], outline: tuple[int, ...]) -> None:
    image = drawn_tile(*shape, outline)
    box = np.array(outline, np.float32) + np.array([-1, 1, 2, 1], np.float32) * shape[0] / 480  # the detector's miss
    view = region_view(image, box, SIZE)
    assert view.shape == (SIZE, SIZE, 3)
    # within a fifth of a view pixel at every scale (a resize that maps pixel corners, not centres, sits
    # 0.5·(scale − 1) pixels off)
    assert extent(view) == pytest.approx(edges_in_region(box, np.array(outline))[0], abs=0.2 / SIZE)


def test_a_view_past_the_photo_is_grey_there() -> None:
    image = drawn_tile(100, 100, (0, 0, 30, 40))
    view = region_view(image, np.array([0, 0, 30, 40], np.float32), SIZE)  # the margin lies outside the photo
    assert (view[:5, :5] == 114).all() and (view[SIZE // 2, SIZE // 2] == 255).all()


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_turned_edges_are_where_the_tile_lies_in_the_turned_view(turns: int) -> None:
    outline = (200, 100, 236, 150)
    box = np.array([195, 104, 240, 152], np.float32)
    view = region_view(drawn_tile(480, 640, outline), box, SIZE)
    edges = edges_in_region(box, np.array(outline))
    assert extent(np.rot90(view, turns)) == pytest.approx(turned_edges(edges, turns)[0], abs=1.5 / SIZE)
    assert turned_edges(turned_edges(edges, turns), 4 - turns) == pytest.approx(edges)


class Outline:
    """A stand-in for the refiner's network: reads the white tile's extent in each view."""

    def run(self, blob: np.ndarray) -> np.ndarray:
        views = (blob.transpose(0, 2, 3, 1)[..., ::-1] * 255).astype(np.uint8)
        return np.stack([extent(view) for view in views])


def test_the_refiner_moves_each_box_toward_the_outline_it_reads_and_keeps_it_in_the_photo() -> None:
    refiner = BoxRefiner.__new__(BoxRefiner)
    refiner._model, refiner.size = Outline(), SIZE
    outline = np.array([200, 100, 236, 150], np.float32)
    image = drawn_tile(480, 640, tuple(int(v) for v in outline))
    box = outline + np.array([-6, 4, 8, 6], np.float32)
    redrawn = refiner(image, box[None])[0]
    assert redrawn == pytest.approx(BLEND * outline + (1 - BLEND) * box, abs=1.0)
    edge = refiner(drawn_tile(100, 100, (0, 0, 30, 40)), np.array([[-3, -2, 28, 41]], np.float32))[0]
    assert edge.min() >= 0 and edge[2] <= 100 and edge[3] <= 100
    assert refiner(image, np.zeros((0, 4), np.float32)).shape == (0, 4)


def test_a_box_model_needs_no_classes_but_is_refused_when_not_a_model(tmp_path: Path) -> None:
    broken = tmp_path / "boxes.onnx"
    broken.write_bytes(b"not onnx")
    with pytest.raises(ValueError, match="not a loadable ONNX model"):
        BoxRefiner(broken)
    with pytest.raises(FileNotFoundError, match="no such box model file"):
        BoxRefiner(tmp_path / "missing.onnx")


def test_a_face_reader_is_refused_as_a_box_model() -> None:
    from vision.faces import default_face_model_path

    reader = default_face_model_path()
    if not reader.is_file():
        pytest.skip("no shipped face reader")
    with pytest.raises(ValueError, match="not a box model .it gives 43 values per view, not 4 edges"):
        BoxRefiner(reader)


def test_a_box_without_width_still_gives_a_view() -> None:
    """A box under a pixel wide is a pixel wide: its view is not scaled past OpenCV's bounds (it was, at 1e-3)."""
    image = np.zeros((3000, 4000, 3), np.uint8)
    assert region_view(image, np.array([100, 100, 100, 1500], np.float32), SIZE).shape == (SIZE, SIZE, 3)
    assert regions(np.array([100, 100, 100, 1500]))[0, 2] == pytest.approx(1 + 2 * MARGIN)
