"""Train the box refiner (`vision.boxes`) from the recorded recipe (``models/recipe-boxes.json``); resumable.

Run in an environment with the ``train`` extra, from the repository root: ``python -m models.training.boxes`` (what
``mcr train --boxes`` runs). The recipe's YOLO folders (the real training photos built by ``mcr train
--prepare-only``) are held in memory whole, 640-px photos; each step draws labelled tiles, a box around each
(the label jittered as the detector errs: centre, size and each edge, a few times as far now and then; with
the recipe's ``detector_share``, instead one of the shipped detector's own boxes, of any tile, barely jittered), cuts
its region view (`vision.boxes.region_view`), turns it by quarter turns, relights it (`models.training.faces.colour_jitter`)
and regresses the label's edges in that region (L1). Validation: one fixed jittered box per tile of the
held-out real photos, the mean L1 against that of the boxes unrefined. A recipe with ``init`` continues a
refiner (its compact weights file). ``data/boxes/<name>/last.pt`` holds the state after each epoch; ``--export``
writes ``models/<model>.onnx`` in int8 (metadata ``version``, ``recipe``, ``history``, ``margin``, ``quantized``)
and the weights as fp16 in ``models/<model>.pt``.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from models.training.faces import colour_jitter
from models.training.recipes import BOXES_RECIPE, ROOT, start_weights
from models.training.runs import Run, command_line, missing_data, save_compact, trained, write_onnx
from vision.boxes import MARGIN, edges_in_region, region_view, turned_edges
from vision.evaluation import read_truth, yolo_pairs
from vision.geometry import box_iou
from vision.onnxmodel import to_blob

RECIPE = BOXES_RECIPE
FOUND_IOU = 0.3  # a detector's box and a label overlapping this much are one tile (the refiner's inputs)
CALIBRATION_VIEWS = 480  # views on which the int8 refiner's activation ranges are measured


class Tiles:
    """The labelled tiles of YOLO folders, their photos held in memory: ``images[which[k]]`` shows the tile
    whose label is ``labels[k]`` (xyxy pixels)."""

    def __init__(self, folders: list[Path], every: int = 1) -> None:
        """``every``: only each so many photos of a folder (a sample spread over it)."""
        self.images: list[np.ndarray] = []
        which, labels = [], []
        for folder in folders:
            for image_path, label_path in yolo_pairs(folder)[::every]:
                image = cv2.imread(str(image_path))
                if image is None:
                    continue
                truth = read_truth(label_path, image.shape[1], image.shape[0])
                which += [len(self.images)] * len(truth.xyxy)
                labels.append(truth.xyxy)
                self.images.append(image)
        self.which = np.array(which, np.int64)
        self.labels = np.concatenate(labels).astype(np.float32) if labels else np.zeros((0, 4), np.float32)

    def __len__(self) -> int:
        return len(self.labels)


def found_boxes(tiles: Tiles, cache: Path) -> tuple[np.ndarray, np.ndarray]:
    """The shipped detector's boxes (as drawn, unrefined) on the tiles' photos, each paired with the label
    it overlaps most (over `FOUND_IOU`): (the tile's index in ``tiles``, the box), none when it found no
    labelled tile. Worked out once, cached."""
    if cache.exists():
        stored = np.load(cache)
        return stored["tile"], stored["box"]
    from vision.detector import Detector

    detector = Detector(conf=0.05, refine=False)
    bounds = np.searchsorted(tiles.which, np.arange(len(tiles.images) + 1))  # each photo's tiles: a run of rows
    pairs, boxes = [], []
    for index, image in enumerate(tiles.images):
        first, stop = bounds[index], bounds[index + 1]
        found = detector(image).xyxy
        if len(found) == 0 or stop == first:
            continue
        iou = box_iou(found, tiles.labels[first:stop])
        best = iou.argmax(axis=1)
        near = np.flatnonzero(iou[np.arange(len(found)), best] > FOUND_IOU)
        pairs.append(first + best[near])
        boxes.append(found[near])
    tile = np.concatenate(pairs) if pairs else np.zeros(0, np.int64)
    box = np.concatenate(boxes).astype(np.float32) if boxes else np.zeros((0, 4), np.float32)
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.savez(cache, tile=tile, box=box)
    return tile, box


def found_key(recipe: dict[str, Any], tiles: Tiles) -> str:
    """What the detector's boxes of `found_boxes` depend on (the shipped detector's file, the training folders and
    their labels), hashed: a cache made with another detector or other data is not reused."""
    from vision.detector import default_model_path

    digest = hashlib.sha256(default_model_path().read_bytes())
    digest.update(json.dumps(recipe["data"]["train"]).encode())
    digest.update(tiles.labels.tobytes())
    return digest.hexdigest()[:12]


def jittered(label: np.ndarray, rng: np.random.Generator, jitter: dict[str, float]) -> np.ndarray:
    """A box around ``label`` as a detector might draw it: centre moved, size scaled (a little larger on
    average, as the detector's boxes are), width and height apart, each edge moved; `far` of the time all
    of it ``far_scale`` times as much. Never narrower than a fifth of the label."""
    width, height = label[2] - label[0], label[3] - label[1]
    k = jitter["far_scale"] if rng.random() < jitter["far"] else 1.0
    cx = (label[0] + label[2]) / 2 + rng.normal(0, jitter["centre"] * k) * width
    cy = (label[1] + label[3]) / 2 + rng.normal(0, jitter["centre"] * k) * height
    scale = math.exp(rng.normal(jitter["size_mean"], jitter["size"] * k))
    w = max(width * scale * math.exp(rng.normal(0, jitter["aspect"] * k)), 0.2 * width)
    h = max(height * scale * math.exp(rng.normal(0, jitter["aspect"] * k)), 0.2 * height)
    box = np.array([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], np.float32)
    edges = rng.normal(0, jitter["edge"] * k, 4).astype(np.float32) * np.array([width, height, width, height])
    moved = box + edges
    return moved if moved[2] - moved[0] > 0.2 * width and moved[3] - moved[1] > 0.2 * height else box


def batch_of(tiles: Tiles, rows: np.ndarray, rng: np.random.Generator, recipe: dict[str, Any],
             found: tuple[np.ndarray, np.ndarray] | None) -> tuple[np.ndarray, np.ndarray]:
    """Views (n, size, size, 3) of the tiles ``rows`` and the edges (n, 4) to regress, each view turned."""
    size, jitter = recipe["size"], recipe["jitter"]
    views, targets = [], []
    for row in rows:
        if found is not None and len(found[0]) and rng.random() < recipe["detector_share"]:
            pick = int(rng.integers(len(found[0])))
            row, box = found[0][pick], found[1][pick]
            width, height = box[2] - box[0], box[3] - box[1]
            box = box + rng.normal(0, jitter["found"], 4).astype(np.float32) * np.array([width, height, width, height])
        else:
            box = jittered(tiles.labels[row], rng, jitter)
        turns = int(rng.integers(4))
        view = region_view(tiles.images[tiles.which[row]], box, size)
        views.append(np.ascontiguousarray(np.rot90(view, turns)))
        targets.append(turned_edges(edges_in_region(box, tiles.labels[row]), turns)[0])
    return np.stack(views), np.stack(targets)


def build_model(recipe: dict[str, Any]) -> Any:
    """One 3×3 conv at the view's size, then per stage two; the last map flattened, not pooled: an edge is
    where the features are, not what they are."""
    from torch import nn

    first, *rest = recipe["channels"]
    layers: list[Any] = [nn.Conv2d(3, first, 3, padding=1, bias=False), nn.BatchNorm2d(first), nn.ReLU(inplace=True),
                         nn.MaxPool2d(2)]
    channels_in = first
    for channels in rest:
        for _ in range(2):
            layers += [nn.Conv2d(channels_in, channels, 3, padding=1, bias=False), nn.BatchNorm2d(channels),
                       nn.ReLU(inplace=True)]
            channels_in = channels
        layers.append(nn.MaxPool2d(2))
    side = recipe["size"] // 2 ** len(recipe["channels"])
    layers += [nn.Flatten(), nn.Linear(channels_in * side * side, recipe["hidden"]), nn.ReLU(inplace=True),
               nn.Linear(recipe["hidden"], 4)]
    return nn.Sequential(*layers)


def validation_set(tiles: Tiles, recipe: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, float]:
    """One jittered box per held-out tile (a fixed draw): views, edges to regress, and the mean L1 of the
    boxes themselves (what a refiner that changes nothing would score)."""
    views, targets = batch_of(tiles, np.arange(len(tiles)), np.random.default_rng(recipe["seed"] + 1), recipe, None)
    unrefined = np.array([MARGIN, MARGIN, 1 + MARGIN, 1 + MARGIN], np.float32) / (1 + 2 * MARGIN)
    return views, targets, float(np.abs(targets - unrefined).mean())


def train(recipe: dict[str, Any], work: Path, fresh: bool) -> Path:
    """Train (or resume) the refiner; returns the checkpoint path. Stops at the recipe's epochs or hours."""
    missing_data(recipe)
    import torch

    torch.set_num_threads(recipe["torch_threads"])
    torch.manual_seed(recipe["seed"])
    run = work / recipe["name"]
    run.mkdir(parents=True, exist_ok=True)
    tiles = Tiles([ROOT / f for f in recipe["data"]["train"]])
    if len(tiles) == 0:
        raise SystemExit(f"no labelled tiles in {', '.join(recipe['data']['train'])}: nothing to train on")
    found = found_boxes(tiles, work / f"found-{found_key(recipe, tiles)}.npz") if recipe["detector_share"] > 0 else None
    val_views, val_targets, unrefined = validation_set(Tiles([ROOT / f for f in recipe["data"]["val"]]), recipe)
    print(f"{len(tiles)} training tiles, {len(val_targets)} held-out tiles", flush=True)

    model = build_model(recipe)
    if start := start_weights(recipe, work):  # a stage that continues a refiner (its compact fp16 weights)
        model.load_state_dict({k: v.float() for k, v in torch.load(start).items()})
    steps = max(1, len(tiles) // recipe["batch"])
    state = Run.begin(model, recipe, steps, run / "last.pt", fresh)
    began = time.time()
    for epoch in range(state.start, recipe["epochs"]):
        rng = np.random.default_rng(recipe["seed"] * 1000 + epoch)
        generator = torch.Generator().manual_seed(recipe["seed"] * 1000 + epoch)
        order = rng.permutation(len(tiles))
        model.train()
        total = 0.0
        for step in range(steps):
            views, targets = batch_of(tiles, order[step * recipe["batch"]:(step + 1) * recipe["batch"]], rng, recipe,
                                      found)
            batch = colour_jitter(torch.from_numpy(to_blob(views)), generator, recipe["augmentation"])
            loss = (model(batch) - torch.from_numpy(targets)).abs().mean()
            state.step(loss)
            total += loss.item()
        model.eval()
        with torch.no_grad():
            edges = torch.cat([model(torch.from_numpy(to_blob(val_views[i:i + 512])))
                               for i in range(0, len(val_views), 512)]).numpy()
        state.save(epoch, {"epoch": epoch, "loss": round(total / steps, 4),
                           "val_l1": round(float(np.abs(edges - val_targets).mean()), 4),
                           "val_l1_unrefined": round(unrefined, 4), "minutes": round((time.time() - began) / 60, 1)})
        if (time.time() - began) / 3600 > recipe["hours"]:
            break
    return state.last


def calibration_views(recipe: dict[str, Any], count: int = CALIBRATION_VIEWS) -> np.ndarray:
    """Views (n, size, size, 3) as the refiner is shown them (labels jittered), of tiles from photos spread over the
    recipe's first training folder (the real photos)."""
    folder = ROOT / recipe["data"]["train"][0]
    tiles = Tiles([folder], every=max(1, len(yolo_pairs(folder)) // 100))
    rng = np.random.default_rng(recipe["seed"])
    rows = rng.choice(len(tiles), min(count, len(tiles)), replace=False)
    return np.stack([region_view(tiles.images[tiles.which[row]], jittered(tiles.labels[row], rng, recipe["jitter"]),
                                 recipe["size"]) for row in rows])


def last_gemm(graph: Any) -> list[str]:
    """The refiner's output layer, left in float by `models.training.runs.quantize`: edges in steps of 1/255 of a region would move
    each box by up to a pixel of a 100-px tile."""
    return [node.name for node in graph.node if node.op_type == "Gemm"][-1:]


def export(checkpoint: Path, recipe: dict[str, Any], onnx_out: Path, compact_out: Path | None, note: str) -> None:
    """The refiner as ONNX (dynamic batch, four edges out, our metadata) in int8 (`models.training.runs.quantize`, its
    output layer in float), and, if asked, fp16 weights: int8 redraws 20 boxes in about half the time on 2 cores,
    and its boxes fit their labels as the fp32 ones do (the output layer stays in float for that)."""
    missing_data(recipe)  # its first training folder gives the views the int8 ranges are measured on
    model = build_model(recipe)
    history = trained(checkpoint, model)
    meta = {"version": recipe["version"], "recipe": note, "margin": str(MARGIN), "history": json.dumps(history)}
    write_onnx(model, recipe["size"], ("views", "edges"), meta, onnx_out, calibration_views(recipe), last_gemm)
    save_compact(model, compact_out)


def main(argv: list[str] | None = None) -> int:
    return command_line(argv, "models.training.boxes", __doc__, RECIPE, train, export)


if __name__ == "__main__":
    raise SystemExit(main())
