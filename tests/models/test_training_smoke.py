"""Training smoke test: one tiny epoch on a few drawn images, ONNX export, loaded back by our Detector.

Needs the `train` extra (torch, ultralytics); skipped in the product venv. CI runs it in a separate venv
(see .ci/run). The images are drawn here (flat coloured tiles with a face-specific pattern), so it needs
no data from ../shared.
"""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

pytest.importorskip("ultralytics", reason="training smoke test needs the train extra (torch, ultralytics)")

from models.training.export import export, set_metadata, split_head  # noqa: E402
from models.training.train import (  # noqa: E402
    Blur,
    ColourCast,
    offline_ultralytics,
    photo_transforms,
    streak,
    train,
    transforms_callback,
)
from scoring.tiles import CLASS_NAMES  # noqa: E402
from vision.detector import Detector  # noqa: E402
from vision.labels.yolo import names_yaml  # noqa: E402

SIZE = 160


def draw_scene(seed: int, images: Path, labels: Path) -> None:
    """A green table with a row of white tiles, each marked by its class (a pattern of dark dots)."""
    rng = np.random.default_rng(seed)
    canvas = np.full((SIZE, SIZE, 3), (40, 120, 40), np.uint8)
    rows = []
    for i in range(5):
        cls = int(rng.integers(0, 4))
        x1, y1 = 8 + i * 29, 60
        cv2.rectangle(canvas, (x1, y1), (x1 + 24, y1 + 34), (235, 235, 235), -1)
        for k in range(cls + 1):
            cv2.circle(canvas, (x1 + 12, y1 + 6 + 7 * k), 2, (30, 30, 160), -1)
        rows.append(f"{cls} {(x1 + 12) / SIZE:.5f} {(y1 + 17) / SIZE:.5f} {24 / SIZE:.5f} {34 / SIZE:.5f}")
    cv2.imwrite(str(images / f"scene{seed}.png"), canvas)
    (labels / f"scene{seed}.txt").write_text("\n".join(rows) + "\n")


def test_one_epoch_exports_an_onnx_model_our_detector_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    offline_ultralytics(tmp_path / "config")
    for split in ("train", "val"):
        (tmp_path / "images" / split).mkdir(parents=True)
        (tmp_path / "labels" / split).mkdir(parents=True)
        for seed in range(4 if split == "train" else 2):
            draw_scene(seed + (10 if split == "val" else 0), tmp_path / "images" / split, tmp_path / "labels" / split)
    data = tmp_path / "data.yaml"
    data.write_text(f"path: {tmp_path}\ntrain: images/train\nval: images/val\n{names_yaml()}")
    recipe = {
        "name": "smoke",
        "architecture": "yolo11n.yaml",
        "torch_threads": 2,
        "train": {"imgsz": SIZE, "epochs": 1, "batch": 4, "workers": 0, "seed": 0, "amp": False, "mosaic": 0.0},
        "augmentation": {"fliplr": 0.0},
        "casts": {"white_balance": 0.25, "p": 0.5},  # our own transform, put in by a callback
    }
    run_dir = train(recipe, data, tmp_path, resume=False, init=None)
    weights = run_dir / "weights" / "last.pt"
    assert weights.exists()
    model = tmp_path / "smoke.onnx"
    export(weights, model, tmp_path / "compact.pt", note="smoke", imgsz=SIZE)
    # One epoch from random weights: scores are tiny, but present, and its boxes are mostly larger than the photo,
    # which `Letterbox.shown` would drop: kept here, where the mapping and the decoding are what is tested.
    monkeypatch.setattr("vision.locate.SHOWN", 0.0)
    detector = Detector(model, conf=1e-9)
    assert detector.classes == CLASS_NAMES and detector.size == SIZE
    image = cv2.imread(str(tmp_path / "images" / "val" / "scene10.png"))
    found = detector(np.ascontiguousarray(image[:, :120]))  # non-square input: letterboxed
    assert len(found) > 0
    assert (found.xyxy[:, 2] <= 120).all() and (found.xyxy[:, 3] <= SIZE).all()
    assert (tmp_path / "compact.pt").stat().st_size < 8_000_000
    # The split head (boxes decoded by our code, for candidates only) finds what the graph's own decoding finds.
    import onnx
    from ultralytics import YOLO

    whole = onnx.load(YOLO(str(tmp_path / "compact.pt")).export(format="onnx", imgsz=SIZE, simplify=True, dynamic=True))
    set_metadata(whole, {"classes": json.dumps(list(CLASS_NAMES)), "imgsz": str(SIZE)})
    onnx.save(whole, str(tmp_path / "whole.onnx"))
    split_head(whole)
    onnx.save(whole, str(tmp_path / "split.onnx"))
    wrong = onnx.load(str(tmp_path / "whole.onnx"))
    set_metadata(wrong, {"stride": "16"})  # strides taken as 4, 8, 16: the blank run's anchors tell
    with pytest.raises(SystemExit, match="not .* for strides"):
        split_head(wrong)
    for strip in (image, np.ascontiguousarray(image[:, :120])):
        decoded, split = (Detector(tmp_path / name, conf=0.01).locator(strip) for name in ("whole.onnx", "split.onnx"))
        assert len(decoded.xyxy) > 0
        np.testing.assert_allclose(split.xyxy, decoded.xyxy, atol=1e-3)
        np.testing.assert_allclose(split.scores, decoded.scores, atol=1e-6)


