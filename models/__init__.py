"""The shipped detector (ONNX + model card) and the recipe that trains it."""

from pathlib import Path

# The flowers' second-look reader's recipe (`models.faces`), here so `mcr train` names it without loading
# the trainer's imports (cv2, numpy) at every `mcr` command's start.
FLOWER_RECIPE = Path(__file__).resolve().parent / "recipe-flowers.json"
