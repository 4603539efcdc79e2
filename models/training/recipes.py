"""The recorded recipes (``models/recipe-*.json``, one per shipped model), read and checked before anything trains,
and the weights a recipe that continues an earlier run starts from.

A recipe's ``init`` names those weights: a path in the repository, or, for weights that have left the tree,
``{"weights": path, "commit": sha}``, the file as that commit holds it (`start_weights` takes it from git history).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from vision.weights import CHECKOUT, REPOSITORY, SECOND_LOOK_FACES

ROOT = REPOSITORY  # the checkout's root: data/ (built data, runs) lies in it, ../shared beside it
MODELS_DIR = CHECKOUT  # where the shipped models, their recipes and what training exports lie
DETECTOR_RECIPE = MODELS_DIR / "recipe-tiles.json"  # the shipped detector's last stage
GPU_RECIPE = MODELS_DIR / "recipe-tiles-gpu.json"  # the shipped detector continued at 640 px on a lent GPU
FACES_RECIPE = MODELS_DIR / "recipe-faces.json"
BOXES_RECIPE = MODELS_DIR / "recipe-boxes.json"
SECOND_LOOK_RECIPES = {name: MODELS_DIR / f"recipe-{name}.json" for name in SECOND_LOOK_FACES}
REAL_PHOTOS = ROOT.parent / "shared" / "datasets" / "chinese-mahjong-v4"  # the labelled real photos (read only)
HOLDOUT_LIST = MODELS_DIR / "holdout.txt"  # the real photos' sources never trained on
# (`datasets.real_photos.is_held_out`)

RECIPE_KEYS = ("name", "version", "data", "augmentation", "torch_threads")  # what every recipe holds
RECIPE_DATA_KEYS = {"detector": ("real",), "reader": ("train", "val")}  # what each kind's "data" holds


def read_recipe(path: Path, kind: str) -> dict[str, Any]:
    """A training recipe (``models/recipe-*.json``) of a ``kind`` (`RECIPE_DATA_KEYS`: the detector's, or a
    reader's or the box refiner's); a ValueError naming the file and what is wrong, before any training starts."""
    try:
        recipe = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    if not isinstance(recipe, dict):
        raise ValueError(f"{path}: a recipe is a JSON object, not {type(recipe).__name__}")
    missing = [key for key in RECIPE_KEYS if key not in recipe]
    data = recipe.get("data")
    if isinstance(data, dict):
        missing += [f"data.{key}" for key in RECIPE_DATA_KEYS[kind] if key not in data]
    elif "data" not in missing:
        missing.append("data (an object)")
    if missing:
        raise ValueError(f"{path}: not a {kind} recipe: it lacks {', '.join(missing)} (see models/recipe-*.json)")
    flips = {key: recipe["augmentation"].get(key) for key in ("fliplr", "flipud")}
    if kind == "detector" and any(value != 0.0 for value in flips.values()):  # Ultralytics flips unless told not to
        raise ValueError(f"{path}: the detector would train on mirrored faces, which are no tile's: set "
                         f"augmentation fliplr and flipud to 0.0 (now {flips})")
    return recipe


def recipe_or_exit(path: Path, kind: str) -> dict[str, Any]:
    """`read_recipe` for a training script's command line: a bad recipe stops it with the reason, no traceback."""
    try:
        return read_recipe(path, kind)
    except (OSError, ValueError) as exc:
        raise SystemExit(f"error: {exc}") from None


def committed_file(path: str, commit: str) -> bytes:
    """A file as a commit of this repository holds it; stops naming it when the history lacks it."""
    shown = subprocess.run(["git", "show", f"{commit}:{path}"], cwd=ROOT, capture_output=True)
    if shown.returncode != 0:
        why = shown.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["git failed"]
        raise SystemExit(f"{path} at commit {commit} is not in this repository's history ({why[0]}); "
                         "a shallow clone lacks it: git fetch --unshallow")
    return shown.stdout


def start_weights(recipe: dict[str, Any], work: Path) -> Path | None:
    """The weights a stage continues (its ``init``: a path, or ``weights`` with a ``commit`` when they have left
    the tree, taken from git history once into ``work/starts``); None for a stage without ``init.weights``,
    which starts afresh (a reader) or from the riichi model (the detector)."""
    init = recipe.get("init")
    init = {"weights": init} if isinstance(init, str) else init or {}
    if init.get("weights") is None:
        return None
    path = ROOT / init["weights"]
    if path.is_file():
        return path
    if "commit" not in init:
        raise SystemExit(f"{path}: the weights recipe {recipe['name']} continues are missing "
                         f"({init.get('from', 'its init names no commit that holds them')})")
    target = work / "starts" / f"{init['commit'][:12]}-{path.name}"
    if not target.is_file():
        data = committed_file(init["weights"], init["commit"])
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".part")
        partial.write_bytes(data)
        os.replace(partial, target)  # whole or absent: a later run never starts from half a file
    return target
