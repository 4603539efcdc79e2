"""End to end on rendered hand photos in the tile styles held out of training (`gnome-smooth`, `font-lxgw`):
pixels → shipped detector → layout → hand, against the generator's ground truth:
``uv run python -m models.measure.scan_synth --n 200``."""

from __future__ import annotations

import argparse
from collections import Counter

from api.cli.detector_options import add_model_arguments, detector_from
from datasets import faces
from datasets.scenes import Renderer
from models.measure.scan_real import points, unexplained
from scoring import Hand, Situation
from vision.detector import Detector
from vision.scan import scan

SEED = 11


def styles_installed() -> bool:
    """Whether the held-out styles the scenes are drawn in are installed (Debian packages: see .ci/run)."""
    return set(faces.HELD_OUT) <= {s.name for s in faces.installed()}


def measure(detector: Detector, n: int, size: int = 1600, all_sides: bool = False) -> Counter[str]:
    """Over ``n`` rendered hand scenes: ``scenes``, ``readable`` (every tile's face visible), ``exact`` and
    ``scored_alike`` hands, and ``unexplained`` results (no hand and no reason why)."""
    renderer = Renderer(faces.HELD_OUT, ("hand",), size=size)
    tally: Counter[str] = Counter()
    for index in range(n):
        scene = renderer.scene(SEED, index)
        if scene.ground_truth is None:
            raise ValueError(f"scene {SEED}/{index} has no ground truth")
        truth = Hand.from_json(scene.ground_truth["hand"])
        all_down = any(g.get("concealed") and all(t["face_down"] for t in scene.ground_truth["tiles"]
                                                   if t["group"] == k)
                       for k, g in enumerate(scene.ground_truth["groups"]))
        tally["scenes"] += 1
        if all_down:
            continue
        tally["readable"] += 1
        result = scan(scene.image, detector, Situation(), all_sides=all_sides)
        tally["unexplained"] += unexplained(result.hand, result.doubts)
        tally["exact"] += result.hand == truth
        tally["scored_alike"] += result.hand is not None and points(result.hand) == points(truth)
    return tally


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m models.measure.scan_synth", description=__doc__)
    parser.add_argument("--n", type=int, default=200)
    add_model_arguments(parser, views=False)  # the models as `mcr scan` takes them
    args = parser.parse_args(argv)
    if not styles_installed():
        raise SystemExit("the held-out tile styles are not installed (see .ci/run)")
    t = measure(detector_from(args, conf=0.25), args.n, all_sides=args.all_sides)
    print(f"{t['scenes']} rendered hand scenes in held-out styles, {t['readable']} with every face shown: "
          f"exact hand on {t['exact']} ({t['exact'] / max(t['readable'], 1):.1%}), scored alike (fans and points) "
          f"on {t['scored_alike']} ({t['scored_alike'] / max(t['readable'], 1):.1%})")


if __name__ == "__main__":
    main()