def test_an_interrupted_detector_run_resumes_from_its_last_checkpoint(tmp_path: Path) -> None:
    """`mcr train` resumes `last.pt` unless ``--fresh``: a run stopped after its first epoch finishes the second."""
    import torch

    offline_ultralytics(tmp_path / "config")
    for split in ("train", "val"):
        (tmp_path / "images" / split).mkdir(parents=True)
        (tmp_path / "labels" / split).mkdir(parents=True)
        draw_scene(0 if split == "train" else 10, tmp_path / "images" / split, tmp_path / "labels" / split)
    data = tmp_path / "data.yaml"
    data.write_text(f"path: {tmp_path}\ntrain: images/train\nval: images/val\n{names_yaml()}")
    recipe = {"name": "resume", "architecture": "yolo11n.yaml", "torch_threads": 2, "augmentation": {"fliplr": 0.0},
              "train": {"imgsz": 64, "epochs": 2, "batch": 1, "workers": 0, "seed": 0, "amp": False, "mosaic": 0.0}}

    def interrupt(trainer: object) -> None:  # after the first epoch's checkpoint is written
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train(recipe, data, tmp_path, resume=True, init=None, more={"on_fit_epoch_end": interrupt})
    last = tmp_path / "runs" / "resume" / "weights" / "last.pt"
    assert torch.load(last, weights_only=False)["epoch"] == 0  # one epoch done, one to go
    started: list[int] = []
    run_dir = train(recipe, data, tmp_path, resume=True, init=None,
                    more={"on_train_epoch_start": lambda trainer: started.append(trainer.epoch)})
    assert started == [1]  # the second epoch only: resumed, not started over
    assert torch.load(run_dir / "weights" / "last.pt", weights_only=False)["epoch"] == -1  # finished
    assert len((run_dir / "results.csv").read_text().strip().splitlines()) == 1 + 2  # header, both epochs


def tiny_reader_recipe(tmp_path: Path, scenes: int, **changes: object) -> dict:
    """The shipped reader recipe made tiny, on ``scenes`` drawn scenes, starting afresh (the shipped
    recipe may continue the shipped reader)."""
    from models.training import faces

    folder = tmp_path / "scenes"
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    for seed in range(scenes):
        draw_scene(seed, folder / "images", folder / "labels")
    recipe = {**json.loads(faces.RECIPE.read_text()), "name": "smoke", "epochs": 1, "batch": 8,
              "channels": [4, 8], "data": {"train": [str(folder)], "val": [str(folder)]}, **changes}
    recipe.pop("init", None)
    return recipe


