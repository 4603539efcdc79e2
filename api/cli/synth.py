"""``mcr synth``: render synthetic photos of tiles and hands as a YOLO training folder."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from api.cli import require_workbench

if TYPE_CHECKING:
    import numpy as np


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "synth", help="render synthetic tile photos with YOLO labels and hand layouts",
        description="Render N synthetic scenes (tiles on a table, seen by a phone) into a YOLO folder: "
        "images/, labels/, data.yaml, and layouts/<stem>.json for scenes that show a hand. Tile styles "
        "come from Debian packages; missing ones are listed with the apt-get line that adds them.")
    parser.add_argument("--n", type=int, help="number of scenes")
    parser.add_argument("--out", help="output folder (created)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (same seed, same scenes)")
    parser.add_argument("--styles", default="train",
                        help="comma-separated tile styles, or 'train' (all installed but the held-out ones), "
                        "'held-out', 'all'; 'list' prints them with their licences")
    parser.add_argument("--layouts", default="hand,loose,grid,table,seat,palm", help="comma-separated layouts")
    parser.add_argument("--workers", type=int, default=1, help="processes to render with")
    parser.add_argument("--size", type=int, default=640, help="long side of each photo in pixels")
    parser.add_argument("--restyle", type=float, default=0.0,
                        help="share of scenes (0-1) whose tile faces are redrawn another way: strokes outlined, "
                        "bolder or thinner (a set drawn by another hand)")
    parser.add_argument("--sheet", help="also write a contact sheet of the first 16 scenes to this image file")
    parser.add_argument("--face-sheets", metavar="DIR",
                        help="only write one contact sheet of every face per style into DIR, to check by eye")
    parser.set_defaults(run=run)


def pick_styles(spec: str) -> tuple[str, ...]:
    """Resolve a --styles value to installed style names. A group (all, train, held-out) takes what is
    installed of it; named styles must all be installed. Errors name what is missing and how to add it."""
    from datasets import faces

    if spec in faces.GROUPS:
        wanted = list(faces.group(spec))
    else:
        names = [name.strip() for name in spec.split(",") if name.strip()]
        if unknown := [name for name in names if name not in faces.BY_NAME]:
            raise ValueError(f"unknown style {', '.join(unknown)}; known: {', '.join(faces.BY_NAME)}")
        wanted = [faces.BY_NAME[name] for name in names]
    absent = [s for s in wanted if not s.installed]
    if not wanted or (absent and spec not in faces.GROUPS) or len(absent) == len(wanted):
        debian = [s for s in absent if not s.pypi]
        how = [f"apt-get install {faces.apt_packages(tuple(debian))}"] if debian or not absent else []
        how += [s.install for s in absent if s.pypi]
        raise ValueError(f"tile style not installed: {', '.join(s.name for s in absent) or spec}; {'; '.join(how)}")
    return tuple(s.name for s in wanted if s.installed)


def run(args: argparse.Namespace) -> int:
    require_workbench("synth", "datasets")
    from datasets import faces
    from datasets.contact import scene_sheet
    from datasets.generate import Job, ProgressBar, generate
    from datasets.layouts import LAYOUTS

    if args.styles == "list":
        held_out = {s.name for s in faces.group("held-out")}
        for s in faces.SOURCES:
            state = "installed" if s.installed else f"missing: {s.install}"
            held = ", held out" if s.name in held_out else ""
            print(f"{s.name:18} {state}{held}; licence: {s.licence}")
        return 0
    if args.face_sheets:
        return write_face_sheets(Path(args.face_sheets), pick_styles(args.styles))
    if args.n is None or args.out is None:
        raise ValueError("give --n and --out (or --face-sheets DIR, or --styles list)")
    if args.n < 1 or args.workers < 1 or args.size < 64:
        raise ValueError("--n and --workers must be at least 1 and --size at least 64")
    if not 0.0 <= args.restyle <= 1.0:
        raise ValueError(f"--restyle is a share of scenes, 0 to 1 (got {args.restyle})")
    layouts = tuple(x.strip() for x in args.layouts.split(",") if x.strip())
    if bad := [x for x in layouts if x not in LAYOUTS]:
        raise ValueError(f"unknown layout {', '.join(bad)}; known: {', '.join(LAYOUTS)}")
    if report := faces.missing_report():
        print(report, file=sys.stderr)
    job = Job(Path(args.out), args.seed, pick_styles(args.styles), layouts, args.size, args.restyle)
    start = time.monotonic()
    labels = generate(job, args.n, args.workers, ProgressBar())
    took = time.monotonic() - start
    print(f"{args.n} scenes, {labels} tiles labelled, in {took:.1f} s "
          f"({args.n / took:.1f} scenes/s with {args.workers} worker(s)) -> {job.out}")
    if args.sheet:
        write_image(Path(args.sheet), scene_sheet(sorted((job.out / "images").glob("*.jpg"))[:16]))
    return 0


def write_face_sheets(folder: Path, styles: tuple[str, ...]) -> int:
    from datasets.contact import face_sheet

    for style in styles:
        write_image(folder / f"faces-{style}.png", face_sheet(style))
    print(f"{len(styles)} face sheets -> {folder}")
    return 0


def write_image(path: Path, img: np.ndarray) -> None:
    import cv2

    path.parent.mkdir(parents=True, exist_ok=True)
    params = [cv2.IMWRITE_JPEG_QUALITY, 80] if path.suffix.lower() in (".jpg", ".jpeg") else []
    if not cv2.imwrite(str(path), img, params):
        raise OSError(f"cannot write {path} (use a .png or .jpg name)")
