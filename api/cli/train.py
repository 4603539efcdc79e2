"""`mcr train`: reproduce the shipped detector from its recorded recipe (``models/recipe-tiles.json``, its last
stage, which continues the weights of the stage before it, from git history; ``--recipe`` for another stage), or
with ``--faces``
the face reader (``models/recipe-faces.json``, ``python -m models.training.faces``), with ``--flowers``,
``--characters`` (`vision.weights.SECOND_LOOK_FACES`) a second-look reader (``models/recipe-<name>.json``), with
``--boxes`` the box refiner (``models/recipe-boxes.json``, ``python -m models.training.boxes``).

Runs ``python -m models.training.train`` in an interpreter that has the ``train`` extra (torch, ultralytics):
this one if it has them, else ``--python``. Resumes ``data/runs/<name>/weights/last.pt`` unless
``--fresh``; then export with ``python -m models.training.export``. The product never imports torch itself.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from api.cli import CliError, require_workbench
from vision.weights import SECOND_LOOK_FACES


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("train", help="train the tile detector from the recorded recipe",
                                   description=__doc__)
    parser.add_argument("--python", default=sys.executable,
                        help="interpreter with the train extra (default: this one)")
    parser.add_argument("--fresh", action="store_true", help="start over instead of resuming")
    parser.add_argument("--prepare-only", action="store_true", help="only build data/real (the YOLO folder)")
    parser.add_argument("--recipe", type=Path,
                        help="recipe file (default: the shipped model's, models/recipe-tiles.json; with "
                             "--faces models/recipe-faces.json, with --flowers, --characters... "
                             "models/recipe-<name>.json, with --boxes models/recipe-boxes.json)")
    readers = parser.add_mutually_exclusive_group()
    readers.add_argument("--faces", action="store_true",
                         help="train the face reader (models/recipe-faces.json) instead of the detector, then export it")
    for name, faces in SECOND_LOOK_FACES.items():
        readers.add_argument(f"--{name}", action="store_true", help=f"train the second-look reader of the {faces} "
                             f"(models/recipe-{name}.json), then export it")
    readers.add_argument("--boxes", action="store_true",
                         help="train the box refiner (models/recipe-boxes.json) instead of the detector, then export it")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    require_workbench("train", "models")
    from models.training.recipes import (
        BOXES_RECIPE,
        DETECTOR_RECIPE,
        FACES_RECIPE,
        ROOT,
        SECOND_LOOK_RECIPES,
        read_recipe,
    )

    if args.recipe is not None and not args.recipe.is_file():
        raise CliError(f"{args.recipe}: no such recipe file")
    look = next((name for name in SECOND_LOOK_RECIPES if getattr(args, name)), None)
    reader = args.faces or look is not None
    if (reader or args.boxes) and args.prepare_only:
        raise CliError("the readers and the box refiner train from data/real: build it first with --prepare-only alone")
    default = SECOND_LOOK_RECIPES[look] if look else FACES_RECIPE if args.faces else BOXES_RECIPE if args.boxes else DETECTOR_RECIPE
    recipe = args.recipe or default
    read_recipe(recipe, "reader" if reader or args.boxes else "detector")  # a bad recipe refused before anything runs
    probe = subprocess.run([args.python, "-c", "import torch, ultralytics"], capture_output=True)
    if probe.returncode != 0:
        raise CliError(f"{args.python} lacks torch/ultralytics: `uv sync --extra train`, or pass --python")
    module = "models.training.faces" if reader else "models.training.boxes" if args.boxes else "models.training.train"
    command = [args.python, "-m", module, "--recipe", str(recipe.resolve())]
    command += ["--fresh"] if args.fresh else []
    command += ["--prepare-only"] if args.prepare_only else []
    return subprocess.run(command, cwd=ROOT).returncode
