"""Speed of the scorer against PyMahjongGB on the same hands: ``uv run python -m models.measure.score_speed``.

Both get the same seeded random winning hands; the reference gets its arguments pre-converted, so
only the scoring itself is timed. Times are CPU seconds of this process, best of three passes (the
team machine is shared and busy), after a warm-up that fills the per-suit caches as a running
service has them, with the warm-up's garbage frozen out of the collector. The slowest hand is the
worst, over all hands, of each hand's best of three timings; the hands with the most readings (Nine
Gates, four chows in one suit, pairs that also read as chows) are timed on their own, cold.
``--requests FILE`` writes the hands as `mcr score --jsonl` requests instead, to time the whole stream.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import time
from pathlib import Path

import MahjongGB

from models.measure.random_hands import random_hand
from models.measure.reference import reference_args
from scoring.hand import Hand, Situation
from scoring.notation import format_hand, parse_hand
from scoring.score import score

HARD_HANDS = (
    "1112345678999m5m",  # Nine Gates: nine waits, many readings
    "1112345678999p1p",
    "1234567891234m1m",  # four chows in one suit, several readings
    "1233456677899s9s",
    "2233445566778s8s",  # seven shifted pairs, also read as chows
    "111222333444m5m5m",
    "[123m1]2223334445s5s",
)


def request_of(hand: Hand, situation: Situation) -> dict[str, object]:
    """A hand and its situation as a `mcr score --jsonl` request (fields at their defaults left out)."""
    fields = {k: v for k, v in situation.to_json().items() if v not in (None, False)}
    flowers = {"flowers": hand.flower_count} if hand.flower_count and not hand.flowers else {}
    return {"hand": format_hand(hand), **fields, **flowers}


def _per_hand(hands: list[tuple[Hand, Situation]]) -> list[float]:
    """CPU seconds of each hand."""
    clock = time.process_time
    took = []
    for hand, situation in hands:
        t0 = clock()
        score(hand, situation)
        took.append(clock() - t0)
    return took


def _best_of_three(run) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m models.measure.score_speed", description=__doc__)
    parser.add_argument("--n", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--requests", type=Path, help="write the --n hands as `mcr score --jsonl` requests to this "
                        "file and stop (to time the stream: `mcr score --jsonl < FILE`)")
    args = parser.parse_args(argv)
    if args.requests:
        rng = random.Random(args.seed)
        with args.requests.open("w") as out:
            for _ in range(args.n):
                out.write(json.dumps(request_of(*random_hand(rng))) + "\n")
        return
    for text in HARD_HANDS:  # first, while the caches are cold
        hand = parse_hand(text)
        cold = _per_hand([(hand, Situation())])[0]
        warm = min(_per_hand([(hand, Situation())] * 20))
        print(f"hard hand {text:24s} cold {cold * 1e3:.2f} ms, warm {warm * 1e3:.2f} ms")
    rng = random.Random(args.seed)
    warm = [random_hand(rng) for _ in range(2_000)]
    hands = [random_hand(rng) for _ in range(args.n)]
    _per_hand(warm)
    gc.freeze()
    ours = _best_of_three(lambda: _per_hand(hands))
    calls = [reference_args(h, s) for h, s in hands]
    theirs = _best_of_three(lambda: [MahjongGB.MahjongFanCalculator(*call) for call in calls])
    per_hand = [min(times) for times in zip(*(_per_hand(hands) for _ in range(3)))]
    slowest = max(range(len(hands)), key=per_hand.__getitem__)
    ordered = sorted(per_hand)
    print(f"ours:      {args.n / ours:9.0f} hands/s ({ours / args.n * 1e6:.0f} us/hand)")
    print(f"reference: {args.n / theirs:9.0f} hands/s ({theirs / args.n * 1e6:.1f} us/hand)")
    print(f"ratio:     the reference is {ours / theirs:.0f}x faster")
    print(f"per hand:  median {ordered[len(ordered) // 2] * 1e6:.0f} us, 99.9th percentile "
          f"{ordered[int(len(ordered) * 0.999)] * 1e6:.0f} us, slowest {per_hand[slowest] * 1e3:.2f} ms "
          f"({format_hand(hands[slowest][0])})")


if __name__ == "__main__":
    main()
