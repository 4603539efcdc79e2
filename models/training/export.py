"""Export trained weights to the shipped ONNX model and a compact checkpoint (training venv only).

``python -m models.training.export runs/.../last.pt`` writes ``models/mcr-tiles.onnx`` (metadata: ``classes`` as a
JSON list of tile codes in output order, ``imgsz``, ``version``, ``recipe``, and the head's ``box_bins`` and
``strides``: `split_head`) and ``models/mcr-tiles.pt`` (EMA weights only, fp16, a few MB: what a later stage
fine-tunes or resumes from). ``python -m models.training.export --split MODEL.onnx`` splits the head of a model
exported before (the same weights, rewritten in place).
"""

from __future__ import annotations

import argparse
import ast
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from models.training.recipes import DETECTOR_RECIPE, MODELS_DIR, ROOT
from models.training.train import offline_ultralytics
from scoring.tiles import CLASS_NAMES


def compact(weights: Path, target: Path) -> None:
    """A training checkpoint reduced to its EMA weights in fp16, a few MB: what a later stage starts from
    and what `export` exports."""
    from ultralytics.utils.torch_utils import strip_optimizer

    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(weights, target)
    strip_optimizer(str(target))


def split_head(model: Any) -> None:
    """An Ultralytics detector's ONNX graph (``onnx.ModelProto``, changed in place) made to output its box
    distributions and class scores, ``(1, 4·bins + classes, anchors)``, without the graph's box decoding
    (the DFL softmax over every anchor and the anchor arithmetic, 13 % of a pass on 2 cores), which
    `vision.locate.BoxBins` does for the candidates only; metadata ``box_bins`` and ``strides`` say how.
    The result is run once on a blank input: its anchors must be those of the strides written."""
    import onnx

    meta = {p.key: p.value for p in model.metadata_props}
    if "box_bins" in meta:
        raise SystemExit("this model's head is split already (its metadata has box_bins)")
    if meta.get("task", "detect") != "detect" or len(model.graph.output) != 1 or "stride" not in meta:
        raise SystemExit("not an Ultralytics detector export (task detect, one output, metadata stride)")
    graph = model.graph
    producer = {name: node for node in graph.node for name in node.output}
    dfl = next((n for n in graph.node if n.op_type == "Reshape" and n.name.endswith("/dfl/Reshape")), None)
    if dfl is None or producer[dfl.input[0]].op_type != "Concat":
        raise SystemExit("not an Ultralytics detection head whose levels' box distributions are concatenated "
                         "(no .../dfl/Reshape of a Concat)")
    head = dfl.name.removesuffix("/dfl/Reshape")
    sigmoid = next((n for n in graph.node if n.op_type == "Sigmoid" and n.name == f"{head}/Sigmoid"), None)
    weight = next((t for t in graph.initializer if t.name.endswith("dfl.conv.weight")), None)
    if sigmoid is None or weight is None:
        raise SystemExit(f"no class scores ({head}/Sigmoid) or DFL weights beside {dfl.name}")
    levels = len(producer[dfl.input[0]].input)  # the box rows of each level, concatenated
    strides = [int(meta["stride"]) >> k for k in reversed(range(levels))]
    output = graph.output[0]
    rows = output.type.tensor_type.shape.dim[1]
    rows.dim_value += 4 * (weight.dims[1] - 1)  # 4 box rows become 4 distributions of the bins
    split = onnx.helper.make_node("Concat", [dfl.input[0], sigmoid.output[0]], [output.name], axis=1,
                                  name=f"{head}/split/Concat")
    needed, kept = set(split.input), [split]
    for node in reversed(graph.node):  # what the new output needs, walking back from it
        if needed & set(node.output) and output.name not in node.output:
            kept.append(node)
            needed |= set(node.input)
    del graph.node[:]
    graph.node.extend(reversed(kept))
    for field, keep in ((graph.initializer, needed), (graph.value_info, needed - {output.name})):
        entries = [entry for entry in field if entry.name in keep]
        del field[:]
        field.extend(entries)
    set_metadata(model, {"box_bins": str(weight.dims[1]), "strides": json.dumps(strides)})
    onnx.checker.check_model(model)
    _check_anchors(model, strides, rows.dim_value)


def _check_anchors(model: Any, strides: list[int], rows: int) -> None:
    """The split model run on a blank input (of its own size, or twice the largest stride where free) gives
    ``rows`` rows and the anchors of ``strides``; else the head is not what `split_head` took it for."""
    import numpy as np
    import onnxruntime as ort

    from vision.locate import anchor_points

    height, width = (d.dim_value or 2 * strides[-1] for d in model.graph.input[0].type.tensor_type.shape.dim[2:])
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    got = session.run(None, {session.get_inputs()[0].name: np.zeros((1, 3, height, width), np.float32)})[0].shape
    anchors = len(anchor_points(height, width, tuple(strides))[1])
    if got[1:] != (rows, anchors):
        raise SystemExit(f"the split head gives {got[1:]} (rows, anchors), not {(rows, anchors)} for strides {strides}")


def set_metadata(model: Any, entries: dict[str, str]) -> None:
    """Metadata entries of an ONNX model (``onnx.ModelProto``) set, each added or replaced."""
    for key, value in entries.items():
        entry = next((p for p in model.metadata_props if p.key == key), None) or model.metadata_props.add()
        entry.key, entry.value = key, value


def export(
    weights: Path, onnx_out: Path, compact_out: Path | None, note: str, recipe_file: Path = DETECTOR_RECIPE, imgsz: int | None = None
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
        set_metadata(model, {"classes": json.dumps(names), "imgsz": str(imgsz), "version": recipe["version"],
                              "recipe": note})
        split_head(model)
        onnx.save(model, str(onnx_out))
        if compact_out is not None:
            shutil.copy(local, compact_out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.training.export", description=__doc__)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("weights", type=Path, nargs="?",
                        help="an Ultralytics .pt (e.g. data/runs/mcr-tiles/weights/last.pt)")
    source.add_argument("--split", type=Path, metavar="MODEL", help="only split the head of an exported ONNX model")
    parser.add_argument("--onnx", type=Path, default=MODELS_DIR / "mcr-tiles.onnx")
    parser.add_argument("--compact", type=Path, default=MODELS_DIR / "mcr-tiles.pt")
    parser.add_argument("--no-compact", action="store_true", help="write the ONNX model only")
    parser.add_argument("--recipe", type=Path, default=DETECTOR_RECIPE, help="the recipe the weights were trained with")
    parser.add_argument("--note", default="", help="free text stored as metadata (e.g. the epoch)")
    parser.add_argument("--imgsz", type=int, help="the long side the detector reads at (default: the recipe's; "
                        "the input is free-shaped, so weights trained at 640 may be read at 448)")
    args = parser.parse_args(argv)
    if args.split is not None:
        import onnx

        model = onnx.load(str(args.split))
        split_head(model)
        onnx.save(model, str(args.split))
        print(f"split the head of {args.split}")
        return 0
    offline_ultralytics(ROOT / "data" / "yolo_config")
    export(args.weights, args.onnx, None if args.no_compact else args.compact, args.note, args.recipe, args.imgsz)
    print(f"wrote {args.onnx}" + ("" if args.no_compact else f" and {args.compact}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
