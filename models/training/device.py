"""A detector training run on a lent GPU machine (the `device` tool), prepared here, run there in one call.

That machine is bare and offline: Python with torch, torchvision, OpenCV and numpy, but no Ultralytics, no
tile art (our styles come from Debian packages) and no ../shared; and what travels is the working tree plus
carried folders, 64 MiB in all, most of it the repository (its models). So:

- ``python -m models.training.device pack`` (here, after ``mcr train --prepare-only``) writes ``carry/`` (ignored by
  git): Ultralytics' wheels, the training styles' rendered faces and one copy of each real training photo
  (the held-out ones are not in ``data/real/images/train``), as WebP (a third smaller than JPEG at a like
  quality: 27 KB a 640-px photo at 75), re-encoded to fit what the working tree leaves (`carry_budget`);
- ``python -m models.training.device run --out $OUT`` (there) unpacks them, renders the recipe's synthetic scenes on
  the machine's cores, trains the recipe (``models/recipe-tiles-gpu.json``: the shipped detector continued at 640 px) on the
  GPU and leaves the compact checkpoint ``last.pt``, ``results.csv`` and ``args.yaml`` in ``--out``;
- back here, ``python -m models.training.export <files_at>/last.pt --recipe models/recipe-tiles-gpu.json`` and
  ``mcr eval`` as for any stage (model card, "Training on a lent GPU").

``run --smoke`` does the same on the CPU with a few photos, scenes and batches: the check this module
gets on a machine without a GPU (the training-smoke environment of ``.ci/run``).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2

from datasets.real_photos import source_name
from models.training.export import compact
from models.training.recipes import GPU_RECIPE, ROOT, start_weights
from models.training.train import data_yaml_for, offline_ultralytics, train

CARRY = ROOT / "carry"
TRAVELS = 64 * 2**20  # bytes the working tree and the carried folders may take together
MARGIN = 1_000_000  # bytes left free under that: the tree may grow a little before the call
CARRY_NEEDS = 18_000_000  # bytes of the carried folder with every real training source at WebP 80 (17.7 MB)
WHEELS = ("ultralytics==8.4.190", "ultralytics-thop==2.2.3")  # what the train extra was tested with here
QUALITIES = (90, 80, 75, 70, 60, 50)  # WebP qualities tried for the real photos, best first, until they fit
FACE_QUALITY = 85  # WebP quality of the carried faces: the training styles' faces in a few MB, their strokes kept
VAL_PHOTOS = 40  # carried photos Ultralytics' last-epoch validation reads there (the held-out are read here)
RESERVE = 45.0  # seconds a run keeps after training for Ultralytics' last validation, its saving and the compaction
ABSENT_THERE = ("polars", "ultralytics_platform", "fastapi", "pydantic", "starlette", "uvicorn", "onnxslim")
# ^ in the train venv but not on the lent machine (KINDS.md's list): `run --smoke` hides them, as it is there


def one_per_source(images: list[Path]) -> list[Path]:
    """The first copy (by name) of each source photo: Roboflow's augmented copies of a photo differ by
    little that Ultralytics' own augmentation does not also do, and the budget holds a third of them."""
    chosen: dict[str, Path] = {}
    for image in sorted(images):
        chosen.setdefault(source_name(image), image)
    return list(chosen.values())


def pack_photos(images: list[Path], labels: Path, out: Path, budget: int) -> tuple[int, int]:
    """The photos re-encoded into ``out/images`` (labels into ``out/labels``) at the best of `QUALITIES`
    whose total, labels included, fits ``budget`` bytes; at the lowest, as many photos as fit. Returns
    (photos, quality)."""
    label_bytes = [(labels / f"{p.stem}.txt").stat().st_size for p in images]
    for quality in QUALITIES:
        encoded = [cv2.imencode(".webp", cv2.imread(str(p)), [cv2.IMWRITE_WEBP_QUALITY, quality])[1] for p in images]
        if sum(e.nbytes for e in encoded) + sum(label_bytes) <= budget or quality == QUALITIES[-1]:
            break
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    used = kept = 0
    for image, data, label in zip(images, encoded, label_bytes):
        used += data.nbytes + label
        if used > budget:
            break
        (out / "images" / f"{image.stem}.webp").write_bytes(data.tobytes())
        shutil.copy(labels / f"{image.stem}.txt", out / "labels" / f"{image.stem}.txt")
        kept += 1
    return kept, quality


