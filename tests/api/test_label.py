"""`mcr label` and its batch runner, with fake detectors (any image -> TileDetections) so nothing here
depends on the model's quality; one end-to-end run with the shipped model when the checkout has it."""

from __future__ import annotations

import functools
import io
import json
import os
import shutil
import struct
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from pycocotools.coco import COCO

from api.cli import build_parser, main
from api.cli import label as label_cli
from models.training.recipes import REAL_PHOTOS as SHARED_PHOTOS
from scoring.tiles import TILES, tile
from tests.conftest import HEIC_PHOTO
from vision.detections import TileDetections
from vision.detector_options import usable_cores
from vision.labels import yolo
from vision.labels.batch import (
    FORMATS,
    WRITERS,
    Job,
    label_folder,
)
from vision.labels.records import read_record, record_path
from vision.labels.summary import summary_text

REPO = Path(__file__).resolve().parents[2]
REAL_PHOTOS = SHARED_PHOTOS / "train" / "images"


def grey(level: int, height: int = 48, width: int = 64) -> np.ndarray:
    return np.full((height, width, 3), level, np.uint8)


class SeesMiddle:
    """A fake detector: one tile over the middle of the image, its face from the image's grey level.

    ``seen`` records each image's shape, so tests can tell how often and on what it was called.
    """

    def __init__(self) -> None:
        self.seen: list[tuple[int, ...]] = []

    def __call__(self, image: np.ndarray) -> TileDetections:
        self.seen.append(image.shape)
        h, w = image.shape[:2]
        level = int(round(float(image.mean())))
        return TileDetections([[w / 4, h / 4, 3 * w / 4, 3 * h / 4]], [0.9], [level % len(TILES)])


class Scripted:
    """A fake detector whose answer for each grey level is given; picklable for worker processes."""

    def __init__(self, answers: dict[int, list[tuple[str, float]]]) -> None:
        self.answers = answers

    def __call__(self, image: np.ndarray) -> TileDetections:
        tiles = self.answers[int(round(float(image.mean())))]
        boxes = [[4 * i, 0, 4 * i + 4, 8] for i in range(len(tiles))]
        return TileDetections(np.array(boxes, np.float32).reshape(-1, 4), [c for _, c in tiles],
                              np.array([tile(code).index for code, _ in tiles], np.int64))


def jpeg_with_orientation(image: np.ndarray, orientation: int) -> bytes:
    """A JPEG carrying an EXIF orientation tag (APP1 segment written by hand, big-endian TIFF)."""
    entry = struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0)  # tag, SHORT, count 1, value, padding
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", 1) + entry + struct.pack(">I", 0)
    payload = b"Exif\x00\x00" + tiff
    jpeg = cv2.imencode(".jpg", image)[1].tobytes()
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


@pytest.fixture
def photos(tmp_path: Path) -> Path:
    """Five photos of every accepted suffix in nested folders, plus a file that is not a photo."""
    root = tmp_path / "photos"
    (root / "table" / "deep").mkdir(parents=True)
    for name, level in {"a.jpg": 10, "table/b.JPEG": 20, "table/c.png": 30, "table/deep/d.webp": 40,
                        "e f.jpg": 50}.items():
        (root / name).write_bytes(cv2.imencode(Path(name).suffix.lower(), grey(level))[1].tobytes())
    (root / "notes.txt").write_text("not a photo")
    return root


def run(photos: Path, out: Path, fmt: str, detector=None, **options) -> dict:
    detector = detector or SeesMiddle()
    return label_folder(Job(photos, out, fmt, "fake@1", **options), lambda: detector)


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_photo_labelled_with_relative_paths(photos, tmp_path, fmt):
    out = tmp_path / "out"
    summary = run(photos, out, fmt)
    images = ["a.jpg", "e f.jpg", "table/b.JPEG", "table/c.png", "table/deep/d.webp"]
    assert (summary["images"], summary["labelled"], summary["failed"], summary["other_files"]) == (5, 5, 0, 1)
    assert all(read_record(record_path(out, image)) for image in images)
    for path in out.rglob("*"):
        if path.is_file():
            assert str(tmp_path) not in path.read_text(), f"{path} holds an absolute path"
    assert json.loads((out / "summary.json").read_text()) == summary


