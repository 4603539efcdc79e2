"""End to end on rendered hand photos in the tile styles held out of training (`datasets.faces.HELD_OUT`), each
style on its own: pixels → shipped detector → layout → hand, against the generator's ground truth:
``uv run python -m models.measure.scan_synth --n 200`` (``--styles a,b``: other styles)."""

from __future__ import annotations

import argparse
from collections import Counter

from vision.detector_options import add_model_arguments, detector_from
from datasets import faces
from datasets.scenes import Renderer
from models.measure.scan_real import points, unexplained
from scoring import Hand, Situation
from vision.detector import Detector
from vision.scan import scan

SEED = 11


def styles_installed(styles: tuple[str, ...] = faces.HELD_OUT) -> bool:
    """Whether the styles the scenes are drawn in are installed (Debian packages: see .ci/run; a PyPI one: uv sync)."""
    return set(styles) <= {s.name for s in faces.installed()}


def measure(detector: Detector, n: int, size: int = 1600, all_sides: bool = False,
            styles: tuple[str, ...] = faces.HELD_OUT) -> Counter[str]:
    """Over ``n`` rendered hand scenes in ``styles``: ``scenes``, ``readable`` (every tile's face visible),
    ``exact`` and ``scored_alike`` hands, and ``unexplained`` results (no hand and no reason why)."""
    renderer = Renderer(styles, ("hand",), size=size)
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
    parser.add_argument("--n", type=int, default=200, help="scenes per style")
    parser.add_argument("--styles", default=",".join(faces.HELD_OUT), help="comma-separated styles, each measured apart")
    add_model_arguments(parser, views=False)  # the models as `mcr scan` takes them
    args = parser.parse_args(argv)
    styles = tuple(name.strip() for name in args.styles.split(",") if name.strip())
    if unknown := [name for name in styles if name not in faces.BY_NAME]:
        raise SystemExit(f"unknown style {', '.join(unknown)}; known: {', '.join(faces.BY_NAME)}")
    if not styles_installed(styles):
        raise SystemExit("the tile styles are not all installed (see .ci/run; `mcr synth --styles list`)")
    detector = detector_from(args, conf=0.25)
    for style in styles:
        t = measure(detector, args.n, all_sides=args.all_sides, styles=(style,))
        print(f"{style}: {t['scenes']} rendered hand scenes, {t['readable']} with every face shown: exact hand on "
              f"{t['exact']} ({t['exact'] / max(t['readable'], 1):.1%}), scored alike (fans and points) on "
              f"{t['scored_alike']} ({t['scored_alike'] / max(t['readable'], 1):.1%})", flush=True)


if __name__ == "__main__":
    main()
