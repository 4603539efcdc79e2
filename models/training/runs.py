"""What the trainers of the small models (the face readers, `models.training.faces`; the box refiner, `models.training.boxes`) share:
an optimiser and schedule from the recipe, a run resumed from its last epoch, the export (ONNX with our metadata,
int8 by `quantize`, compact fp16 weights) and the command line that trains then exports. The detector trains
through Ultralytics instead (`models.training.train`)."""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from models.training.export import set_metadata
from models.training.recipes import MODELS_DIR, ROOT, recipe_or_exit
from vision.onnxmodel import to_blob


@dataclass
class Run:
    """A model's training state, saved to ``last`` after each epoch and resumed from there."""

    model: Any
    optimizer: Any
    schedule: Any
    last: Path
    start: int = 0  # the first epoch still to train
    history: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def begin(cls, model: Any, recipe: dict[str, Any], steps: int, last: Path, fresh: bool) -> Run:
        """AdamW with the recipe's ``lr`` and ``weight_decay`` on a one-cycle schedule over its ``epochs`` of
        ``steps``; the state in ``last`` loaded unless ``fresh``."""
        import torch

        optimizer = torch.optim.AdamW(model.parameters(), lr=recipe["lr"], weight_decay=recipe["weight_decay"])
        schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, recipe["lr"], total_steps=recipe["epochs"] * steps,
                                                       pct_start=0.1)
        run = cls(model, optimizer, schedule, last)
        if last.exists() and not fresh:
            state = torch.load(last, weights_only=False)
            model.load_state_dict(state["model"])
            optimizer.load_state_dict(state["optimizer"])
            schedule.load_state_dict(state["schedule"])
            run.start, run.history = state["epoch"] + 1, state["history"]
        return run

    def step(self, loss: Any) -> None:
        """One optimiser step on ``loss``."""
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.schedule.step()

    def save(self, epoch: int, record: dict[str, Any]) -> None:
        """The epoch's ``record`` added to the history (and printed), and the state saved."""
        import torch

        self.history.append(record)
        print(json.dumps(record), flush=True)
        torch.save({"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(),
                    "schedule": self.schedule.state_dict(), "epoch": epoch, "history": self.history}, self.last)


def trained(checkpoint: Path, model: Any) -> list[dict[str, Any]]:
    """``model`` (built as the run's) with the weights of a run's ``checkpoint``, in eval mode; the run's history."""
    import torch

    state = torch.load(checkpoint, weights_only=False)
    model.load_state_dict(state["model"])
    model.eval()
    return state["history"]


def quantize(fp32: Path, out: Path, images: np.ndarray, in_float: Callable[[Any], list[str]]) -> None:
    """A model in int8 (QDQ: weights per channel in 7 bits, so that CPUs without VNNI, whose 8-bit dot
    products saturate, read alike; activations uint8 over the ranges its input ``images`` give; the nodes
    ``in_float`` names in its graph left in float). For the readers: three times faster on CPUs with VNNI (the
    96-px readers: 64 -> 23 ms for 16 crops on one thread), and they read the same faces as in fp32 (checked on the
    validation crops when each is exported). The box refiner: `models.training.boxes.export`."""
    import onnx
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )

    graph = onnx.load(str(fp32)).graph
    batches = iter([{graph.input[0].name: to_blob(images[i:i + 32])} for i in range(0, len(images), 32)])

    class Batches(CalibrationDataReader):
        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(batches, None)

    quantize_static(str(fp32), str(out), Batches(), quant_format=QuantFormat.QDQ, per_channel=True,
                    activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, nodes_to_exclude=in_float(graph),
                    reduce_range=True)


def write_onnx(net: Any, size: int, names: tuple[str, str], meta: dict[str, str], out: Path,
               images: np.ndarray | None, in_float: Callable[[Any], list[str]]) -> None:
    """``net`` as ONNX at ``out``: a batch (of any length) of ``size``² views in, named ``names[0]``, its output
    named ``names[1]``; metadata ``meta`` and ``quantized``; int8 when given calibration ``images`` (`quantize`,
    ``in_float`` naming the nodes left in float), the metadata travelling with the graph into the quantized model."""
    import onnx
    import torch

    with tempfile.TemporaryDirectory() as tmp:
        fp32 = Path(tmp) / "fp32.onnx"
        torch.onnx.export(net, torch.zeros(1, 3, size, size), str(fp32), input_names=[names[0]],
                          output_names=[names[1]], dynamic_axes={names[0]: {0: "n"}, names[1]: {0: "n"}},
                          opset_version=17, dynamo=False)
        exported = onnx.load(str(fp32))
        quantized = "no" if images is None else f"int8, calibrated on {len(images)} {names[0]}"
        set_metadata(exported, {**meta, "quantized": quantized})
        onnx.save(exported, str(fp32 if images is not None else out))
        if images is not None:
            quantize(fp32, out, images, in_float)


def save_compact(model: Any, out: Path | None) -> None:
    """The model's weights in fp16, to continue from (none when ``out`` is None)."""
    import torch

    if out is not None:
        torch.save({k: v.half() for k, v in model.state_dict().items()}, out)


def missing_data(recipe: dict[str, Any]) -> None:
    """Stops with the folders the recipe trains or validates on that are not built yet, and how to build them."""
    missing = [f for f in recipe["data"]["train"] + recipe["data"]["val"] if not (ROOT / f).is_dir()]
    if missing:
        how = recipe["data"].get("note", "see the recipe")
        raise SystemExit(f"missing data folder(s) {', '.join(missing)}: build them first ({how})")


def command_line(argv: list[str] | None, module: str, doc: str | None, recipe: Path,
                 train: Callable[[dict[str, Any], Path, bool], Path],
                 export: Callable[[Path, dict[str, Any], Path, Path, str], None]) -> int:
    """``python -m <module>``: train (or resume) from ``recipe`` or the one given, then ``export`` the last
    checkpoint to ``models/<the recipe's model>.onnx`` and ``.pt``."""
    name = module.rsplit(".", 1)[-1]
    parser = argparse.ArgumentParser(prog=f"python -m {module}", description=doc)
    parser.add_argument("--recipe", type=Path, default=recipe, help=f"recipe file (default {recipe.relative_to(ROOT)})")
    parser.add_argument("--work", type=Path, default=ROOT / "data" / name, help="folder for runs (not in git)")
    parser.add_argument("--fresh", action="store_true", help="start over instead of resuming last.pt")
    parser.add_argument("--export", action="store_true", help="only export the last checkpoint")
    parser.add_argument("--onnx", type=Path, help="default models/<the recipe's model>.onnx")
    parser.add_argument("--compact", type=Path, help="default models/<the recipe's model>.pt")
    parser.add_argument("--note", default="", help="free text stored as metadata (e.g. the epoch)")
    args = parser.parse_args(argv)
    plan = recipe_or_exit(args.recipe, "reader")
    onnx_out = args.onnx or MODELS_DIR / f"{plan['model']}.onnx"
    compact_out = args.compact or MODELS_DIR / f"{plan['model']}.pt"
    checkpoint = args.work / plan["name"] / "last.pt"
    if not args.export:
        checkpoint = train(plan, args.work, args.fresh)
    if not checkpoint.exists():
        raise SystemExit(f"{checkpoint}: no checkpoint to export; train first")
    export(checkpoint, plan, onnx_out, compact_out, args.note)
    print(f"wrote {onnx_out} and {compact_out}")
    return 0
