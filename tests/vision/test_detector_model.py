"""The shipped ONNX model end to end: metadata, a real held-out photo, and the `mcr detect` contract."""

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from api.cli import main
from models.training.recipes import HOLDOUT_LIST as HOLDOUT
from models.training.recipes import REAL_PHOTOS
from scoring.tiles import CLASS_NAMES
from tests.conftest import (
    held_out_hand_photo,
    held_out_hand_photos,
    held_out_labelled,
    jpeg_declaring,
)
from vision.detections import TileDetections
from vision.detector import NMS_IOU, Detector, default_model_path
from vision.faces import FaceReader
from vision.geometry import box_iou
from vision.imagefile import ImageFileError, decode_photo, load_image
from vision.locate import Located
from vision.onnxmodel import in_tile_order
from vision.tilefaces import FaceMemory, read_faces

REAL = REAL_PHOTOS / "train"


@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector(default_model_path())


class CountingReader(FaceReader):
    """A face reader (its model that of the reader given) counting the crops it reads."""

    def __init__(self, reader: FaceReader) -> None:  # no ONNX file loaded again: the given reader's session
        self.__dict__.update(vars(reader))
        self.crops = 0

    def __call__(self, image: np.ndarray, xyxy: np.ndarray, views: int = 1, turn: int = 0) -> np.ndarray:
        self.crops += len(xyxy)
        return super().__call__(image, xyxy, views, turn)


def test_a_reading_with_a_face_memory_reads_only_crops_not_read_before(detector: Detector) -> None:
    photo = load_image(Path(__file__).resolve().parents[2] / "examples" / "hand.jpg")
    assert detector.faces is not None
    reader = CountingReader(detector.faces)
    counting = replace(detector.readers, faces=reader)
    located, memory = detector.locator(photo), FaceMemory()

    def read(located: Located, turn: int = 0, memory: FaceMemory | None = None) -> TileDetections:
        return read_faces(counting, photo, located, detector.conf, detector.iou, turn, memory)

    first = read(located, memory=memory)
    crops = reader.crops
    assert crops > 0 and len(memory.xyxy) == crops
    again = read(located, turn=1, memory=memory)  # another turn finding the same boxes
    assert reader.crops == crops  # nothing read again: the faces are the first reading's
    assert (again.class_id == first.class_id).all() and np.allclose(again.confidence, first.confidence)
    aside = located.with_boxes(located.xyxy + np.float32([photo.shape[1], 0] * 2))  # off the photo: grey crops
    read(aside, turn=1, memory=memory)  # boxes overlapping none read before: all read
    assert reader.crops == 2 * crops and len(memory.xyxy) == 2 * crops
    fresh = read(located, turn=2)  # without a memory, every crop is read
    assert reader.crops == 3 * crops and abs(len(fresh) - len(first)) <= 1  # a faint face may cross conf


@pytest.mark.real
def test_boxes_of_one_face_overlap_no_more_than_the_iou_asked(detector: Detector) -> None:
    """`mcr detect` keeps one box of a face per tile (`NMS_IOU`); a scan asks for a looser merge. The boxes as NMS
    kept them: the box refiner then moves each a pixel or two."""
    photo = load_image(held_out_hand_photo())
    low = detector.tuned(conf=0.05, refine=False)  # faint boxes too: more of them overlap
    counts = []
    for iou in (0.7, NMS_IOU, 0.3):
        reading = low.tuned(iou=iou)(photo)
        overlap = box_iou(reading.xyxy, reading.xyxy) * (reading.class_id[:, None] == reading.class_id[None])
        np.fill_diagonal(overlap, 0.0)
        assert overlap.max() <= iou + 1e-6
        counts.append(len(reading))
    assert counts[0] > counts[2] > 0
    with pytest.raises(ValueError, match="0 < iou <= 1"):
        detector.tuned(iou=0.0)


