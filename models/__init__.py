"""The shipped detector (ONNX + model card) and the recipe that trains it."""

import sys
from collections.abc import Callable
from pathlib import Path

# The second-look readers: the faces each reads again (`vision.faces.SECOND_LOOKS`: shipped as
# models/mcr-<name>.onnx) and their recipes (`models.faces`), here so `mcr train` names them without loading
# the trainer's imports (cv2, numpy) at every `mcr` command's start.
SECOND_LOOK_FACES = {"flowers": "flowers and seasons", "characters": "characters 1m-9m"}
SECOND_LOOK_RECIPES = {name: Path(__file__).resolve().parent / f"recipe-{name}.json" for name in SECOND_LOOK_FACES}
# The real photos never trained on (YOLO folder), as `mcr train --prepare-only` builds them: what `mcr eval` and
# the label check read by default.
HELD_OUT = Path(__file__).resolve().parent.parent / "data" / "real" / "images" / "val"


def measured(measure: Callable[[], None]) -> int:
    """A measuring script's exit status: 0, or 2 with its error printed (a missing folder, a bad option), no
    traceback."""
    try:
        measure()
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
