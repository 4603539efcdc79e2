"""Speed of the scorer against PyMahjongGB on the same hands: ``uv run python -m tests.scoring.benchmark``.

Both get the same seeded random winning hands; the reference gets its arguments pre-converted, so
only the scoring itself is timed. Also times, one by one, the hands with the most readings (Nine
Gates, four chows in one suit, seven pairs that are also regular) and reports the slowest hand.
"""

from __future__ import annotations

import argparse
import random
import time

import MahjongGB

from scoring.hand import Hand, Situation
from scoring.notation import format_hand, parse_hand
from scoring.score import score
from tests.scoring.random_hands import random_hand
from tests.scoring.reference import reference_args

HARD_HANDS = (
    "1112345678999m5m",  # Nine Gates: nine waits, many readings
    "1112345678999p1p",
    "1234567891234m1m",  # four chows in one suit, several readings
    "1233456677899s9s",
    "2233445566778s8s",  # seven shifted pairs, also read as chows
    "111222333444m5m5m",
    "[123m1]2223334445s5s",
)


def _timed(hands: list[tuple[Hand, Situation]]) -> tuple[float, float, tuple[Hand, Situation]]:
    """Total CPU seconds, and the slowest single hand with its CPU seconds.

    CPU time of this process, not wall time: the team's machine is shared and busy, and being
    descheduled by another job is not the scorer's cost.
    """
    slowest, worst = 0.0, hands[0]
    clock = time.process_time
    start = clock()
    for hand, situation in hands:
        t0 = clock()
        score(hand, situation)
        took = clock() - t0
        if took > slowest:
            slowest, worst = took, (hand, situation)
    return clock() - start, slowest, worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    warm = [random_hand(rng) for _ in range(2_000)]
    hands = [random_hand(rng) for _ in range(args.n)]
    _timed(warm)  # fill the per-suit caches, as a long-running service would have them
    ours, slowest, worst = _timed(hands)
    calls = [reference_args(h, s) for h, s in hands]
    start = time.process_time()
    for call in calls:
        MahjongGB.MahjongFanCalculator(*call)
    theirs = time.process_time() - start
    print(f"ours:      {args.n / ours:9.0f} hands/s ({ours / args.n * 1e6:.0f} us/hand)")
    print(f"reference: {args.n / theirs:9.0f} hands/s ({theirs / args.n * 1e6:.0f} us/hand)")
    print(f"ratio:     reference is {ours / theirs:.1f}x faster")
    print(f"slowest random hand: {slowest * 1e3:.2f} ms  {format_hand(worst[0])}")
    for text in HARD_HANDS:
        hand = parse_hand(text)
        _, took, _ = _timed([(hand, Situation())] * 50)
        print(f"hard hand {text:24s} worst of 50: {took * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
