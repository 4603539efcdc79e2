"""Train the face reader (`vision.faces`) from the recorded recipe (``models/recipe-faces.json``); resumable.

Run in an environment with the ``train`` extra, from the repository root: ``python -m models.training.faces``
(what ``mcr train --faces`` runs). Every labelled tile of the recipe's YOLO folders (the real training
photos built by ``mcr train --prepare-only``, synthetic scenes from ``mcr synth``) is cut once as a patch
with room around its crop; each epoch then jitters the box, turns the crop (any multiple of 90° plus a
few degrees), sometimes blurs it as a photo out of focus or shaken, blurs it to the size of a small tile,
relights it (a colour cast, a gamma, sometimes no colour: `colour_jitter`) and adds noise, so the reader learns
faces, not one photo's framing, focus or light.
Validation: the tiles of the held-out real photos, uncropped by any jitter. A recipe with ``init`` (a
reader's compact weights file) continues that reader rather than starting from scratch.
``data/faces/<name>/last.pt`` holds the state after each epoch; ``--export`` writes
``models/<model>.onnx`` (the recipe's ``model``: ``mcr-faces``; softmax output, metadata ``classes``,
``version``, ``recipe``, ``quantized``), its weights and activations quantized to int8 (`quantize`), and the
weights as fp16 in ``models/<model>.pt``. A recipe with ``classes`` trains
a reader of those faces only, a second look (``models/recipe-flowers.json``, ``recipe-characters.json``:
the flowers and seasons, the characters, at 96 px).
"""

from __future__ import annotations

import itertools
import json
import math
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from models.training.recipes import FACES_RECIPE, ROOT, start_weights
from models.training.runs import Run, command_line, missing_data, save_compact, trained, write_onnx
from models.training.train import blurred
from scoring.tiles import CLASS_NAMES
from vision.evaluation import read_truth, yolo_pairs
from vision.faces import crop_window, square_crop
from vision.onnxmodel import PAD_VALUE, to_blob

RECIPE = FACES_RECIPE
CONTEXT = 1.5  # a stored patch covers this many crop sides, room for jitter and turns
CALIBRATION_CROPS = 480  # crops of the reader's faces on which its int8 activation ranges are measured


def reader_classes(recipe: dict[str, Any]) -> list[str]:
    """The faces a recipe's reader tells apart: its ``classes`` (a second look within a few faces, such as
    the flowers and seasons) or, by default, the whole tile vocabulary."""
    classes = list(recipe.get("classes", CLASS_NAMES))
    unknown = [code for code in classes if code not in CLASS_NAMES]
    if unknown:
        raise SystemExit(f"recipe classes {', '.join(unknown)}: not tile codes")
    return classes


def labelled_tiles(pairs: list[tuple[Path, Path]], classes: list[str]) -> Iterator[tuple[np.ndarray, np.ndarray, int]]:
    """Each labelled tile of the (image, labels) pairs that shows one of ``classes``: its photo, its box
    and its index in ``classes``."""
    index = {CLASS_NAMES.index(code): i for i, code in enumerate(classes)}
    for image_path, label_path in pairs:
        image = cv2.imread(str(image_path))
        if image is None:
            continue
        truth = read_truth(label_path, image.shape[1], image.shape[0])
        for box, cls in zip(truth.xyxy, truth.class_id.tolist(), strict=True):
            if cls in index:
                yield image, box, index[cls]