def test_face_reader_trains_exports_and_reads_beside_the_detector(tmp_path: Path) -> None:
    """One tiny epoch of the face reader on the drawn scenes, exported, loaded, and used by the Detector."""
    from models.training import faces
    from vision.faces import FaceReader

    recipe = tiny_reader_recipe(tmp_path, 3)
    folder = Path(recipe["data"]["train"][0])
    checkpoint = faces.train(recipe, tmp_path / "faces", fresh=True)
    model = tmp_path / "faces.onnx"
    faces.export(checkpoint, recipe, model, tmp_path / "faces.pt", note="smoke")
    reader = FaceReader(model)
    assert reader.classes == CLASS_NAMES and reader.size == recipe["size"]
    image = cv2.imread(str(folder / "images" / "scene0.png"))
    probabilities = reader(image, np.array([[8, 60, 32, 94], [37, 60, 61, 94]], np.float32))
    assert probabilities.shape == (2, len(CLASS_NAMES))
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0, rtol=1e-5)
    assert (tmp_path / "faces.pt").stat().st_size < 100_000
    crops = faces.calibration_crops(recipe, count=10)  # the shipped readers are exported quantized
    assert crops.shape == (10, recipe["size"], recipe["size"], 3)
    faces.export(checkpoint, recipe, tmp_path / "int8.onnx", None, note="smoke", calibration=crops)
    quantized = FaceReader(tmp_path / "int8.onnx")
    import onnxruntime

    meta = onnxruntime.InferenceSession(str(tmp_path / "int8.onnx")).get_modelmeta().custom_metadata_map
    assert meta["quantized"].startswith("int8")
    assert quantized.classes == CLASS_NAMES and quantized.version == reader.version
    int8 = quantized(image, np.array([[8, 60, 32, 94], [37, 60, 61, 94]], np.float32))
    np.testing.assert_allclose(int8.sum(axis=1), 1.0, rtol=1e-4)
    assert np.abs(int8 - probabilities).max() < 0.2  # one epoch's near-uniform reading, kept near


def test_face_reader_stage_starts_from_the_reader_it_names(tmp_path: Path) -> None:
    """A recipe with ``init`` continues that reader: at learning rate 0 its weights come back unchanged."""
    import torch

    from models.training import faces

    recipe = tiny_reader_recipe(tmp_path, 1, name="first", batch=4)
    first = faces.train(recipe, tmp_path / "faces", fresh=True)
    faces.export(first, recipe, tmp_path / "first.onnx", tmp_path / "first.pt", note="smoke")
    stage = {**recipe, "name": "stage", "lr": 0.0, "init": str(tmp_path / "first.pt")}
    continued = torch.load(faces.train(stage, tmp_path / "faces", fresh=True), weights_only=False)["model"]
    started = torch.load(tmp_path / "first.pt")
    weights = [k for k in started if k.endswith(".weight")]
    assert weights and all(torch.equal(continued[k].half(), started[k]) for k in weights)


def test_a_reader_of_a_few_faces_starts_from_their_rows_of_a_whole_reader(tmp_path: Path) -> None:
    """A recipe with ``classes`` trains a reader of those faces only (the flowers' second look); started
    from a whole-vocabulary reader, its class layer is that reader's rows of those faces (at learning
    rate 0 they come back unchanged), and it exports with its own classes and crop size."""
    import torch

    from models.training import faces
    from vision.faces import FaceReader

    recipe = tiny_reader_recipe(tmp_path, 2, name="whole", batch=4)
    whole = faces.train(recipe, tmp_path / "faces", fresh=True)
    faces.export(whole, recipe, tmp_path / "whole.onnx", tmp_path / "whole.pt", note="smoke")
    few = {**recipe, "name": "few", "lr": 0.0, "size": 32, "classes": ["3m", "2m"], "init": str(tmp_path / "whole.pt")}
    checkpoint = faces.train(few, tmp_path / "faces", fresh=True)
    continued = torch.load(checkpoint, weights_only=False)["model"]
    started = torch.load(tmp_path / "whole.pt")
    head = [k for k in started if started[k].dim() and len(started[k]) == len(CLASS_NAMES)]  # the class layer: weight and bias
    assert len(head) == 2 and all(continued[k].shape[0] == 2 for k in head)
    assert all(torch.equal(continued[k].half(), started[k][[2, 1]]) for k in head)
    faces.export(checkpoint, few, tmp_path / "few.onnx", None, note="smoke")
    reader = FaceReader(tmp_path / "few.onnx")
    assert reader.classes == ("3m", "2m") and reader.size == 32
    image = cv2.imread(str(tmp_path / "scenes" / "images" / "scene0.png"))
    assert reader(image, np.array([[8, 60, 32, 94], [37, 60, 61, 94]], np.float32)).shape == (2, 2)


