"""End to end on rendered hand photos in the tile styles held out of training (`gnome-smooth`,
`font-lxgw`): pixels → shipped detector → layout → hand, against the generator's ground truth.
Skipped without the model or the styles. The figure: ``uv run python -m tests.vision.test_scan_synth --n 200``.
"""

from __future__ import annotations

import argparse
from collections import Counter

import pytest

from api.cli.detector_options import add_model_arguments, detector_from
from datasets import faces
from datasets.scenes import Renderer
from scoring import Hand, Situation
from tests.vision.test_scan_real import points
from vision.detector import Detector, default_model_path
from vision.scan import scan

SEED = 11


def measure(detector: Detector, n: int, size: int = 1600, all_sides: bool = False) -> Counter[str]:
    """Exact hands over ``n`` rendered hand scenes (those with every tile's face visible)."""
    renderer = Renderer(faces.HELD_OUT, ("hand",), size=size)
    tally: Counter[str] = Counter()
    for index in range(n):
        scene = renderer.scene(SEED, index)
        assert scene.ground_truth is not None
        truth = Hand.from_json(scene.ground_truth["hand"])
        all_down = any(g.get("concealed") and all(t["face_down"] for t in scene.ground_truth["tiles"]
                                                   if t["group"] == k)
                       for k, g in enumerate(scene.ground_truth["groups"]))
        tally["scenes"] += 1
        if all_down:
            continue
        tally["readable"] += 1
        result = scan(scene.image, detector, Situation(), all_sides=all_sides)
        assert result.hand is not None or any(d.kind == "impossible" for d in result.doubts)
        tally["exact"] += result.hand == truth
        tally["scored_alike"] += result.hand is not None and points(result.hand) == points(truth)
    return tally


def test_rendered_hands_in_held_out_styles_give_a_hand_or_a_doubt() -> None:
    """Every photo gives a result (a hand, or doubts saying why not); the exact-hand figure is the
    detector's, printed by ``main``."""
    if not set(faces.HELD_OUT) <= {s.name for s in faces.installed()}:
        pytest.skip("the held-out tile styles are not installed (see .ci/run)")
    try:
        detector = Detector(default_model_path())
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    tally = measure(detector, 6, size=1200)
    assert tally["scenes"] == 6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=200)
    add_model_arguments(parser, views=False)  # the models as `mcr scan` takes them
    args = parser.parse_args()
    t = measure(detector_from(args, conf=0.25), args.n, all_sides=args.all_sides)
    print(f"{t['scenes']} rendered hand scenes in held-out styles, {t['readable']} with every face shown: "
          f"exact hand on {t['exact']} ({t['exact'] / max(t['readable'], 1):.1%}), scored alike (fans and points) "
          f"on {t['scored_alike']} ({t['scored_alike'] / max(t['readable'], 1):.1%})")


if __name__ == "__main__":
    main()