def cut_patches(folder: Path, size: int, classes: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Every labelled tile of a YOLO folder showing one of ``classes`` as a (n, p, p, 3) patch around its
    crop, and its index in ``classes``."""
    side = round(size * CONTEXT)
    patches, labels = [], []
    for image, box, label in labelled_tiles(yolo_pairs(folder), classes):
        cx, cy, s = crop_window(box)
        patches.append(square_crop(image, cx, cy, s * CONTEXT, side))
        labels.append(label)
    return np.stack(patches).reshape(-1, side, side, 3), np.array(labels, np.int64)


def load_patches(folders: list[str], size: int, classes: list[str], cache: Path) -> tuple[np.ndarray, np.ndarray]:
    """The patches of several folders (relative to the repository root), each cut once and cached."""
    cache.mkdir(parents=True, exist_ok=True)
    subset = "" if classes == list(CLASS_NAMES) else "-" + "".join(classes)
    parts = []
    for folder in folders:
        stored = cache / f"{folder.strip('/').replace('/', '_')}-{size}{subset}.npz"
        if not stored.exists():
            patches, labels = cut_patches(ROOT / folder, size, classes)
            np.savez(stored, patches=patches, labels=labels)
        data = np.load(stored)
        parts.append((data["patches"], data["labels"]))
    return np.concatenate([p for p, _ in parts]), np.concatenate([y for _, y in parts])


def augment(patch: np.ndarray, size: int, rng: np.random.Generator, aug: dict[str, float]) -> np.ndarray:
    """One training view of a patch: jittered box, turned (with ``envelope``, shrunk as the box of a tile tilted
    that much frames it), with the recipe's ``photo_blur_p`` out of focus (a Gaussian up to ``defocus`` pixels of
    the view) or shaken (a streak up to ``shake`` pixels), then blurred to a random tile size. Older recipes have no
    ``photo_blur_p``: their views are drawn as they were."""
    centre = patch.shape[0] / 2
    scale = size / (patch.shape[0] / CONTEXT) / rng.uniform(1 - aug["scale"], 1 + aug["scale"])
    quarter, tilt = rng.integers(4), rng.uniform(-aug["degrees"], aug["degrees"])
    angle = 90.0 * quarter + tilt
    if aug.get("envelope"):  # a tilted tile's box is its envelope, so the crop around it shows the tile smaller
        scale /= abs(math.cos(math.radians(tilt))) + abs(math.sin(math.radians(tilt)))
    shift = rng.uniform(-aug["translate"], aug["translate"], 2) * patch.shape[0] / CONTEXT
    matrix = cv2.getRotationMatrix2D((centre + shift[0], centre + shift[1]), angle, scale)
    matrix[:, 2] += size / 2 - np.array([centre + shift[0], centre + shift[1]])
    view = cv2.warpAffine(patch, matrix, (size, size), flags=cv2.INTER_LINEAR, borderValue=(PAD_VALUE,) * 3)
    if aug.get("photo_blur_p") and rng.random() < aug["photo_blur_p"]:  # a photo out of focus or shaken
        view = blurred(view, rng, aug["defocus"], aug["shake"])
    if rng.random() < aug["blur_p"]:  # a tile seen at few pixels
        small = int(rng.integers(aug["blur_min"], size))
        view = cv2.resize(cv2.resize(view, (small, small), interpolation=cv2.INTER_AREA), (size, size))
    return view


def colour_jitter(batch: Any, generator: Any, aug: dict[str, float]) -> Any:
    """The light of another room per crop on a (n, 3, s, s) 0–1 tensor: a colour cast (each channel's gain:
    tungsten or shade), a gamma, sometimes no colour at all, then saturation, contrast, brightness and noise.
    Why the first three: readers that never saw a cast read fewer hands photographed under tungsten light, a
    common light at a mahjong table."""
    import torch

    n = batch.shape[0]

    def uniform(low: float, high: float, channels: int = 1) -> Any:
        return torch.empty(n, channels, 1, 1).uniform_(low, high, generator=generator)

    batch = (batch * uniform(1 - aug["white_balance"], 1 + aug["white_balance"], 3)).clamp(0, 1)
    batch = batch ** torch.exp(uniform(-aug["gamma"], aug["gamma"]))
    gray = batch.mean(dim=1, keepdim=True)
    batch = torch.where(uniform(0, 1) < aug["gray_p"], gray.expand_as(batch), batch)
    batch = gray + (batch - gray) * uniform(1 - aug["saturation"], 1 + aug["saturation"])
    mean = batch.mean(dim=(1, 2, 3), keepdim=True)
    batch = mean + (batch - mean) * uniform(1 - aug["contrast"], 1 + aug["contrast"])
    batch = batch + uniform(-aug["brightness"], aug["brightness"])
    batch = batch + torch.randn(batch.shape, generator=generator) * uniform(0, aug["noise"])
    return batch.clamp(0, 1)


def build_model(recipe: dict[str, Any]) -> Any:
    """A small VGG-style network: per stage two 3×3 conv + BN + ReLU, then 2× pooling; global average."""
    from torch import nn

    layers: list[Any] = []
    channels_in = 3
    for channels in recipe["channels"]:
        for _ in range(2):
            layers += [nn.Conv2d(channels_in, channels, 3, padding=1, bias=False), nn.BatchNorm2d(channels),
                       nn.ReLU(inplace=True)]
            channels_in = channels
        layers.append(nn.MaxPool2d(2))
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(recipe["dropout"]),
               nn.Linear(channels_in, len(reader_classes(recipe)))]
    return nn.Sequential(*layers)


def head_for(weights: dict[str, Any], classes: list[str], target: dict[str, Any]) -> dict[str, Any]:
    """A whole-vocabulary reader's weights for a reader of ``classes``: the class layer keeps the rows
    of those faces (what the reader knows of them), every other tensor is taken as it is."""
    rows = [CLASS_NAMES.index(code) for code in classes]
    return {key: value[rows] if value.shape != target[key].shape and len(value) == len(CLASS_NAMES) else value
            for key, value in weights.items()}


def class_weights(labels: np.ndarray) -> np.ndarray:
    """Sampling weight per tile ∝ 1/√(its class's count): rare faces (flowers, seasons) seen more often."""
    counts = np.bincount(labels).astype(np.float64)
    weights = 1.0 / np.sqrt(np.maximum(counts[labels], 1))
    return weights / weights.sum()


def accuracy(model: Any, patches: np.ndarray, labels: np.ndarray, size: int) -> float:
    """Top-1 accuracy on the patches' nominal crops (no jitter)."""
    import torch

    centre, side = patches.shape[1] / 2, patches.shape[1] / CONTEXT
    crops = np.stack([square_crop(p, centre, centre, side, size) for p in patches])
    model.eval()
    with torch.no_grad():
        predicted = torch.cat([model(torch.from_numpy(to_blob(crops[i:i + 512]))).argmax(1)
                               for i in range(0, len(crops), 512)])
    return float((predicted.numpy() == labels).mean())


def train(recipe: dict[str, Any], work: Path, fresh: bool) -> Path:
    """Train (or resume) the reader; returns the checkpoint path. Stops at the recipe's epochs or hours."""
    missing_data(recipe)
    import torch

    torch.set_num_threads(recipe["torch_threads"])
    torch.manual_seed(recipe["seed"])
    size, aug = recipe["size"], recipe["augmentation"]
    run = work / recipe["name"]
    run.mkdir(parents=True, exist_ok=True)
    classes = reader_classes(recipe)
    train_p, train_y = load_patches(recipe["data"]["train"], size, classes, work / "patches")
    val_p, val_y = load_patches(recipe["data"]["val"], size, classes, work / "patches")
    print(f"{len(train_y)} training tiles, {len(val_y)} held-out tiles", flush=True)

    model = build_model(recipe)
    if start := start_weights(recipe, work):  # a stage that continues a reader (its compact fp16 weights)
        init = {k: v.float() for k, v in torch.load(start).items()}
        model.load_state_dict(head_for(init, classes, model.state_dict()))
    steps = math.ceil(len(train_y) / recipe["batch"])
    state = Run.begin(model, recipe, steps, run / "last.pt", fresh)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=recipe["label_smoothing"])
    weights = class_weights(train_y)
    began = time.time()
    for epoch in range(state.start, recipe["epochs"]):
        rng = np.random.default_rng(recipe["seed"] * 1000 + epoch)
        generator = torch.Generator().manual_seed(recipe["seed"] * 1000 + epoch)
        order = rng.choice(len(train_y), size=steps * recipe["batch"], p=weights)
        model.train()
        total = 0.0
        for step in range(steps):
            rows = order[step * recipe["batch"]:(step + 1) * recipe["batch"]]
            views = np.stack([augment(train_p[r], size, rng, aug) for r in rows])
            batch = colour_jitter(torch.from_numpy(to_blob(views)), generator, aug)
            loss = loss_fn(model(batch), torch.from_numpy(train_y[rows]))
            state.step(loss)
            total += loss.item()
        state.save(epoch, {"epoch": epoch, "loss": round(total / steps, 4),
                           "val_accuracy": round(accuracy(model, val_p, val_y, size), 4),
                           "minutes": round((time.time() - began) / 60, 1)})
        if (time.time() - began) / 3600 > recipe["hours"]:
            break
    return state.last