def test_the_lent_gpu_run_trains_from_a_carried_folder_on_the_cpu(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`models.training.device run --smoke`: carried faces unpacked into a cache of its own, scenes rendered in
    their style, the carried photos as the real set, a few batches from the shipped stage, and the
    compact checkpoint left where the device tool fetches files from, exportable as any stage."""
    from datasets.faces import FACE_CODES, FACE_H, FACE_W
    from models.training.device import GPU_RECIPE, run

    monkeypatch.setenv("MCR_LENS_CACHE", str(tmp_path / "cache"))  # restored after: the run sets its own
    carried = tmp_path / "carry"
    style = carried / "faces" / "font-ukai"
    style.mkdir(parents=True)
    for k, code in enumerate(FACE_CODES):  # a plain face per code, told apart by its grey and its text
        face = np.full((FACE_H, FACE_W, 3), 200 + k % 50, np.uint8)
        cv2.putText(face, code, (10, FACE_H // 2), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (30, 30, 160), 3)
        cv2.imwrite(str(style / f"{code}.webp"), face)
    (carried / "real" / "images").mkdir(parents=True)
    (carried / "real" / "labels").mkdir()
    for seed in range(3):
        draw_scene(seed, carried / "real" / "images", carried / "real" / "labels")
    out = tmp_path / "out"
    compact = run(carried, out, GPU_RECIPE, smoke=True, work=tmp_path / "work")
    assert compact.stat().st_size < 8_000_000 and (out / "results.csv").exists()
    assert len(list((tmp_path / "work" / "synth-smoke" / "images").iterdir())) == 8
    assert sorted(p.name for p in (tmp_path / "work" / "real" / "images" / "train").iterdir()) == \
        [f"scene{seed}.png" for seed in range(3)]
    export(compact, tmp_path / "gpu.onnx", None, note="smoke", recipe_file=GPU_RECIPE)
    detector = Detector(tmp_path / "gpu.onnx", faces=False)
    assert detector.size == json.loads(GPU_RECIPE.read_text())["train"]["imgsz"] and detector.stride == 32


def test_the_readers_colour_jitter_relights_each_crop() -> None:
    """A cast moves the channels apart, a gamma the levels; ``gray_p`` 1 leaves no colour; all off, the crop
    is kept as it was."""
    import torch

    from models.training import faces

    still = {"white_balance": 0.0, "gamma": 0.0, "gray_p": 0.0, "saturation": 0.0, "contrast": 0.0,
             "brightness": 0.0, "noise": 0.0}
    batch = torch.rand(16, 3, 8, 8, generator=torch.Generator().manual_seed(0))

    def jitter(**aug: float) -> torch.Tensor:
        return faces.colour_jitter(batch, torch.Generator().manual_seed(1), {**still, **aug})

    torch.testing.assert_close(jitter(), batch)
    gray = jitter(gray_p=1.0)
    torch.testing.assert_close(gray[:, 0], gray[:, 2])
    cast = jitter(white_balance=0.25).mean(dim=(2, 3)) / batch.mean(dim=(2, 3))  # each channel's gain
    assert (cast.max(dim=1).values - cast.min(dim=1).values).mean() > 0.1
    assert (jitter(gamma=0.5) - batch).abs().mean() > 0.02
    assert (cast - 1).abs().max() <= 0.25 + 1e-6


def test_the_detectors_own_transforms_stay_in_its_training_transforms() -> None:
    """`transforms_callback` puts the recipe's transforms (`photo_transforms`: a `ColourCast`, then a `Blur`)
    before the transform that makes tensors, keeps them when the set rebuilds its transforms (mosaic closing),
    and restarts the loader's workers; a cast turns white off white."""
    from types import SimpleNamespace

    from ultralytics.data.augment import Compose

    def to_tensor(labels: dict) -> dict:
        return labels

    class Set:
        def __init__(self) -> None:
            self.transforms = self.build_transforms(None)

        def build_transforms(self, hyp: object) -> Compose:
            return Compose([lambda labels: labels, to_tensor])

    resets = []
    loader = SimpleNamespace(dataset=Set(), reset=lambda: resets.append(1))
    ours = photo_transforms({"casts": {"white_balance": 0.25, "p": 1.0}, "blur": {"sigma": 2.0, "shake": 9, "p": 1.0}})
    transforms_callback(ours)(SimpleNamespace(train_loader=loader))
    for transforms in (loader.dataset.transforms, loader.dataset.build_transforms(None)):
        assert isinstance(transforms.transforms[-3], ColourCast) and isinstance(transforms.transforms[-2], Blur)
        assert transforms.transforms[-1] is to_tensor and len(transforms.transforms) == 4
    assert resets == [1]
    assert photo_transforms({}) == []
    np.random.seed(0)
    white = np.full((8, 8, 3), 200, np.uint8)
    cast = ColourCast(0.25, 1.0)({"img": white})["img"]
    assert cast.dtype == np.uint8 and np.ptp(cast.reshape(-1, 3).mean(axis=0)) > 5
    assert ColourCast(0.25, 0.0)({"img": white})["img"] is white


def test_blur_spreads_a_sharp_dot_and_keeps_the_photo_otherwise() -> None:
    """`Blur` spreads a one-pixel dot over its neighbours (out of focus or shaken, either way), keeps the
    image's size and type, leaves it alone at p 0; a shake's kernel is a line that sums to 1."""
    dot = np.zeros((31, 31, 3), np.uint8)
    dot[15, 15] = 255
    np.random.seed(1)
    for _ in range(8):
        out = Blur(2.0, 9, 1.0)({"img": dot.copy()})["img"]
        assert out.shape == dot.shape and out.dtype == np.uint8
        assert out.max() < 255 and np.count_nonzero(out[..., 0]) >= 3
    assert Blur(2.0, 9, 0.0)({"img": dot})["img"] is dot
    kernel = streak(7, 90.0)
    assert abs(kernel.sum() - 1) < 1e-5 and np.count_nonzero(kernel[:, 3]) >= 5 and kernel[3, 0] < 1e-3


def test_box_refiner_trains_resumes_exports_and_redraws_boxes(tmp_path: Path) -> None:
    """A tiny box refiner on the drawn scenes: stopped by its hours after one epoch, resumed for the second,
    exported, loaded by the Detector's `BoxRefiner`, and its boxes stay in the photo."""
    import torch

    from models.training import boxes
    from vision.boxes import BoxRefiner

    folder = tmp_path / "scenes"
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    for seed in range(2):
        draw_scene(seed, folder / "images", folder / "labels")
    recipe = {**json.loads(boxes.RECIPE.read_text()), "name": "smoke", "epochs": 2, "hours": 0.0, "batch": 4,
              "channels": [4, 8], "hidden": 8, "detector_share": 0.0,
              "data": {"train": [str(folder)], "val": [str(folder)], "note": "drawn"}}
    recipe.pop("init", None)
    first = boxes.train(recipe, tmp_path / "boxes", fresh=True)
    assert [h["epoch"] for h in torch.load(first, weights_only=False)["history"]] == [0]
    resumed = boxes.train({**recipe, "hours": 1.0}, tmp_path / "boxes", fresh=False)
    assert [h["epoch"] for h in torch.load(resumed, weights_only=False)["history"]] == [0, 1]
    boxes.export(resumed, recipe, tmp_path / "boxes.onnx", tmp_path / "boxes.pt", note="smoke")
    refiner = BoxRefiner(tmp_path / "boxes.onnx")
    assert refiner.size == recipe["size"] and refiner.version == recipe["version"]
    import onnxruntime

    meta = onnxruntime.InferenceSession(str(tmp_path / "boxes.onnx")).get_modelmeta().custom_metadata_map
    assert meta["quantized"].startswith("int8")  # as shipped: `models.training.boxes.export` quantizes
    import onnx

    graph = onnx.load(str(tmp_path / "boxes.onnx")).graph
    assert any(n.op_type == "QuantizeLinear" for n in graph.node)  # int8 indeed, its output layer's weights in float
    output = next(n for n in graph.node if n.output[0] == "edges")
    assert output.op_type == "Gemm" and output.input[1] in {init.name for init in graph.initializer}, output.input
    image = cv2.imread(str(folder / "images" / "scene0.png"))
    redrawn = refiner(image, np.array([[8, 60, 32, 94], [150, 60, 170, 94]], np.float32))
    assert redrawn.shape == (2, 4) and np.isfinite(redrawn).all()
    assert (redrawn >= 0).all() and (redrawn[:, [0, 2]] <= SIZE).all()
    assert (redrawn[:, 2] > redrawn[:, 0]).all() and (redrawn[:, 3] > redrawn[:, 1]).all()
