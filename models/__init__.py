"""The shipped detector (ONNX + model card) and the recipe that trains it."""

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from vision.weights import SECOND_LOOK_FACES

# The readers' recipes: the face reader's and the box refiner's (`models.faces`, `models.boxes`), and the
# second-look readers' with the faces each reads again (`vision.faces.SECOND_LOOKS`: shipped as
# models/mcr-<name>.onnx), here so `mcr train` names them without loading the trainers' imports (cv2, numpy).
MODELS_DIR = Path(__file__).resolve().parent
FACES_RECIPE = MODELS_DIR / "recipe-faces.json"
BOXES_RECIPE = MODELS_DIR / "recipe-boxes.json"
SECOND_LOOK_RECIPES = {name: MODELS_DIR / f"recipe-{name}.json" for name in SECOND_LOOK_FACES}


def measured(measure: Callable[[], None]) -> int:
    """A measuring script's exit status: 0, or 2 with its error printed (a missing folder, a bad option), no
    traceback."""
    try:
        measure()
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


RECIPE_KEYS = ("name", "version", "data", "augmentation", "torch_threads")  # what every recipe holds
RECIPE_DATA_KEYS = {"detector": ("real",), "reader": ("train", "val")}  # what each kind's "data" holds


def read_recipe(path: Path, kind: str) -> dict[str, Any]:
    """A training recipe (``models/recipe*.json``) of a ``kind`` (`RECIPE_DATA_KEYS`: the detector's, or a
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
        raise ValueError(f"{path}: not a {kind} recipe: it lacks {', '.join(missing)} (see models/recipe*.json)")
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
