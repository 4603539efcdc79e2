"""Label formats written by `mcr label`, read back by each format's own tools: pycocotools for COCO,
the Label Studio SDK (its labelling-config validator and its converter) for Label Studio, a YAML parser
for YOLO's data.yaml. Same boxes, same classes, same scores."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import yaml
from label_studio_sdk.converter import Converter
from label_studio_sdk.label_interface import LabelInterface
from pycocotools.coco import COCO

from scoring.tiles import CLASS_NAMES, TILES, tile
from vision.detections import TileDetections
from vision.labels import coco, labelstudio, yolo

WIDTH, HEIGHT = 800, 600


def random_detections(seed: int, n: int = 12) -> TileDetections:
    """Boxes inside a WIDTH x HEIGHT image, every class reachable, scores in (0, 1)."""
    rng = np.random.default_rng(seed)
    x0 = rng.uniform(0, WIDTH - 60, n)
    y0 = rng.uniform(0, HEIGHT - 80, n)
    xyxy = np.stack([x0, y0, x0 + rng.uniform(5, 60, n), y0 + rng.uniform(5, 80, n)], axis=1)
    return TileDetections(xyxy, rng.uniform(0.05, 0.99, n), rng.integers(0, len(TILES), n))


def assert_same(got: TileDetections, want: TileDetections, atol: float = 0.02) -> None:
    """Same rows in the same order: classes equal, boxes and scores equal up to the files' rounding."""
    assert got.class_id.tolist() == want.class_id.tolist()
    np.testing.assert_allclose(got.xyxy, want.xyxy, atol=atol)
    np.testing.assert_allclose(got.confidence, want.confidence, atol=1e-4)


# --- COCO -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_coco_converters_round_trip(seed):
    want = random_detections(seed)
    assert_same(coco.from_annotations(coco.to_annotations(want, image_id=1, first_id=1)), want)


def test_coco_file_read_by_pycocotools(tmp_path):
    photos = {"a.jpg": random_detections(3), "sub/b.png": random_detections(4, n=5), "c.webp": TileDetections.empty()}
    images, annotations = [], []
    for image_id, (name, found) in enumerate(photos.items(), start=1):
        images.append(coco.image_record(image_id, name, WIDTH, HEIGHT))
        annotations += coco.to_annotations(found, image_id, len(annotations) + 1)
    path = tmp_path / "annotations.json"
    path.write_text(coco.dumps(coco.dataset(images, annotations, "test")))

    api = COCO(str(path))
    assert [c["name"] for c in api.loadCats(api.getCatIds())] == list(CLASS_NAMES)
    for image in api.loadImgs(api.getImgIds()):
        rows = api.loadAnns(api.getAnnIds(imgIds=[image["id"]]))
        names = [api.loadCats(r["category_id"])[0]["name"] for r in rows]
        want = photos[image["file_name"]]
        assert names == [t.code for t in want.tiles]
        xywh = np.array([r["bbox"] for r in rows], np.float32).reshape(-1, 4)
        np.testing.assert_allclose(np.concatenate([xywh[:, :2], xywh[:, :2] + xywh[:, 2:]], 1), want.xyxy, atol=0.02)
        np.testing.assert_allclose([r["score"] for r in rows], want.confidence, atol=1e-4)
    assert coco.load(path)["images"] == images


def test_coco_rejects_unknown_category_and_non_coco_file(tmp_path):
    with pytest.raises(ValueError, match=r"category ids \[44\]"):
        coco.from_annotations([{"bbox": [0, 0, 1, 1], "category_id": 44}])
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"images": []}))
    with pytest.raises(ValueError, match="not a COCO file.*annotations, categories"):
        coco.load(path)


# --- Label Studio -----------------------------------------------------------------------------------


def test_labeling_config_names_our_43_classes():
    interface = LabelInterface(labelstudio.labeling_config())
    control = interface.get_control(labelstudio.FROM_NAME)
    assert control.tag.lower() == labelstudio.REGION_TYPE
    assert list(control.labels) == list(CLASS_NAMES)
    assert control.to_name == [labelstudio.TO_NAME]


@pytest.mark.parametrize("seed", [5, 6])
def test_prediction_passes_label_studio_validation(seed):
    found = random_detections(seed)
    prediction = labelstudio.to_prediction(found, WIDTH, HEIGHT, "mcr-tiles.onnx@abc")
    interface = LabelInterface(labelstudio.labeling_config())
    assert interface.validate_prediction(prediction, return_errors=True) == []
    assert prediction["score"] == pytest.approx(float(found.confidence.min()), abs=1e-4)
    assert_same(labelstudio.from_result(prediction["result"]), found, atol=0.05)


