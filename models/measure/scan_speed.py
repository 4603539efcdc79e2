"""Photo → score speed on a 12-megapixel phone photo, the shipped example enlarged to 4000x3000:
``uv run python -m models.measure.scan_speed --runs 30`` (median of the runs, 2 inference threads; ``--repeat 3``:
each photo's fastest of three scans).

The example's first reading is sure; ``--all-sides`` times it read from its four sides, as a photo whose first
reading is not sure is read; ``--real`` times the held-out real hand photos (from ../shared) made 4000x3000 as the
example is, each read as `scan` decides, the median over photos (``--own-size``: at their own 640 px). The tail (p90, p95, the
slowest photo) is printed too.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from scoring import Situation
from vision.detector import Detector
from vision.imagefile import decode_photo
from vision.scan import SCAN_SIDE, scan_photo

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "hand.jpg"


def twelve_megapixels(photo: np.ndarray | None = None) -> np.ndarray:
    """A 4000x3000 phone photo from ``photo`` (default: the shipped example): scaled to 3000 px high (its
    proportions kept) and widened to 4000 px with its edge pixels (a reflection would copy tiles near the
    edge into a second, mirrored hand)."""
    photo = cv2.imread(str(EXAMPLE)) if photo is None else photo
    width = round(photo.shape[1] * 3000 / photo.shape[0])
    photo = cv2.resize(photo, (width, 3000), interpolation=cv2.INTER_CUBIC)
    return cv2.copyMakeBorder(photo, 0, 0, (4000 - width) // 2, 4000 - width - (4000 - width) // 2, cv2.BORDER_REPLICATE)


def timings(detector: Detector, photos: list[np.ndarray], all_sides: bool = False,
            repeat: int = 1) -> tuple[list[float], ...]:
    """Seconds per photo → score from the JPEG's bytes (wall and CPU, all threads; decoded as `mcr scan`
    decodes it, at half size), and per decode alone, for each photo in turn. CPU time says what the wall
    time would be on idle cores when the machine is busy. ``all_sides``: as `scan`'s ``all_sides``.
    ``repeat``: each photo scanned that many times in a row, its fastest run kept (as `timeit` does): the
    machine's speed drifts by 10-25 % from minute to minute, and a run slowed by it says nothing of the code."""
    jpegs = [cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes() for photo in photos]
    scan_photo(decode_photo(jpegs[0], SCAN_SIDE), detector, Situation(), all_sides=all_sides)  # warm up
    walls, cpus, decodes = [], [], []
    for jpeg in jpegs:
        start = time.perf_counter()
        decode_photo(jpeg, SCAN_SIDE)
        decodes.append(time.perf_counter() - start)
        runs = []
        for _ in range(repeat):
            start, cpu = time.perf_counter(), time.process_time()
            scan_photo(decode_photo(jpeg, SCAN_SIDE), detector, Situation(), all_sides=all_sides)
            runs.append((time.perf_counter() - start, time.process_time() - cpu))
        wall, cpu = min(runs)
        walls.append(wall)
        cpus.append(cpu)
    return walls, cpus, decodes


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m models.measure.scan_speed", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--model", type=Path, help="ONNX model (default: the shipped one)")
    parser.add_argument("--all-sides", action="store_true", help="read from four sides, as an unsure photo is")
    parser.add_argument("--real", action="store_true", help="the held-out real hand photos, made 4000x3000")
    parser.add_argument("--own-size", action="store_true", help="with --real: the photos at their own size (640 px)")
    parser.add_argument("--repeat", type=int, default=1, help="scans of each photo, the fastest kept (default 1)")
    args = parser.parse_args(argv)
    if args.real:
        from models.measure.scan_real import hand_photos

        grow = (lambda photo: photo) if args.own_size else twelve_megapixels
        photos = [grow(cv2.imread(str(p))) for p in hand_photos()]
        what = f"held-out real hand photos at {'their own size' if args.own_size else '4000x3000'}"
    else:
        photos, what = [twelve_megapixels()] * args.runs, "4000x3000"
    walls, cpus, decodes = timings(Detector(args.model, threads=2), photos, args.all_sides, args.repeat)
    ms = lambda values: statistics.median(values) * 1000  # noqa: E731
    fastest = f", the fastest of {args.repeat} per photo" if args.repeat > 1 else ""
    print(f"JPEG photo → score on {what}{', four sides' if args.all_sides else ''}, {len(photos)} runs{fastest}: "
          f"wall median {ms(walls):.0f} ms (min "
          f"{min(walls) * 1000:.0f}), CPU median {ms(cpus):.0f} ms over both threads, of which the JPEG decode "
          f"(half size) {ms(decodes):.0f} ms; wall p90 {_percentile(walls, 0.9) * 1000:.0f}, p95 "
          f"{_percentile(walls, 0.95) * 1000:.0f}, slowest {max(walls) * 1000:.0f} ms; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def _percentile(values: list[float], share: float) -> float:
    """The value under which ``share`` of the values lie (the nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * len(ordered)) - 1)]


if __name__ == "__main__":
    main()
