"""Train the tile detector from the recorded recipe (``models/recipe.json``); resumable; then export.

Run in an environment with the ``train`` extra (torch, ultralytics), from the repository root:
``python -m models.train`` (what ``mcr train`` runs). Fully offline apart from one ``pip download`` of the
riichi model we start from. An interrupted run resumes from ``runs/<name>/weights/last.pt``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RECIPE = ROOT / "models" / "recipe.json"
REAL_PHOTOS = ROOT.parent / "shared" / "datasets" / "chinese-mahjong-v4"


def offline_ultralytics(config_dir: Path) -> None:
    """Point Ultralytics at a settings folder of ours, with a local font, so it never reaches the network."""
    font_dir = config_dir / "Ultralytics"
    font_dir.mkdir(parents=True, exist_ok=True)
    font = font_dir / "Arial.ttf"
    if not font.exists():
        candidates = sorted(Path("/usr/share/fonts").rglob("*.ttf"))
        if not candidates:
            raise SystemExit("no TrueType font under /usr/share/fonts for Ultralytics' plots (apt-get install fonts-dejavu-core)")
        shutil.copy(candidates[0], font)
    os.environ["YOLO_CONFIG_DIR"] = str(config_dir)
    os.environ["YOLO_OFFLINE"] = "1"


def initial_weights(recipe: dict[str, Any], work: Path) -> Path:
    """An Ultralytics checkpoint of our 43-class architecture initialised from the riichi model."""
    import torch
    from ultralytics.nn.tasks import DetectionModel

    from models.riichi import fetch_model, transfer_weights
    from scoring.tiles import CLASS_NAMES

    target = work / "init.pt"
    if target.exists():
        return target
    model = DetectionModel(recipe["architecture"], nc=len(CLASS_NAMES), verbose=False)
    copied, total = transfer_weights(model, fetch_model(work / "riichi"))
    print(f"riichi init: {copied}/{total} tensors copied")
    model.names = dict(enumerate(CLASS_NAMES))
    torch.save({"model": model.half(), "train_args": {}, "epoch": -1}, target)
    return target


def thread_callback(threads: int, workers: int):  # noqa: ANN201 - Ultralytics callback
    """Ultralytics picks 1 thread and 0 workers on small machines; 2 threads + 1 worker is ~1.7x faster."""

    def setup(trainer: Any) -> None:
        import torch

        torch.set_num_threads(threads)
        trainer.args.workers = workers

    return setup


def train(recipe: dict[str, Any], data_yaml: Path, work: Path, resume: bool, init: Path | None) -> Path:
    """Train (or resume) and return the run folder; ``init`` is a checkpoint to start from (None: random)."""
    from ultralytics import YOLO

    run_dir = work / "runs" / recipe["name"]
    last = run_dir / "weights" / "last.pt"
    threads = thread_callback(recipe["torch_threads"], recipe["train"]["workers"])
    if resume and last.exists():
        model = YOLO(str(last))
        model.add_callback("on_pretrain_routine_start", threads)
        model.train(resume=True)
        return run_dir
    model = YOLO(str(init) if init else recipe["architecture"])
    model.add_callback("on_pretrain_routine_start", threads)
    model.train(
        data=str(data_yaml),
        project=str(run_dir.parent),
        name=run_dir.name,
        exist_ok=True,
        pretrained=init is not None,
        device="cpu",
        plots=False,
        **recipe["train"],
        **recipe["augmentation"],
    )
    return run_dir


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.train", description=__doc__)
    parser.add_argument("--work", type=Path, default=ROOT / "data", help="folder for datasets and runs (not in git)")
    parser.add_argument("--real", type=Path, default=REAL_PHOTOS, help="the chinese-mahjong-v4 folder")
    parser.add_argument("--fresh", action="store_true", help="start over instead of resuming last.pt")
    parser.add_argument("--init", type=Path, help="start from this checkpoint (e.g. models/mcr-tiles.pt), not the riichi model")
    parser.add_argument("--prepare-only", action="store_true", help="build the dataset folder and stop")
    args = parser.parse_args(argv)
    recipe = json.loads(RECIPE.read_text())
    offline_ultralytics(args.work / "yolo_config")

    from models.real_data import build
    from models.riichi import fetch_model

    data_yaml = args.work / "real" / "data.yaml"
    if not data_yaml.exists():
        print(build(args.real, args.work / "real", fetch_model(args.work / "riichi")))
    if args.prepare_only:
        return 0
    init = args.init or initial_weights(recipe, args.work)
    run_dir = train(recipe, data_yaml, args.work, resume=not args.fresh, init=init)
    print(f"trained: {run_dir}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