def test_label_studio_validator_catches_a_broken_box():
    """The independent check is not a rubber stamp: a box past the image edge fails it."""
    prediction = labelstudio.to_prediction(random_detections(7, n=2), WIDTH, HEIGHT, "m")
    prediction["result"][0]["value"]["width"] = 150.0
    errors = LabelInterface(labelstudio.labeling_config()).validate_prediction(prediction, return_errors=True)
    assert errors and "out of bounds" in errors[0]


def test_tasks_converted_by_label_studio_give_our_boxes(tmp_path):
    """Label Studio's own converter (export -> COCO) reads our boxes back in pixels, as a reviewer who
    accepts every prediction would export them."""
    photos = {"a.jpg": random_detections(8), "dir/b c.jpg": random_detections(9, n=4)}
    tasks = [labelstudio.task(labelstudio.LOCAL_FILES_PREFIX + name,
                              labelstudio.to_prediction(found, WIDTH, HEIGHT, "m"))
             for name, found in photos.items()]
    (tmp_path / "tasks.json").write_text(labelstudio.tasks_text(tasks))
    loaded = labelstudio.load_tasks(tmp_path / "tasks.json")
    accepted = [{"id": i, **t, "annotations": [{"result": t["predictions"][0]["result"]}]}
                for i, t in enumerate(loaded, start=1)]
    (tmp_path / "export.json").write_text(json.dumps(accepted))
    converter = Converter(labelstudio.labeling_config(), project_dir=str(tmp_path), download_resources=False)
    converter.convert_to_coco(str(tmp_path / "export.json"), str(tmp_path / "coco"), is_dir=False)

    exported = json.loads((tmp_path / "coco" / "result.json").read_text())
    names = {c["id"]: c["name"] for c in exported["categories"]}
    for image, found in zip(exported["images"], photos.values(), strict=True):
        rows = [a for a in exported["annotations"] if a["image_id"] == image["id"]]
        assert (image["width"], image["height"]) == (WIDTH, HEIGHT)
        assert sorted(tile(names[r["category_id"]]).index for r in rows) == sorted(found.class_id.tolist())
        got = sorted(tuple(np.round(r["bbox"], 1)) for r in rows)
        xywh = np.concatenate([found.xyxy[:, :2], found.xyxy[:, 2:] - found.xyxy[:, :2]], 1)
        np.testing.assert_allclose(got, sorted(tuple(np.round(b, 1)) for b in xywh.tolist()), atol=0.2)


def test_label_studio_reader_rejects_rotation_and_non_task_files(tmp_path):
    prediction = labelstudio.to_prediction(random_detections(10, n=1), WIDTH, HEIGHT, "m")
    prediction["result"][0]["value"]["rotation"] = 30
    with pytest.raises(ValueError, match="rotated"):
        labelstudio.from_result(prediction["result"])
    path = tmp_path / "tasks.json"
    path.write_text(json.dumps({"data": {}}))
    with pytest.raises(ValueError, match="not a Label Studio task list"):
        labelstudio.load_tasks(path)


# --- YOLO -------------------------------------------------------------------------------------------


def test_yolo_names_block_parses_as_our_classes():
    parsed = yaml.safe_load(yolo.names_yaml())
    assert parsed["nc"] == len(CLASS_NAMES)
    assert [parsed["names"][i] for i in range(parsed["nc"])] == list(CLASS_NAMES)
    assert yolo.declared_names(yolo.data_yaml(Path("/x"))) == list(CLASS_NAMES)


@pytest.mark.parametrize(("text", "names"), [
    ("nc: 2\nnames: ['1B', \"1C\"]\n", ["1B", "1C"]),
    ("names:\n  - 1m\n  - '2m'\nnc: 2\n", ["1m", "2m"]),
    ("names:\n- 1m  # characters\n# the dots\n- 1p\n", ["1m", "1p"]),  # PyYAML's own dump, with comments
    ("names:\n  1: 2m\n  0: '1m'\n\ntrain: images\n", ["1m", "2m"]),
    ("names: {0: 1m, 1: 2m, 10: E}\n", ["1m", "2m", "E"]),
    ("names: [1m,\n  2m]\n", ["1m", "2m"]),
    ("train: images\nnc: 2\n", None),
])
def test_a_data_yaml_names_its_classes_in_any_of_yamls_ways(text, names):
    assert yolo.declared_names(text) == names


def test_a_data_yaml_that_is_not_yaml_is_an_error():
    with pytest.raises(ValueError, match="not YAML"):
        yolo.declared_names("names: [1m, 2m\n")