def calibration_crops(recipe: dict[str, Any], count: int = CALIBRATION_CROPS) -> np.ndarray:
    """Crops (n, size, size, 3) of the reader's faces, as it reads them, from photos spread evenly over
    the recipe's first training folder (the real photos)."""
    pairs = yolo_pairs(ROOT / recipe["data"]["train"][0])
    tiles = labelled_tiles(pairs[::max(1, len(pairs) // 300)], reader_classes(recipe))
    crops = [square_crop(image, *crop_window(box), recipe["size"]) for image, box, _ in itertools.islice(tiles, count)]
    if not crops:
        raise SystemExit(f"no crops of {', '.join(reader_classes(recipe))} to calibrate the int8 reader on")
    return np.stack(crops)


def softmax_nodes(graph: Any) -> list[str]:
    """A reader's softmax, left in float by `models.training.runs.quantize`: probabilities in steps of 1/255 would lose the small shares
    the second looks multiply."""
    return [node.name for node in graph.node if node.op_type == "Softmax"]


def export(checkpoint: Path, recipe: dict[str, Any], onnx_out: Path, compact_out: Path | None, note: str,
           calibration: np.ndarray | None = None) -> None:
    """The reader as ONNX (dynamic batch, softmax output, our metadata), int8 when given ``calibration``
    crops (`models.training.runs.quantize`, its softmax in float), and, if asked, fp16 weights."""
    import torch

    model = build_model(recipe)
    history = trained(checkpoint, model)
    meta = {"classes": json.dumps(reader_classes(recipe)), "version": recipe["version"], "recipe": note,
            "history": json.dumps(history)}
    write_onnx(torch.nn.Sequential(model, torch.nn.Softmax(dim=1)), recipe["size"], ("crops", "faces"), meta,
               onnx_out, calibration, softmax_nodes)
    save_compact(model, compact_out)


def main(argv: list[str] | None = None) -> int:
    return command_line(argv, "models.training.faces", __doc__, RECIPE, train,
                        lambda checkpoint, recipe, onnx_out, compact_out, note: export(
                            checkpoint, recipe, onnx_out, compact_out, note, calibration_crops(recipe)))


if __name__ == "__main__":
    raise SystemExit(main())