def test_yolo_labels_mirror_the_photo_tree(photos, tmp_path):
    out = tmp_path / "out"
    run(photos, out, "yolo")
    labels = yolo.read_labels(out / "labels" / "table" / "deep" / "d.txt", 64, 48)
    assert labels == [(40, pytest.approx((16, 12, 48, 36)))]  # grey level 40 -> class 40
    assert "train: ../photos" in (out / "data.yaml").read_text()


def test_coco_annotations_read_by_pycocotools(photos, tmp_path):
    out = tmp_path / "out"
    run(photos, out, "coco")
    api = COCO(str(out / "annotations.json"))
    by_name = {img["file_name"]: img for img in api.loadImgs(api.getImgIds())}
    assert sorted(by_name) == ["a.jpg", "e f.jpg", "table/b.JPEG", "table/c.png", "table/deep/d.webp"]
    (ann,) = api.loadAnns(api.getAnnIds(imgIds=[by_name["table/c.png"]["id"]]))
    assert api.loadCats(ann["category_id"])[0]["name"] == TILES[30 % len(TILES)].code
    assert ann["bbox"] == [16, 12, 32, 24]


def test_label_studio_tasks_point_at_relative_urls(photos, tmp_path):
    out = tmp_path / "out"
    run(photos, out, "labelstudio", url_prefix="/data/local-files/?d=photos/")
    tasks = json.loads((out / "tasks.json").read_text())
    assert [t["data"]["image"] for t in tasks][:2] == ["/data/local-files/?d=photos/a.jpg",
                                                       "/data/local-files/?d=photos/e%20f.jpg"]
    assert tasks[0]["predictions"][0]["result"][0]["value"]["rectanglelabels"] == [TILES[10].code]
    assert (out / "labeling_config.xml").read_text().count("<Label ") == len(TILES)


def test_rerun_skips_done_photos_and_redoes_what_changed(photos, tmp_path):
    out = tmp_path / "out"
    first = SeesMiddle()
    run(photos, out, "coco", first)
    assert len(first.seen) == 5

    again = SeesMiddle()
    summary = run(photos, out, "yolo", again)  # another format reuses the records
    assert (len(again.seen), summary["skipped"], summary["labelled"]) == (0, 5, 0)
    assert len(list((out / "labels").rglob("*.txt"))) == 5

    record_path(out, "table/c.png").unlink()
    partly = SeesMiddle()
    assert run(photos, out, "coco", partly)["labelled"] == 1 and len(partly.seen) == 1

    forced, other_conf = SeesMiddle(), SeesMiddle()
    assert run(photos, out, "coco", forced, force=True)["labelled"] == 5
    assert run(photos, out, "coco", other_conf, conf=0.5)["labelled"] == 5
    assert (len(forced.seen), len(other_conf.seen)) == (5, 5)


def test_corrupt_and_non_image_files_are_reported_and_skipped(photos, tmp_path):
    (photos / "broken.jpg").write_bytes(b"\xff\xd8\xff\xe0 this is no JPEG")
    (photos / "empty.png").write_bytes(b"")
    (photos / "table" / "text.webp").write_text("hello")
    summary = run(photos, tmp_path / "out", "coco")
    assert (summary["labelled"], summary["failed"], summary["other_files"]) == (5, 3, 1)
    failed = {f["image"]: f["error"] for f in summary["failures"]}
    assert sorted(failed) == ["broken.jpg", "empty.png", "table/text.webp"]
    assert all(str(photos) not in error for error in failed.values())
    assert "not an image" in failed["empty.png"] and "not an image" in failed["table/text.webp"]
    assert failed["broken.jpg"].startswith("corrupt JPEG image")  # a JPEG's start, then no frame header
    assert "failed: broken.jpg: corrupt JPEG image" in summary_text(summary)
    api = COCO(str(tmp_path / "out" / "annotations.json"))
    assert len(api.getImgIds()) == 5


