"""Export trained weights to the shipped ONNX model and a compact checkpoint (training venv only).

``python -m models.export runs/.../last.pt`` writes ``models/mcr-tiles.onnx`` (metadata: ``classes`` as a
JSON list of tile codes in output order, ``imgsz``, ``version``, ``recipe``) and ``models/mcr-tiles.pt``
(EMA weights only, fp16, a few MB: what a later session fine-tunes or resumes from).
"""

from __future__ import annotations

import argparse
import ast
import json
import shutil
import tempfile
from pathlib import Path

from models.train import ROOT, SHIPPED, offline_ultralytics
from scoring.tiles import CLASS_NAMES

MODELS = ROOT / "models"


def compact(weights: Path, target: Path) -> None:
    """A training checkpoint reduced to its EMA weights in fp16, a few MB: what a later stage starts from
    and what `export` exports."""
    from ultralytics.utils.torch_utils import strip_optimizer

    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(weights, target)
    strip_optimizer(str(target))


def export(
    weights: Path, onnx_out: Path, compact_out: Path | None, note: str, recipe_file: Path = SHIPPED, imgsz: int | None = None
) -> None:
    """Write the ONNX model with our metadata and, if asked, the compact fp16 checkpoint.

    The version and, unless ``imgsz`` is given, the input size come from the recipe the weights were
    trained with: a model runs best at the size it learned at."""
    import onnx
    from ultralytics import YOLO

    recipe = json.loads(recipe_file.read_text())
    imgsz = imgsz or recipe["train"]["imgsz"]
    with tempfile.TemporaryDirectory() as tmp:
        local = Path(tmp) / "weights.pt"
        compact(weights, local)
        exported = Path(YOLO(str(local)).export(format="onnx", imgsz=imgsz, simplify=True, dynamic=True))
        model = onnx.load(str(exported))
        names = list(ast.literal_eval(next(p.value for p in model.metadata_props if p.key == "names")).values())
        if names != list(CLASS_NAMES):
            raise SystemExit(f"{weights}: class names {names} differ from scoring.tiles.CLASS_NAMES")
        extra = {"classes": json.dumps(names), "imgsz": str(imgsz), "version": recipe["version"], "recipe": note}
        for key, value in extra.items():
            entry = next((p for p in model.metadata_props if p.key == key), None) or model.metadata_props.add()
            entry.key, entry.value = key, value
        onnx.save(model, str(onnx_out))
        if compact_out is not None:
            shutil.copy(local, compact_out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.export", description=__doc__)
    parser.add_argument("weights", type=Path, help="an Ultralytics .pt (e.g. data/runs/mcr-tiles/weights/last.pt)")
    parser.add_argument("--onnx", type=Path, default=MODELS / "mcr-tiles.onnx")
    parser.add_argument("--compact", type=Path, default=MODELS / "mcr-tiles.pt")
    parser.add_argument("--no-compact", action="store_true", help="write the ONNX model only")
    parser.add_argument("--recipe", type=Path, default=SHIPPED, help="the recipe the weights were trained with")
    parser.add_argument("--note", default="", help="free text stored as metadata (e.g. the epoch)")
    parser.add_argument("--imgsz", type=int, help="the long side the detector reads at (default: the recipe's; "
                        "the input is free-shaped, so weights trained at 640 may be read at 448)")
    args = parser.parse_args(argv)
    offline_ultralytics(ROOT / "data" / "yolo_config")
    export(args.weights, args.onnx, None if args.no_compact else args.compact, args.note, args.recipe, args.imgsz)
    print(f"wrote {args.onnx}" + ("" if args.no_compact else f" and {args.compact}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
