"""`mcr detect`: find and read every tile in photos with the shipped ONNX detector.

``--json`` prints one JSON line per image (the public contract, see README "Detector"):
``{"image": path, "width": W, "height": H, "tiles": [{"code", "confidence", "box": [x1, y1, x2, y2]}]}``.
A file that cannot be read gets ``{"image": path, "error": "..."}`` and the run goes on; the exit status
is 1 if any file failed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any

from vision.detector_options import add_model_arguments, detector_from


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("detect", help="find the tiles in photos", description=__doc__,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photo files (JPEG, PNG, ...)")
    parser.add_argument("--json", action="store_true", help="one JSON line per image")
    add_model_arguments(parser)
    parser.add_argument("--conf", type=float, default=0.25, help="confidence threshold (default 0.25)")
    parser.set_defaults(run=run)


def summary(result: dict[str, Any]) -> str:
    """A readable line: image size, tile count and the faces left to right."""
    tiles = sorted(result["tiles"], key=lambda t: t["box"][0])
    counts = Counter(t["code"] for t in tiles)
    faces = " ".join(t["code"] for t in tiles) or "(none)"
    return (f"{result['image']}: {result['width']}x{result['height']}, {len(tiles)} tiles "
            f"({len(counts)} faces), left to right: {faces}")


def run(args: argparse.Namespace) -> int:
    from vision.imagefile import load_image
    from vision.views import photo_reader

    detector = detector_from(args, args.conf)
    read = photo_reader(detector, args.all_sides)
    failed = 0
    for name in args.images:
        try:
            image = load_image(name)
        except (OSError, ValueError) as exc:
            failed += 1
            if args.json:
                print(json.dumps({"image": name, "error": str(exc)}), flush=True)
            print(f"mcr detect: error: {exc}", file=sys.stderr)
            continue
        height, width = image.shape[:2]
        result = {"image": name, "width": width, "height": height, "tiles": read(image).to_json()}
        print(json.dumps(result) if args.json else summary(result), flush=True)
    return 1 if failed else 0