def test_exif_orientation_is_honoured(tmp_path):
    photos = tmp_path / "photos"
    photos.mkdir()
    image = grey(100, height=40, width=60)
    (photos / "turned.jpg").write_bytes(jpeg_with_orientation(image, 6))  # 6: rotate 90 degrees clockwise
    detector = SeesMiddle()
    run(photos, tmp_path / "out", "coco", detector)
    assert detector.seen == [(60, 40, 3)]
    record = read_record(record_path(tmp_path / "out", "turned.jpg"))
    assert (record.width, record.height) == (40, 60)


class FindsBright:
    """A fake detector with an input size, so large JPEGs reach it decoded at reduced scale: one tile
    around the bright pixels."""

    size = 300

    def __init__(self) -> None:
        self.seen: list[tuple[int, ...]] = []

    def __call__(self, image: np.ndarray) -> TileDetections:
        self.seen.append(image.shape)
        ys, xs = np.nonzero(image.max(axis=2) > 128)
        if not len(xs):
            return TileDetections.empty()
        return TileDetections([[xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]], [0.9], [0])


@pytest.mark.parametrize(
    ("orientation", "decoded", "size", "box"),
    [
        (1, (300, 400), (1600, 1200), (800, 400, 960, 640)),
        (6, (400, 300), (1200, 1600), (1200 - 640, 800, 1200 - 400, 960)),  # turned 90 degrees clockwise
    ],
)
def test_large_jpeg_is_decoded_small_and_boxes_come_back_in_photo_pixels(tmp_path, orientation, decoded, size, box):
    photos = tmp_path / "photos"
    photos.mkdir()
    image = np.zeros((1200, 1600, 3), np.uint8)
    image[400:640, 800:960] = 255
    (photos / "big.jpg").write_bytes(jpeg_with_orientation(image, orientation))
    detector = FindsBright()
    run(photos, tmp_path / "out", "coco", detector)
    assert detector.seen == [(*decoded, 3)]  # a quarter of each side: the largest step that still fills 300 px
    record = read_record(record_path(tmp_path / "out", "big.jpg"))
    assert (record.width, record.height) == size
    np.testing.assert_allclose(record.detections.xyxy[0], box, atol=8)


