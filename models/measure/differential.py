"""Differential run against PyMahjongGB: ``uv run python -m models.measure.differential --n 100000``.

Scores seeded random winning hands with both calculators and compares them fan for fan (flowers
left out: the reference is given none). Prints the agreement count and the first disagreements.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from collections.abc import Iterator

from models.measure.random_hands import random_hand
from models.measure.reference import reference_fans
from scoring.hand import Hand, Situation
from scoring.notation import format_hand
from scoring.score import score


def ours(hand: Hand, situation: Situation) -> Counter[int]:
    return Counter({f.id: f.count for f in score(hand, situation).fans if f.id != 81})


def disagreements(n: int, seed: int) -> Iterator[tuple[Hand, Situation, Counter[int], Counter[int]]]:
    """Yield every generated hand on which the two calculators differ."""
    rng = random.Random(seed)
    for _ in range(n):
        hand, situation = random_hand(rng)
        mine, theirs = ours(hand, situation), reference_fans(hand, situation)
        if mine != theirs:
            yield hand, situation, mine, theirs


def describe(hand: Hand, situation: Situation, mine: Counter[int], theirs: Counter[int]) -> str:
    flags = [k for k, v in vars(situation).items() if v is True]
    return (f"{format_hand(hand)} seat={situation.seat_wind} round={situation.prevalent_wind} {flags}\n"
            f"  ours only {dict(mine - theirs)}  reference only {dict(theirs - mine)}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m models.measure.differential", description=__doc__)
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--show", type=int, default=20, help="how many disagreements to print")
    args = parser.parse_args(argv)
    found = 0
    for case in disagreements(args.n, args.seed):
        found += 1
        if found <= args.show:
            print(describe(*case))
    print(f"{args.n - found} of {args.n} hands agree fan for fan; {found} differ")


if __name__ == "__main__":
    main()