def test_the_detector_finds_every_tile_of_the_rendered_example_where_it_lies(detector: Detector) -> None:
    """ONNX decoding against a known image: `examples/hand.jpg`, a scene `mcr synth` rendered (a style the
    models trained on), whose truth `examples/hand.json` records."""
    example = Path(__file__).resolve().parents[2] / "examples"
    truth = json.loads((example / "hand.json").read_text())["tiles"]
    found = detector(load_image(example / "hand.jpg"))
    assert sorted(t.code for t in found.tiles) == sorted(t["code"] for t in truth)
    overlap = box_iou(np.array([t["box"] for t in truth], np.float32), found.xyxy)
    assert overlap.max(axis=1).min() > 0.8  # each tile's box drawn where it lies
    best = overlap.argmax(axis=1)
    assert [found.tiles[i].code for i in best] == [t["code"] for t in truth]  # and read as its own face


def test_metadata(detector: Detector) -> None:
    assert detector.classes == CLASS_NAMES
    assert detector.size % 32 == 0 and detector.stride == 32  # free-shaped: a strip costs a strip's input


@pytest.mark.real
def test_non_square_photo_maps_back_to_its_pixels(detector: Detector) -> None:
    image = cv2.imread(str(held_out_hand_photo()))
    wide = cv2.resize(image, (1280, 480))  # letterboxed with padding above and below
    found = Detector(default_model_path(), conf=0.05)(wide)
    assert len(found) > 0
    assert (found.xyxy[:, [0, 2]] <= 1280).all() and (found.xyxy[:, [1, 3]] <= 480).all()
    assert found.xyxy[:, 2].max() > 640  # boxes spread over the whole width, not the model's input
    larger = detector.locator(wide, side=2 * detector.size)  # a zoomed pass: the same tiles, same pixels
    found_again = box_iou(detector.locator(wide).tiles(detector.iou), larger.tiles(detector.iou)).max(axis=1)
    assert (found_again > 0.5).mean() >= 0.8  # (it finds more there: small ones)
    assert (larger.xyxy[:, [0, 2]] <= 1280).all() and larger.xyxy[:, 2].max() > 640


def test_mcr_detect_json_contract_and_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "hand.png"
    cv2.imwrite(str(photo), np.full((300, 500, 3), 90, np.uint8))
    junk = tmp_path / "junk.jpg"
    junk.write_text("not an image")
    bomb = tmp_path / "bomb.jpg"  # a small JPEG whose header claims 60,000 x 60,000 pixels
    bomb.write_bytes(jpeg_declaring(60_000, 60_000))
    status = main(["detect", "--json", str(photo), str(junk), str(tmp_path / "missing.jpg"), str(bomb),
                   str(tmp_path), str(photo)])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 1
    assert lines[0]["image"] == str(photo) and (lines[0]["width"], lines[0]["height"]) == (500, 300)
    assert isinstance(lines[0]["tiles"], list)
    assert lines[1] == {"image": str(junk), "error": f"{junk}: not an image (unreadable, truncated or unsupported format)"}
    assert lines[2]["image"] == str(tmp_path / "missing.jpg") and "no such file" in lines[2]["error"]
    assert lines[3]["image"] == str(bomb) and "60000x60000 pixels, over the limit" in lines[3]["error"]
    assert lines[4] == {"image": str(tmp_path), "error": f"{tmp_path}: a folder, not a photo file"}
    assert lines[5] == lines[0]  # the run went on past each bad file


def test_a_photo_over_the_decoders_own_limit_is_refused_not_a_crash() -> None:
    with pytest.raises(ImageFileError, match="the decoder refused it") as refused:
        decode_photo(jpeg_declaring(60_000, 60_000), max_pixels=10**10)  # our limit lifted: OpenCV's (2^30) refuses
    assert refused.value.code == "corrupt_image"


def test_a_damaged_header_is_refused_before_its_size_is_decoded() -> None:
    """A JPEG whose frame header claims 16,000 x 16,000 pixels, one stray byte after it: the header cannot be
    read to check its size, so the file is refused (OpenCV would decode 768 MB of it)."""
    data = bytearray(jpeg_declaring(16_000, 16_000))
    sof = data.find(b"\xff\xc0")
    end = sof + 2 + int.from_bytes(data[sof + 2:sof + 4], "big")
    with pytest.raises(ImageFileError, match="corrupt JPEG image") as refused:
        decode_photo(bytes(data[:end] + b"\x00" + data[end:]))
    assert refused.value.code == "corrupt_image"


