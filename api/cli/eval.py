"""`mcr eval`: measure the ONNX detector on a YOLO-format folder (default: the held-out real photos).

Prints mAP50, mAP50-95, precision and recall (at ``--conf``), per-class AP, the most frequent confusions,
and for hand photos (names starting ``hand_``) the share read exactly (the multiset of faces right) and
the per-tile accuracy, and the share whose hand ``mcr scan`` reads exactly (``--no-scan``: not). The
held-out split is built by ``mcr train --prepare-only`` under ``data/real``.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict
from pathlib import Path

from vision.detector_options import add_model_arguments, detector_from


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("eval", help="measure the detector on labelled photos", description=__doc__)
    parser.add_argument("--data", type=Path, help="YOLO folder (default: the held-out split, data/real/images/val)")
    add_model_arguments(parser)
    parser.add_argument("--conf", type=float, default=0.25, help="operating confidence (default 0.25)")
    parser.add_argument("--no-scan", action="store_true",
                        help="do not read the hand photos' hands as mcr scan does")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from scoring import Situation
    from vision.evaluation import HELD_OUT, Evaluator, read_truth, yolo_pairs
    from vision.imagefile import load_image
    from vision.scan import SCAN_CONF, scan
    from vision.views import photo_reader

    if args.data is None and not HELD_OUT.is_dir():
        raise FileNotFoundError(f"{HELD_OUT}: held-out split not built; run `mcr train --prepare-only` first")
    data = args.data or HELD_OUT
    if not 0.0 < args.conf < 1.0:
        raise ValueError(f"--conf must be between 0 and 1, got {args.conf}")
    pairs = yolo_pairs(data)
    detector = detector_from(args, conf=0.001)
    read = photo_reader(detector, args.all_sides)
    scanner = detector.tuned(conf=SCAN_CONF)  # hand photos read again as ``mcr scan`` does, whatever ``--conf``
    evaluator = Evaluator(conf=args.conf)
    timings, cpu_times = [], []
    for image_path, label_path in pairs:
        image = load_image(image_path)
        start, cpu_start = time.perf_counter(), time.process_time()
        detections = read(image)
        timings.append(time.perf_counter() - start)
        cpu_times.append(time.process_time() - cpu_start)
        truth = read_truth(label_path, image.shape[1], image.shape[0])
        is_hand = image_path.name.startswith("hand_")
        evaluator.add(detections, truth, is_hand=is_hand)
        if is_hand and not args.no_scan:
            evaluator.add_scan(scan(image, scanner, Situation()).hand, truth)
    report = evaluator.report()
    median_ms = 1000 * sorted(timings)[len(timings) // 2]
    median_cpu_ms = 1000 * sorted(cpu_times)[len(cpu_times) // 2]  # all threads: robust to a busy machine
    if args.json:
        timing = {"median_ms": round(median_ms, 1), "median_cpu_ms": round(median_cpu_ms, 1)}
        print(json.dumps({**asdict(report), **timing, "model_version": detector.version}))
        return 0
    print(f"{data}: {report.images} images, {report.instances} tiles, model {detector.version}, "
          f"median {median_ms:.0f} ms/image wall, {median_cpu_ms:.0f} ms CPU")
    print(f"mAP50 {report.map50:.3f}  mAP50-95 {report.map50_95:.3f}  "
          f"precision {report.precision:.3f}  recall {report.recall:.3f}  (conf >= {args.conf})")
    print(f"tiles located, any face: AP50 {report.located_ap50:.3f}  AP50-95 {report.located_ap50_95:.3f}")
    if report.hand_tiles:
        print(f"hand photos read exactly: {report.hands_exact}/{report.hand_photos} "
              f"({report.hands_exact / report.hand_photos:.1%}); per-tile accuracy "
              f"{report.hand_tiles_correct}/{report.hand_tiles} ({report.hand_tiles_correct / report.hand_tiles:.1%})")
    if report.scanned_hands:
        print(f"hands read exactly by mcr scan: {report.scanned_hands_exact}/{report.scanned_hands} "
              f"({report.scanned_hands_exact / report.scanned_hands:.1%}) of the hand photos whose labels "
              "give a valid hand")
    print("per-class AP50 / AP50-95:")
    print("  " + "  ".join(f"{code} {report.ap50[code]:.2f}/{report.ap50_95[code]:.2f}" for code in report.ap50))
    if report.confusions:
        print("top confusions (true -> read: count): "
              + ", ".join(f"{a}->{b}: {n}" for a, b, n in report.confusions))
    return 0