def pack_faces(out: Path) -> int:
    """Every training style's faces (the held-out styles stay here) as WebP, in a folder named for the style."""
    from datasets import faces

    size = 0
    for style in (s for s in faces.group("train") if s.installed):
        (out / style.name).mkdir(parents=True, exist_ok=True)
        for code, image in style.faces().items():
            data = cv2.imencode(".webp", image, [cv2.IMWRITE_WEBP_QUALITY, FACE_QUALITY])[1]
            (out / style.name / f"{code}.webp").write_bytes(data.tobytes())
            size += data.nbytes
    return size


def carry_budget() -> int:
    """Bytes left for the carried folder: what travels anyway is every file git tracks or would add
    (tracked, and untracked but not ignored)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            check=True, capture_output=True).stdout.decode().split("\0")
    tree = sum((ROOT / name).stat().st_size for name in listed if name and (ROOT / name).is_file())
    return TRAVELS - tree - MARGIN


def pack(out: Path, real: Path, budget: int | None = None) -> dict[str, Any]:
    """Write the carried folder (see the module's docstring) within ``budget`` bytes (default: what the
    working tree leaves, `carry_budget`); a clear error when data/real is missing."""
    budget = carry_budget() if budget is None else budget
    train_images = real / "images" / "train"
    if not train_images.is_dir():
        raise SystemExit(f"{train_images} missing: build it first with `uv run mcr train --prepare-only`")
    if out.exists():
        shutil.rmtree(out)
    wheels = out / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                    "-d", str(wheels), *WHEELS], check=True)
    wheel_bytes = sum(p.stat().st_size for p in wheels.iterdir())
    face_bytes = pack_faces(out / "faces")
    photos = one_per_source(list(train_images.glob("*.jpg")))
    kept, quality = pack_photos(photos, real / "labels" / "train", out / "real", budget - wheel_bytes - face_bytes)
    summary = {"wheels": WHEELS, "wheel_bytes": wheel_bytes, "face_bytes": face_bytes, "photos": kept,
               "sources": len(photos), "webp_quality": quality, "budget": budget,
               "bytes": sum(p.stat().st_size for p in out.rglob("*") if p.is_file())}
    (out / "manifest.json").write_text(json.dumps(summary, indent=1))
    return summary


def unpack_faces(carried: Path) -> tuple[str, ...]:
    """The carried faces into the face cache, each style's as if rendered here (`FaceSource.store`);
    returns the styles' names."""
    from datasets.faces import BY_NAME

    styles = tuple(sorted(p.name for p in carried.iterdir() if p.is_dir()))
    for name in styles:
        BY_NAME[name].store({p.stem: cv2.imread(str(p)) for p in (carried / name).glob("*.webp")})
    return styles


def real_dataset(carried: Path, work: Path) -> Path:
    """``work/real`` as `models.training.train` expects it, from the carried photos: all of them to train on,
    the first `VAL_PHOTOS` also as the validation Ultralytics runs after its last epoch."""
    from vision.labels.yolo import names_yaml

    real = work / "real"
    for split, count in (("train", None), ("val", VAL_PHOTOS)):
        for kind in ("images", "labels"):
            target = real / kind / split
            target.mkdir(parents=True, exist_ok=True)
            for path in sorted((carried / kind).iterdir())[:count]:
                shutil.copy(path, target / path.name)
    (real / "data.yaml").write_text(f"path: {real.resolve()}\ntrain: images/train\nval: images/val\n{names_yaml()}")
    return real


def scenes(synthetic: dict[str, Any], styles: tuple[str, ...]) -> None:
    """The recipe's synthetic scenes in ``styles``, rendered on every core (the command it records, run
    in-process)."""
    from datasets.generate import Job, generate

    job = Job(ROOT / synthetic["folder"], synthetic["seed"], styles)
    tiles = generate(job, synthetic["images"], workers=os.cpu_count() or 1)
    print(f"{synthetic['images']} scenes, {tiles} tiles labelled, in {len(styles)} styles -> {job.out}", flush=True)