def test_a_photo_accepted_over_the_default_limit_decodes_whole_under_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server may raise its limit (``MCR_MAX_PIXELS``): a photo it accepted and read reduced reads whole too
    (here the default limit lowered under a 1600 x 1200 photo instead)."""
    monkeypatch.setattr("vision.imagefile.MAX_PIXELS", 1_000_000)  # the default limit: 1 MP
    jpeg = cv2.imencode(".jpg", np.full((1200, 1600, 3), 90, np.uint8))[1].tobytes()
    with pytest.raises(ImageFileError, match="1600x1200 pixels, over the limit of 1,000,000"):
        decode_photo(jpeg)
    photo = decode_photo(jpeg, min_side=400, max_pixels=2_000_000)
    assert photo.pixels.shape[:2] == (300, 400)  # read reduced
    assert photo.whole().pixels.shape[:2] == (1200, 1600)


@pytest.mark.real
def test_mcr_detect_reads_at_the_views_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    photos = held_out_hand_photos()[:4]
    moved = 0  # photos whose faces' scores move: only the crops in doubt are read again, and not every photo has one
    for photo in photos:
        readings = {}
        for views in ("1", "4"):
            assert main(["detect", "--json", "--views", views, str(photo)]) == 0
            readings[views] = json.loads(capsys.readouterr().out)["tiles"]
        assert readings["1"] and readings["4"]
        moved += readings["1"] != readings["4"]
    assert moved
    with pytest.raises(SystemExit) as stop:
        main(["detect", "--views", "3", str(photo)])
    assert stop.value.code == 2 and "invalid choice: 3 (choose from 1, 2, 4)" in capsys.readouterr().err


@pytest.mark.real
def test_mcr_detect_no_refine_lists_the_boxes_as_the_detector_drew_them(capsys: pytest.CaptureFixture[str]) -> None:
    photo = held_out_hand_photo()
    if Detector(default_model_path()).refiner is None:
        pytest.skip("no shipped box refiner")
    readings = {}
    for name, options in (("refined", []), ("drawn", ["--no-refine"])):
        assert main(["detect", "--json", *options, str(photo)]) == 0
        readings[name] = json.loads(capsys.readouterr().out)["tiles"]
    drawn = Detector(default_model_path(), refine=False)(load_image(photo))
    assert [t["box"] for t in readings["drawn"]] == [[round(float(v), 1) for v in box] for box in drawn.xyxy]
    assert [t["code"] for t in readings["refined"]] == [t["code"] for t in readings["drawn"]]  # the same tiles
    moved = [np.abs(np.subtract(a["box"], b["box"])).max() for a, b in zip(readings["refined"], readings["drawn"],
                                                                          strict=True)]
    assert max(moved) >= 1.0, moved  # redrawn, each box by a pixel or more somewhere


@pytest.mark.real
def test_the_shipped_face_reader_reads_held_out_faces_better_than_the_detector_alone() -> None:
    """The held-out `hand_` photos' labelled faces found (as a multiset) with and without the face reader."""
    from collections import Counter

    from datasets.real_photos import class_map, read_labels
    from vision.faces import default_face_model_path

    if not default_face_model_path().is_file():
        pytest.skip("no shipped face reader")
    held_out_hand_photo()  # skips without ../shared
    mapping = class_map(REAL.parent / "classes.tsv")
    sources = [s for s in HOLDOUT.read_text().split() if s.startswith("hand_")][:6]
    photos = [p for s in sources for p in sorted(REAL.glob(f"images/{s}.rf.*"))[:1]]
    with_faces, alone = Detector(default_model_path()), Detector(default_model_path(), faces=False)
    assert with_faces.faces is not None and "faces" in with_faces.version and alone.faces is None
    read = {"with": 0, "alone": 0}
    for photo in photos:
        truth = Counter(CLASS_NAMES[int(c)] for c in read_labels(REAL / "labels" / f"{photo.stem}.txt", mapping)[:, 0])
        image = cv2.imread(str(photo))
        for name, detector in (("with", with_faces), ("alone", alone)):
            found = detector(image)
            assert (found.confidence >= detector.conf).all()
            read[name] += sum((truth & Counter(t.code for t in found.tiles)).values())
    assert read["with"] > 1.05 * read["alone"], read  # measured: 81 vs 71 faces (6 photos)