@pytest.mark.parametrize("detector", [FindsBright, SeesMiddle])
def test_truncated_jpeg_is_a_reported_failure_not_half_a_photo(tmp_path, detector):
    photos = tmp_path / "photos"
    photos.mkdir()
    image = np.random.default_rng(0).integers(0, 255, (1200, 1600, 3), np.uint8)
    whole = cv2.imencode(".jpg", image)[1].tobytes()
    (photos / "cut.jpg").write_bytes(whole[: 2 * len(whole) // 3])  # as a copy interrupted part way
    summary = run(photos, tmp_path / "out", "coco", detector())
    assert summary["failures"] == [
        {"image": "cut.jpg", "error": "corrupt JPEG image: the file is truncated (its end marker is missing)"}]


def test_doubtful_photos_come_first(tmp_path):
    photos = tmp_path / "photos"
    photos.mkdir()
    answers = {
        10: [("1m", 0.9)] * 5,                    # five 1m: a set has four
        20: [("3f", 0.95), ("3f", 0.4)],          # a flower twice, and one weak tile
        30: [("E", 0.3), ("E", 0.9)],             # a weak tile only
        40: [],                                   # nothing found
        50: [("back", 0.9)] * 6 + [("C", 0.8)],   # face-down tiles have no limit: fine
    }
    for level in answers:
        cv2.imwrite(str(photos / f"p{level}.png"), grey(level))
    summary = run(photos, tmp_path / "out", "labelstudio", Scripted(answers))
    assert [d["image"] for d in summary["doubtful"]] == ["p20.png", "p10.png", "p30.png", "p40.png"]
    reasons = {d["image"]: d["reasons"] for d in summary["doubtful"]}
    assert reasons["p10.png"] == ["more copies than a set holds: 5x1m"]
    assert reasons["p20.png"] == ["more copies than a set holds: 2x3f", "1 tile(s) below 0.5 confidence (lowest 0.40)"]
    assert reasons["p40.png"] == ["no tiles found"]
    assert summary["tiles_per_class"] == {"1m": 5, "E": 2, "C": 1, "3f": 2, "back": 6}


def test_worker_processes_label_like_one_process(photos, tmp_path):
    answers = {level: [("5p", 0.8), ("W", 0.6)] for level in (10, 20, 30, 40, 50)}
    factory = functools.partial(Scripted, answers)
    label_folder(Job(photos, tmp_path / "one", "coco", "m", workers=1), factory)
    label_folder(Job(photos, tmp_path / "two", "coco", "m", workers=2), factory)
    assert (tmp_path / "one" / "annotations.json").read_text() == (tmp_path / "two" / "annotations.json").read_text()


def test_output_folder_inside_the_photo_folder_is_not_read(photos):
    first = run(photos, photos / "labels-out", "yolo")
    second = run(photos, photos / "labels-out", "yolo")
    assert (second["images"], second["other_files"]) == (first["images"], first["other_files"]) == (5, 1)


def test_yolo_label_name_clash_is_a_clear_error(photos, tmp_path):
    cv2.imwrite(str(photos / "a.png"), grey(60))
    with pytest.raises(ValueError, match="a.jpg and a.png would share one YOLO label file"):
        run(photos, tmp_path / "out", "yolo")


def test_bad_job_settings_are_clear_errors(tmp_path):
    with pytest.raises(ValueError, match="unknown format 'voc'"):
        Job(tmp_path, tmp_path / "out", "voc", "m")
    with pytest.raises(ValueError, match="workers must be at least 1"):
        Job(tmp_path, tmp_path / "out", "coco", "m", workers=0)
    with pytest.raises(FileNotFoundError, match="no such folder"):
        Job(tmp_path / "missing", tmp_path / "out", "coco", "m")
    with pytest.raises(ValueError, match="must not be the photo folder itself"):
        Job(tmp_path, tmp_path / ".", "coco", "m")


def test_an_empty_folder_gives_an_empty_label_set(tmp_path):
    (tmp_path / "photos").mkdir()
    summary = run(tmp_path / "photos", tmp_path / "out", "coco")
    assert (summary["images"], summary["tiles"], summary["doubtful"]) == (0, 0, [])
    assert COCO(str(tmp_path / "out" / "annotations.json")).getImgIds() == []


def test_cli_formats_match_the_runner():
    assert label_cli.FORMATS == FORMATS == tuple(WRITERS)


def broken_detector() -> SeesMiddle:
    raise ValueError("model.onnx: not a loadable ONNX model")


@pytest.mark.parametrize("workers", [1, 2])
def test_a_detector_that_does_not_load_stops_the_batch_with_its_reason(photos, tmp_path, workers):
    with pytest.raises(ValueError, match="the detector did not load: model.onnx: not a loadable ONNX model"):
        label_folder(Job(photos, tmp_path / "out", "coco", "m", workers=workers), broken_detector)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--conf", "1.5"], "--conf must be between 0 and 1"),
        (["--model", "no-such-model.onnx"], "no-such-model.onnx: no such model file"),
    ],
)
def test_cli_user_errors_are_one_line(photos, tmp_path, capsys, argv, message):
    assert main(["label", str(photos), "--out", str(tmp_path / "out"), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_workers_default_to_the_cores_this_process_may_use():
    assert 1 <= usable_cores() <= (os.cpu_count() or 1)
    args = build_parser().parse_args(["label", "in", "--out", "out"])
    assert args.workers == usable_cores()


def test_progress_reports_rate_and_eta():
    stream = io.StringIO()
    progress = label_cli.Progress(stream, width=10, every_s=0.0)
    progress.update(True, 1, 4)
    progress.update(False, 4, 4)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("[##........] 1/4 25% ") and "img/s ETA " in lines[0]
    assert lines[1].startswith("[##########] 4/4 100% ")


@pytest.mark.slow
@pytest.mark.real
def test_end_to_end_with_the_shipped_model(tmp_path, capsys):
    model = REPO / "models" / "mcr-tiles.onnx"
    if not model.is_file():
        pytest.skip(f"no shipped model at {model} yet (being trained); the fake-detector tests cover the runner")
    if not REAL_PHOTOS.is_dir():
        pytest.skip(f"real photos not found at {REAL_PHOTOS}")
    photos = tmp_path / "photos"
    photos.mkdir()
    for source in sorted(REAL_PHOTOS.glob("*.jpg"))[:3]:
        shutil.copy(source, photos / source.name)
    assert main(["label", str(photos), "--out", str(tmp_path / "out"), "--format", "coco", "--workers", "2"]) == 0
    assert "3 images: 3 labelled" in capsys.readouterr().out
    api = COCO(str(tmp_path / "out" / "annotations.json"))
    assert len(api.getImgIds()) == 3
    assert all(0 <= a["category_id"] - 1 < len(TILES) for a in api.loadAnns(api.getAnnIds()))


def test_all_sides_labels_with_the_four_turns_vote_and_redoes_one_pass_records(tmp_path, capsys):
    """`mcr label --all-sides` reads as `mcr detect --all-sides` (the four turns' vote, held to --conf),
    and photos labelled in one pass before are labelled again, not reused."""
    from vision.detector import Detector, default_model_path
    from vision.imagefile import decode_photo
    from vision.views import AllSides

    try:
        model = default_model_path()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    photos, out = tmp_path / "photos", tmp_path / "out"
    photos.mkdir()
    example = REPO / "examples" / "hand.jpg"
    shutil.copy(example, photos / "hand.jpg")
    assert main(["label", str(photos), "--out", str(out), "--workers", "1"]) == 0
    assert main(["label", str(photos), "--out", str(out), "--workers", "1", "--all-sides"]) == 0
    assert capsys.readouterr().out.count("1 images: 1 labelled") == 2  # the second run redid the photo
    record = read_record(record_path(out, "hand.jpg"))
    assert record is not None and record.model.endswith("+all-sides")
    detector = Detector(model, conf=0.25)
    photo = decode_photo(example.read_bytes(), detector.size)  # labelling decodes as small as the input
    voted = photo.to_original(AllSides(detector)(photo.pixels))
    assert [t.code for t in record.detections.tiles] == [t.code for t in voted.tiles]
    assert (record.detections.confidence >= 0.25).all()


def test_without_the_extra_the_ray_engine_says_how_to_install_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # as if the cluster extra were not installed
    monkeypatch.delitem(sys.modules, "vision.labels.cluster", raising=False)
    assert main(["label", str(tmp_path), "--out", str(tmp_path / "out"), "--engine", "ray"]) == 2
    err = capsys.readouterr().err
    assert err == f"mcr label: error: {label_cli.INSTALL_CLUSTER}\n"
    assert "uv sync --extra cluster" in err


def test_a_phones_heic_photo_is_labelled_and_an_avif_one_fails_saying_so(photos, tmp_path):
    """An iPhone's HEIC photo is labelled as a JPEG is; an AVIF one is not passed over as another file: it fails
    by name, saying what to send."""
    shutil.copy(HEIC_PHOTO, photos / "IMG_0001.HEIC")
    (photos / "IMG_0002.AVIF").write_bytes(b"\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1miaf" + bytes(200))
    summary = run(photos, tmp_path / "out", "coco")
    assert (summary["labelled"], summary["failed"]) == (6, 1)
    (failure,) = summary["failures"]
    assert failure["image"] == "IMG_0002.AVIF" and failure["error"].startswith("an AVIF photo, which is not read here")