def results_csv(trainer: Any) -> dict[str, list[float]]:
    """Ultralytics' `BaseTrainer.read_results_csv` (the epochs so far, put in every checkpoint it saves)
    without polars, which the lent machine lacks; like it, {} for a file it cannot read rather than a run
    stopped at a checkpoint."""
    try:
        with open(trainer.csv, newline="") as f:
            header, *rows = csv.reader(f, skipinitialspace=True)
        return {key.strip(): [float(row[i]) for row in rows] for i, key in enumerate(header)} if rows else {}
    except (OSError, ValueError, IndexError):  # no file, no header, a field missing or not a number
        return {}


def deadline_callback(deadline: float):  # noqa: ANN201 - Ultralytics callback
    """Ultralytics' ``time`` (hours of training) set as training starts, so that the run ends by ``deadline``
    (a `time.time()`) with `RESERVE` to spare, however long rendering and caching took; a minute at least."""

    def start(trainer: Any) -> None:
        trainer.args.time = max(60.0, deadline - time.time() - RESERVE) / 3600
        print(f"training for {trainer.args.time * 60:.1f} min, to end by the deadline", flush=True)

    return start


@contextmanager
def hidden(names: tuple[str, ...]) -> Iterator[None]:
    """Within it, importing any of ``names`` fails as where they are not installed; restored after."""
    before = {name: sys.modules.get(name) for name in names}
    sys.modules.update(dict.fromkeys(names))
    try:
        yield
    finally:
        for name, module in before.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


def run(carried: Path, out: Path, recipe_path: Path, smoke: bool = False, work: Path = ROOT / "data" / "device",
        seconds: float | None = None) -> Path:
    """On the lent machine: unpack, render, train, and leave what comes back in ``out``; returns the
    compact checkpoint. ``seconds``: the whole run's length, training cut to fit (default: the recipe's
    ``time``). ``smoke``: the whole path on a CPU in a minute (few scenes, small images, one epoch), with
    the packages the lent machine lacks hidden."""
    deadline = time.time() + seconds if seconds else None
    recipe = json.loads(recipe_path.read_text())
    os.environ["MCR_LENS_CACHE"] = str(work / "cache")  # the carried faces only, never a local cache's
    if smoke:
        recipe["data"]["synthetic"].update(folder=str(work / "synth-smoke"), images=8)
        recipe.update(device="cpu", torch_threads=2)
        recipe["train"].update(imgsz=128, epochs=1, batch=4, workers=0, time=None, cache=False)
    with hidden(ABSENT_THERE if smoke else ()):
        offline_ultralytics(work / "yolo_config")
        from ultralytics.engine import trainer

        trainer.check_amp = lambda model: True  # its check downloads a model to compare with; offline, trust AMP
        trainer.BaseTrainer.read_results_csv = results_csv
        scenes(recipe["data"]["synthetic"], unpack_faces(carried / "faces"))
        real_dataset(carried / "real", work)
        more = {"on_train_start": deadline_callback(deadline)} if deadline else None
        run_dir = train(recipe, data_yaml_for(recipe, work), work, resume=False, init=start_weights(recipe, work), more=more)
        compact(run_dir / "weights" / "last.pt", out / "last.pt")
        for name in ("results.csv", "args.yaml"):
            if (run_dir / name).exists():
                shutil.copy(run_dir / name, out / name)
    return out / "last.pt"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.training.device", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    packing = sub.add_parser("pack", help="write carry/ here")
    packing.add_argument("--out", type=Path, default=CARRY)
    packing.add_argument("--real", type=Path, default=ROOT / "data" / "real", help="`mcr train --prepare-only`'s folder")
    running = sub.add_parser("run", help="train on the lent machine")
    running.add_argument("--carry", type=Path, default=CARRY)
    running.add_argument("--out", type=Path, required=True, help="where the checkpoint and results go ($OUT)")
    running.add_argument("--recipe", type=Path, default=GPU_RECIPE)
    running.add_argument("--smoke", action="store_true", help="a minute on the CPU: checks the path, trains nothing")
    running.add_argument("--seconds", type=float, help="end the whole run within this many seconds (training cut to fit)")
    args = parser.parse_args(argv)
    if args.command == "pack":
        print(json.dumps(pack(args.out, args.real)))
    else:
        run(args.carry, args.out, args.recipe, args.smoke, seconds=args.seconds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