@pytest.mark.slow
@pytest.mark.real
def test_mcr_detect_all_sides_reads_held_out_hands_better(capsys: pytest.CaptureFixture[str]) -> None:
    """`mcr detect --all-sides` (the four turns' vote) against one pass, on two photos of each held-out hand:
    photos whose faces (as a multiset) are exactly the labelled ones, and tiles read beyond them (misread
    or not labelled), every tile at the threshold asked for."""
    from collections import Counter

    from datasets.real_photos import class_map, read_labels

    held_out_hand_photo()  # skips without ../shared
    mapping = class_map(REAL.parent / "classes.tsv")
    sources = [s for s in HOLDOUT.read_text().split() if s.startswith("hand_")]
    photos = [p for s in sources for p in sorted(REAL.glob(f"images/{s}.rf.*"))[:2]]
    exact, extra = {}, {}
    for option in ([], ["--all-sides"]):
        assert main(["detect", "--json", "--conf", "0.25", *option, *map(str, photos)]) == 0
        lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert [line["image"] for line in lines] == list(map(str, photos))
        assert all(t["confidence"] >= 0.25 for line in lines for t in line["tiles"])
        exact[tuple(option)] = extra[tuple(option)] = 0
        for photo, line in zip(photos, lines, strict=True):
            labels = read_labels(REAL / "labels" / f"{photo.stem}.txt", mapping)[:, 0]
            truth, found = Counter(CLASS_NAMES[int(c)] for c in labels), Counter(t["code"] for t in line["tiles"])
            exact[tuple(option)] += truth == found
            extra[tuple(option)] += sum((found - truth).values())
    # the four sides' vote reads as many photos exactly as one pass, and far fewer faces where no tile is labelled
    assert exact[("--all-sides",)] >= exact[()] and extra[("--all-sides",)] < 0.75 * extra[()], (exact, extra)


# the gain each second look must bring over the face reader alone, as a share of its faces' labelled tiles
@pytest.mark.real
@pytest.mark.parametrize(("name", "gain"), [("flowers", 0.03), ("characters", 0.02)])
def test_each_second_look_reads_its_held_out_faces_better_than_the_face_reader(name: str, gain: float) -> None:
    """The labelled tiles of a second look's faces in the held-out photos (`mcr eval`'s split, mirrored
    copies turned back), read by the face reader alone and with the second look over its reading."""
    from vision.evaluation import HELD_OUT, read_truth, yolo_pairs
    from vision.faces import SECOND_LOOKS, default_face_model_path
    from vision.onnxmodel import in_tile_order

    if not default_face_model_path(SECOND_LOOKS[name]).is_file():
        pytest.skip(f"no shipped {name} reader")
    held_out = HELD_OUT
    if not held_out.is_dir():
        pytest.skip(f"{held_out} not built: uv run mcr train --prepare-only")
    detector = Detector(default_model_path())
    assert name in detector.second_looks and f"+{name}-" in detector.version
    assert Detector(default_model_path(), faces=False).second_looks == {}
    faces, look = FaceReader(default_face_model_path()), detector.second_looks[name]
    right, total = {"reader": 0, "second look": 0}, 0
    for image_path, label_path in yolo_pairs(held_out):
        image = cv2.imread(str(image_path))
        truth = read_truth(label_path, image.shape[1], image.shape[0])
        mine = np.isin(truth.class_id, look.tile_index)  # the labelled tiles of the second look's faces
        if not mine.any():
            continue
        xyxy, codes = truth.xyxy[mine], truth.class_id[mine]
        probs = in_tile_order(faces(image, xyxy), faces.tile_index)
        right["reader"] += int((probs.argmax(axis=1) == codes).sum())
        right["second look"] += int((look.second_look(image, xyxy, probs).argmax(axis=1) == codes).sum())
        total += len(codes)
    assert right["second look"] > right["reader"] + gain * total, (right, total)


