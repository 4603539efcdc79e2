"""Letterbox mapping on non-square images, YOLO output decoding and class-aware NMS (no model needed)."""

import cv2
import numpy as np
import pytest

from scoring.tiles import TILES
from tests.conftest import EXAMPLE_PHOTO, HEIC_PHOTO
from vision.detector import Detector
from vision.geometry import NMS_BLOCK, box_iou, class_aware_nms, nms
from vision.imagefile import ImageFileError, ImageHeader, decode_photo, load_image, read_header
from vision.locate import FAINT, PATTERN, BoxBins, Letterbox, Located, anchor_points, decode
from vision.tilefaces import SAME_CROP, SAME_READ, FaceMemory, crop_owners, fuse, top_two


@pytest.mark.parametrize("stride", [None, 32])
@pytest.mark.parametrize(("height", "width"), [(480, 640), (1000, 300), (333, 777), (64, 64)])
def test_letterbox_round_trip_and_padding(height: int, width: int, stride: int | None) -> None:
    size = 480
    box = Letterbox.fit(height, width, size, stride)
    image = np.full((height, width, 3), 200, np.uint8)
    fitted = box.apply(image)
    assert fitted.shape == (box.height, box.width, 3) and max(fitted.shape) == size
    # The image sits at (left, top) and the rest is padding grey.
    assert fitted[box.top + 1, box.left + 1, 0] == 200
    if box.left:
        assert fitted[box.height // 2, box.left - 1, 0] == 114
    if box.top:
        assert fitted[box.top - 1, box.width // 2, 0] == 114
    original = np.array([[10, 20, width - 5, height - 7]], np.float32)
    in_input = original * box.scale + [box.left, box.top, box.left, box.top]
    np.testing.assert_allclose(box.to_original(in_input, height, width), original, atol=1e-3)


@pytest.mark.parametrize(("height", "width", "side", "shape"), [
    (300, 600, 480, (256, 480)),  # 240 rows of photo, padded to the next multiple of 32
    (1000, 300, 480, (480, 160)),  # 144 columns -> 160
    (473, 1005, 448, (224, 448)),  # a 12-MP photo's zoom window: half the square's pixels
    (520, 1251, 556, (256, 576)),  # read past the model's side (a zoomed pass)
])
def test_a_free_shaped_input_is_padded_only_to_the_stride(height: int, width: int, side: int,
                                                          shape: tuple[int, int]) -> None:
    box = Letterbox.fit(height, width, side, 32)
    assert (box.height, box.width) == shape
    assert box.apply(np.zeros((height, width, 3), np.uint8)).shape == (*shape, 3)
    padding = np.array([box.width, box.height]) - np.round(np.array([width, height]) * box.scale)
    assert (padding >= 0).all() and (padding < 32).all()


def test_boxes_are_clipped_to_the_image() -> None:
    box = Letterbox.fit(300, 600, 480)  # wide: padding above and below
    mapped = box.to_original(np.array([[-50, 0, 700, 480]], np.float32), 300, 600)
    np.testing.assert_allclose(mapped, [[0, 0, 600, 300]])


def test_nms_keeps_the_best_of_overlapping_boxes() -> None:
    xyxy = np.array([[0, 0, 10, 10], [1, 1, 11, 11], [50, 50, 60, 60]], np.float32)
    kept = nms(xyxy, np.array([0.6, 0.9, 0.5]), iou_threshold=0.5)
    assert kept.tolist() == [1, 2]


def test_nms_is_class_aware() -> None:
    xyxy = np.array([[0, 0, 10, 10], [1, 1, 11, 11]], np.float32)
    scores = np.array([0.9, 0.8])
    assert class_aware_nms(xyxy, scores, np.array([3, 3]), 0.5).tolist() == [0]
    assert sorted(class_aware_nms(xyxy, scores, np.array([3, 4]), 0.5).tolist()) == [0, 1]


def test_located_tiles_keep_one_box_per_tile_whatever_its_faces() -> None:
    """Class-aware NMS leaves a box per face the detector hesitates between; where to zoom is decided on
    one box per tile, the surest whatever its face (two faces at 0.5 beat one at 0.6)."""
    xyxy = np.array([[0, 0, 10, 10], [1, 1, 11, 11], [50, 50, 60, 60]], np.float32)
    scores = np.zeros((3, 43), np.float32)
    scores[0, 4] = 0.6
    scores[1, [5, 6]] = 0.5
    scores[2, 7] = 0.3
    assert Located(xyxy, scores).tiles(0.5).tolist() == [xyxy[1].tolist(), xyxy[2].tolist()]


def test_a_face_memory_recalls_the_box_that_shows_the_same_crop() -> None:
    memory = FaceMemory()
    boxes = np.array([[0, 0, 100, 100], [2, 2, 102, 102], [40, 0, 140, 100]], np.float32)
    assert memory.recall(boxes).tolist() == [-1, -1, -1]  # nothing read yet
    memory.remember(np.array([[0, 0, 100, 100], [300, 0, 400, 100]], np.float32), np.eye(2, 43, dtype=np.float32))
    memory.remember(np.zeros((0, 4), np.float32), np.zeros((0, 43), np.float32))  # a reading with no new crop
    assert 0.43 < SAME_READ < 0.92  # the two boxes' IoU with the first remembered box
    assert memory.recall(boxes).tolist() == [0, 0, -1]  # a box 2 px off shows the same crop; 40 px off does not
    assert memory.faces.shape == (2, 43) and memory.faces[1, 1] == 1


def test_near_identical_boxes_are_read_once_by_the_surest() -> None:
    xyxy = np.array([[0, 0, 100, 100], [1, 1, 101, 101], [20, 0, 120, 100], [300, 0, 400, 100]], np.float32)
    owners = crop_owners(xyxy, np.array([0.5, 0.9, 0.95, 0.4]))
    assert 0.67 < SAME_CROP < 0.96
    assert owners.tolist() == [1, 1, 2, 3]  # IoU 0.96 shares a crop; 0.67 (a neighbour's overlap) does not
    assert crop_owners(np.zeros((0, 4), np.float32), np.zeros(0)).tolist() == []  # a photo with no tiles


def test_decode_takes_best_class_and_threshold() -> None:
    # Three anchors, two classes: centre boxes then class scores, as the YOLO head emits them.
    output = np.array(
        [
            [10, 11, 100],  # cx
            [10, 10, 100],  # cy
            [8, 8, 8],  # w
            [8, 8, 8],  # h
            [0.9, 0.7, 0.1],  # class 0
            [0.1, 0.2, 0.3],  # class 1
        ],
        np.float32,
    )
    xyxy, class_scores = decode(output, conf=0.25, iou=0.5, max_det=10)
    np.testing.assert_allclose(class_scores, [[0.9, 0.1], [0.1, 0.3]])  # every class, per kept box
    scores, class_id, second, second_score = top_two(class_scores)
    assert class_id.tolist() == [0, 1]
    np.testing.assert_allclose(scores, [0.9, 0.3])
    np.testing.assert_allclose(xyxy[0], [6, 6, 14, 14])
    # each kept box's second-best class at its own anchor; under the floor it names none
    assert second.tolist() == [1, 0]
    np.testing.assert_allclose(second_score, [0.1, 0.1])


def test_box_distributions_decode_at_their_anchor_and_stride() -> None:
    """A head exported without its box decoding: each side's distance is the expectation of its distribution
    over the bins, in strides, from the anchor point; anchors run level by level, row by row."""
    bins = BoxBins(bins=5, strides=(8, 16))
    points, strides = anchor_points(32, 48, bins.strides)  # levels of 4x6 and 2x3 anchors
    assert points.shape == (2, 30) and strides.tolist() == [8] * 24 + [16] * 6
    assert points[:, 8].tolist() == [2.5, 1.5] and points[:, 24 + 5].tolist() == [2.5, 1.5]  # x, then y
    output = np.full((4 * 5 + 2, 30), -50.0, np.float32)  # every distribution sure of bin 0, no tile
    output[4 * 5:, :] = 0.0  # the class rows
    sides = {8: (1, 2, 3, 0.5), 29: (0, 1, 4, 3)}  # anchor: left, top, right, bottom distances in bins
    for anchor, distances in sides.items():
        for side, distance in enumerate(distances):
            low = int(distance)  # a half bin: two bins at equal weight
            output[side * 5:side * 5 + 5, anchor] = -50.0
            output[side * 5 + low, anchor] = output[side * 5 + int(np.ceil(distance)), anchor] = 0.0
        output[4 * 5, anchor] = 0.9  # class 0
    xyxy, class_scores = decode(output, conf=0.25, iou=0.5, max_det=10, bins=bins, shape=(32, 48))
    order = np.argsort(xyxy[:, 0])
    np.testing.assert_allclose(xyxy[order], [[(2.5 - 1) * 8, (1.5 - 2) * 8, (2.5 + 3) * 8, (1.5 + 0.5) * 8],
                                             [2.5 * 16, 0.5 * 16, 6.5 * 16, 4.5 * 16]], atol=1e-4)
    np.testing.assert_allclose(class_scores[:, 0], [0.9, 0.9])
    with pytest.raises(ValueError, match="30 of strides"):  # an output that is not for this input
        decode(output[:, :29], conf=0.25, iou=0.5, max_det=10, bins=bins, shape=(32, 48))
    with pytest.raises(ValueError, match="give `shape`"):
        decode(output, conf=0.25, iou=0.5, max_det=10, bins=bins)


def test_a_runner_up_under_the_floor_is_not_named() -> None:
    output = np.array([[10, 50], [10, 50], [8, 8], [8, 8], [0.9, 0.01], [0.02, 0.8]], np.float32)
    _, class_id, second, second_score = top_two(decode(output, conf=0.25, iou=0.5, max_det=10)[1])
    assert class_id.tolist() == [0, 1] and second.tolist() == [-1, -1]
    np.testing.assert_allclose(second_score, [0.02, 0.01])


def test_fusion_lets_the_face_reader_lead_and_keeps_the_detectors_certainty() -> None:
    detector = np.array([[0.6, 0.5, 0.0], [0.2, 0.1, 0.0]], np.float32)  # a tile it finds surely, one barely
    reader = np.array([[0.1, 0.9, 0.0], [0.7, 0.3, 0.0]], np.float32)
    fused = fuse(detector, reader)
    assert fused.argmax(axis=1).tolist() == [1, 0]  # the reader's face wins a close call
    # "a tile is here" stays the detector's, any face counting: 1 - (1 - 0.6)(1 - 0.5) = 0.8
    np.testing.assert_allclose(fused.sum(axis=1), [0.8, 1 - 0.8 * 0.9], rtol=1e-5)
    assert fused[:, 2].max() < 1e-6  # a face neither model sees stays unseen


def test_load_image_errors_name_the_file(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match="missing.jpg"):
        load_image(tmp_path / "missing.jpg")
    text = tmp_path / "notes.jpg"
    text.write_text("not a photo")
    with pytest.raises(ValueError, match="notes.jpg: not an image"):
        load_image(text)


def test_a_phone_photo_in_a_format_not_read_is_named(tmp_path) -> None:
    """An Android phone's AVIF file (an ISO media file of brand avif) is told by name, with what to send instead,
    not tried as something OpenCV might read."""
    photo = tmp_path / "IMG_0001.AVIF"
    photo.write_bytes(b"\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1miaf" + bytes(500))
    with pytest.raises(ValueError,
                       match=r"IMG_0001.AVIF: an AVIF photo, which is not read here: send a JPEG, PNG, WebP"):
        load_image(photo)


def test_an_iphones_heic_photo_is_read_as_its_jpeg_is() -> None:
    """`tests/data/hand.heic` is `examples/hand.jpg` shrunk to 480x640 and saved as HEIC (libheif's heif-enc, x265,
    quality 60): its pixels are the JPEG's but for the two codecs' losses; a reading that needs fewer pixels gets it
    shrunk as a large JPEG is decoded, with the file kept to decode whole."""
    data = HEIC_PHOTO.read_bytes()
    assert read_header(data) == ImageHeader("HEIC", 480, 640, complete=True)
    photo = decode_photo(data)
    example = cv2.imread(str(EXAMPLE_PHOTO))
    expected = cv2.resize(example, (480, 640), interpolation=cv2.INTER_AREA)
    assert photo.pixels.shape == (640, 480, 3) and photo.source is None
    assert float(np.abs(photo.pixels.astype(int) - expected).mean()) < 4.0
    reduced = decode_photo(data, min_side=300)
    assert reduced.pixels.shape == (320, 240, 3) and (reduced.width, reduced.height) == (480, 640)
    assert np.array_equal(reduced.whole().pixels, photo.pixels)
    with pytest.raises(ImageFileError, match="declares 480x640 pixels") as too_large:
        decode_photo(data, max_pixels=100_000)
    assert too_large.value.code == "too_many_pixels"


def test_load_image_refuses_a_truncated_photo(tmp_path) -> None:
    rng = np.random.default_rng(0)
    ok, jpeg = cv2.imencode(".jpg", rng.integers(0, 255, (300, 400, 3), dtype=np.uint8))
    whole, half = tmp_path / "whole.jpg", tmp_path / "half.jpg"
    whole.write_bytes(jpeg.tobytes())
    half.write_bytes(jpeg.tobytes()[: len(jpeg) // 2])
    assert load_image(whole).shape == (300, 400, 3)
    with pytest.raises(ValueError,
                       match=r"half.jpg: corrupt JPEG image: the file is truncated \(its end marker is missing\)"):
        load_image(half)


@pytest.mark.parametrize(("threads", "conf", "iou", "problem"), [
    (0, 0.25, 0.5, "threads >= 1"), (2, 1.5, 0.5, "0 < conf < 1"), (2, 0.0, 0.5, "0 < conf < 1"),
    (2, 0.25, 0.0, "0 < iou <= 1"), (2, 0.25, 1.2, "0 < iou <= 1")])
def test_detector_settings_are_checked_before_loading(threads: int, conf: float, iou: float, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        Detector("no-such-model.onnx", threads=threads, conf=conf, iou=iou)


@pytest.mark.parametrize(("height", "width"), [(1, 3000), (3000, 1), (2, 5000)])
def test_letterbox_of_a_thin_strip_is_a_valid_input(height: int, width: int) -> None:
    box = Letterbox.fit(height, width, 448)
    assert box.apply(np.zeros((height, width, 3), np.uint8)).shape == (448, 448, 3)
    box = Letterbox.fit(height, width, 448, 32)
    assert box.apply(np.zeros((height, width, 3), np.uint8)).shape == ((32, 448, 3) if height < width else (448, 32, 3))


def test_nms_in_blocks_keeps_what_one_box_at_a_time_keeps() -> None:
    """`nms` works the overlaps out a block at a time; across blocks it must keep exactly the boxes the greedy
    rule keeps (surest first, each box dropped by a kept surer one overlapping it past the threshold)."""
    rng = np.random.default_rng(5)
    corner = rng.uniform(0, 600, (NMS_BLOCK + 700, 2)).astype(np.float32)
    xyxy = np.concatenate([corner, corner + rng.uniform(20, 80, corner.shape).astype(np.float32)], axis=1)
    scores = np.round(rng.uniform(0, 1, len(xyxy)), 2).astype(np.float32)  # ties keep the boxes' order
    kept = []
    for i in np.argsort(-scores, kind="stable"):
        if not kept or box_iou(xyxy[[i]], xyxy[kept]).max() <= 0.5:
            kept.append(int(i))
    dropped_late = set(range(len(xyxy))) - set(kept) - set(np.argsort(-scores, kind="stable")[:NMS_BLOCK].tolist())
    assert nms(xyxy, scores, 0.5).tolist() == kept and len(dropped_late) > 50  # kept boxes drop later blocks' too


def test_a_box_drawn_in_the_padding_is_no_candidate() -> None:
    """`Letterbox.shown`: a box wholly in the padding below a wide photo maps to a line along its edge (no
    area) and is dropped; one cut by the photo's edge with half of it inside is kept; one inside is kept."""
    height, width = 300, 800
    box = Letterbox.fit(height, width, 640, 32)  # 640 x 240 of photo, padded to 640 x 256
    inside = np.float32([[100, 100, 140, 150]])
    cut = np.float32([[200, box.top + 240 - 20, 240, box.top + 240 + 20]])  # half above the photo's bottom edge
    padding = np.float32([[300, box.top + 241, 340, box.top + 255]])
    xyxy = np.concatenate([inside, cut, padding])
    original = box.to_original(xyxy, height, width)
    assert original[2, 3] - original[2, 1] == 0  # clipped to a line
    assert box.shown(xyxy, original).tolist() == [True, True, False]


def test_a_patterns_hundreds_of_faint_candidates_are_left_out_and_a_hands_few_kept() -> None:
    """A cloth printed with squares gives a pass over a thousand faint candidates, whose crops the face reader would
    read for seconds: past `PATTERN` of them, the faint ones go and the sure ones (the hand) stay."""
    def located(faint: int) -> Located:
        scores = np.zeros((faint + 14, len(TILES)), np.float32)
        scores[:14, 0] = 0.9  # the hand's tiles
        scores[14:, 1] = FAINT - 0.05
        xyxy = np.arange(len(scores) * 4, dtype=np.float32).reshape(-1, 4)
        return Located(xyxy, scores)

    kept = located(PATTERN).without_pattern()
    assert len(kept.xyxy) == PATTERN + 14
    pattern = located(PATTERN + 1).without_pattern()
    assert len(pattern.xyxy) == 14 and (pattern.scores[:, 0] == 0.9).all()