@pytest.mark.real
def test_four_views_read_held_out_faces_better_than_one(detector: Detector) -> None:
    """The labelled tiles of the held-out `hand_` photos read by the face reader from their labelled boxes,
    each crop once and at four quarter turns (`Detector.views`; `scan` reads its first reading at four)."""
    assert detector.faces is not None and detector.views == 1  # `mcr detect`, `eval` and `label` read once
    four = detector.tuned(views=4)  # as `scan` reads a photo first
    assert four.views == 4 and four.faces is detector.faces and detector.views == 1  # nothing loaded again
    right = {1: 0, 4: 0}
    for image, truth in held_out_labelled():
        for views in right:
            faces = in_tile_order(detector.faces(image, truth.xyxy, views), detector.faces.tile_index)
            right[views] += int((faces.argmax(axis=1) == truth.class_id).sum())
    assert right[4] > right[1], right  # measured: 1,354 vs 1,332 of 1,390 (90 photos)


@pytest.mark.slow
@pytest.mark.real
def test_the_detector_finds_the_tiles_of_an_out_of_focus_photo(detector: Detector) -> None:
    """The held-out `hand_` photos blurred (sigma 1 px at their 640 px: a photo out of focus) read as `mcr detect`
    reads them: their labelled tiles are still found (a box over IoU 0.5, at conf 0.25) nearly as often as in the
    sharp photos. Every real training photo is sharp: a detector trained without `models.training.train.Blur`
    misses far more of them blurred."""
    found = {"sharp": 0, "soft": 0}
    total = 0
    for image, truth in held_out_labelled():
        total += len(truth)
        for name, seen in (("sharp", image), ("soft", cv2.GaussianBlur(image, (0, 0), 1.0))):
            boxes = detector(seen).xyxy
            found[name] += int((box_iou(truth.xyxy, boxes).max(axis=1) > 0.5).sum()) if len(boxes) else 0
    assert found["soft"] >= 0.8 * total and found["soft"] >= found["sharp"] - 0.08 * total, (found, total)


@pytest.mark.slow
@pytest.mark.real
def test_the_face_reader_reads_the_faces_of_a_shaken_photo(detector: Detector) -> None:
    """The held-out `hand_` photos shaken (a 9-px streak along their 640-px width: `models.training.train.streak`), their
    labelled tiles read by the face reader from their labelled boxes at four views, as `scan` reads first: a reader
    trained on sharp crops only misreads many more of them shaken than one trained with
    `models.training.faces.augment`'s photo blur."""
    from models.training.train import streak

    assert detector.faces is not None
    right = {"sharp": 0, "shaken": 0}
    total = 0
    for image, truth in held_out_labelled():
        total += len(truth)
        for name, seen in (("sharp", image), ("shaken", cv2.filter2D(image, -1, streak(9, 0.0)))):
            faces = in_tile_order(detector.faces(seen, truth.xyxy, 4), detector.faces.tile_index)
            right[name] += int((faces.argmax(axis=1) == truth.class_id).sum())
    assert right["shaken"] >= 0.9 * total and right["sharp"] >= 0.96 * total, (right, total)


@pytest.mark.slow
@pytest.mark.real
def test_the_box_refiner_draws_boxes_closer_to_the_held_out_labels(detector: Detector) -> None:
    """The held-out `hand_` photos read as `mcr detect` reads them, with the shipped box refiner (`vision.boxes`)
    and with the boxes as the detector drew them: the labelled tiles a box meets at IoU 0.75 and at 0.85.
    The same tiles are found either way (a box over IoU 0.5)."""
    if detector.refiner is None:
        pytest.skip("no shipped box refiner")
    drawn = Detector(default_model_path(), refine=False)
    assert drawn.refiner is None and "+boxes-" in detector.version and "+boxes-" not in drawn.version
    assert detector.tuned(refine=False).version == drawn.version and detector.refiner is not None
    met = {name: np.zeros(3, int) for name in ("refined", "drawn")}
    for image, truth in held_out_labelled():
        for name, reader in (("refined", detector), ("drawn", drawn)):
            boxes = reader(image).xyxy
            best = box_iou(truth.xyxy, boxes).max(axis=1) if len(boxes) else np.zeros(len(truth))
            met[name] += [(best > 0.5).sum(), (best > 0.75).sum(), (best > 0.85).sum()]
    # refining may lose a box or two over IoU 0.5 but must fit many more of them closely (0.75, 0.85)
    refined, boxes = met["refined"], met["drawn"]
    assert refined[0] >= boxes[0] - 10 and refined[1] >= boxes[1] + 20 and refined[2] >= boxes[2] + 8, met
