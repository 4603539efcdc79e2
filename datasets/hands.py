"""Random legal winning hands for layout scenes, in the project's Hand JSON form.

Mostly four sets and a pair (some melded, some kongs), plus some seven pairs and thirteen orphans. Every
hand respects the tile set: no face more than four times, 14 tiles plus one per kong, valid melds. It
does not check the 8-point minimum: the scenes teach reading tiles and layouts, not scoring.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from scoring.tiles import BONUS, COPIES_PER_FACE, PLAYABLE, Kind, tile

ORPHANS: tuple[str, ...] = tuple(t.code for t in PLAYABLE if t.is_terminal_or_honor)
SUITS = (Kind.CHARACTERS, Kind.DOTS, Kind.BAMBOO)


@dataclass(frozen=True)
class Meld:
    """A set shown on the table: claimed (chow, pung, melded or added kong) or a concealed kong."""

    kind: str  # "chow" | "pung" | "kong"
    tiles: tuple[str, ...]
    concealed: bool = False  # a concealed kong
    source: int | None = None  # claimed from 1 left, 2 opposite, 3 right; None for a concealed kong
    claimed: int | None = None  # chow only: index in ``tiles`` of the claimed tile
    added: bool = False  # a kong made by adding a drawn tile to a claimed pung

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "tiles": list(self.tiles), "concealed": self.concealed,
                "from": self.source, "claimed": self.claimed, "added": self.added}


@dataclass(frozen=True)
class Hand:
    """A winning hand. ``concealed`` holds the standing tiles without the winning tile, sorted."""

    concealed: tuple[str, ...]
    melds: tuple[Meld, ...]
    win_tile: str
    flowers: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"concealed": list(self.concealed), "melds": [m.to_json() for m in self.melds],
                "win_tile": self.win_tile, "flowers": list(self.flowers)}

    def all_tiles(self) -> list[str]:
        """Every playable tile of the hand (standing, winning and melded)."""
        return [*self.concealed, self.win_tile, *(t for m in self.melds for t in m.tiles)]


def _order(codes: list[str]) -> tuple[str, ...]:
    return tuple(sorted(codes, key=lambda c: tile(c).index))


def _pick(rng: np.random.Generator, options: list[str]) -> str:
    return options[int(rng.integers(len(options)))]


def _sets(rng: np.random.Generator, used: Counter[str]) -> list[tuple[str, tuple[str, ...]]]:
    """Four sets (kind, tiles) drawn without exceeding four copies of any face."""
    sets: list[tuple[str, tuple[str, ...]]] = []
    while len(sets) < 4:
        roll = rng.random()
        if roll < 0.5:
            suit = SUITS[int(rng.integers(3))]
            start = int(rng.integers(1, 8))
            codes = tuple(f"{start + i}{suit.value}" for i in range(3))
            kind = "chow"
        else:
            kind = "pung" if roll < 0.88 else "kong"
            face = _pick(rng, [t.code for t in PLAYABLE])
            codes = (face,) * (3 if kind == "pung" else 4)
        if all(used[c] + codes.count(c) <= COPIES_PER_FACE for c in set(codes)):
            used.update(codes)
            sets.append((kind, codes))
    return sets


def _meld(rng: np.random.Generator, kind: str, codes: tuple[str, ...], exposed: bool) -> Meld:
    if kind == "kong" and not exposed:
        return Meld("kong", codes, concealed=True)
    if kind == "chow":
        return Meld("chow", codes, source=1, claimed=int(rng.integers(3)))
    source = int(rng.integers(1, 4))
    return Meld(kind, codes, source=source, added=kind == "kong" and rng.random() < 0.3)


def _standard(rng: np.random.Generator) -> tuple[list[str], tuple[Meld, ...]]:
    used: Counter[str] = Counter()
    sets = _sets(rng, used)
    pair = _pick(rng, [t.code for t in PLAYABLE if used[t.code] <= COPIES_PER_FACE - 2])
    n_exposed = int(rng.choice(5, p=[0.35, 0.25, 0.2, 0.12, 0.08]))
    exposed = set(rng.permutation(4)[:n_exposed].tolist())
    standing = [pair, pair]
    melds: list[Meld] = []
    for i, (kind, codes) in enumerate(sets):
        if i in exposed or kind == "kong":
            melds.append(_meld(rng, kind, codes, i in exposed))
        else:
            standing += codes
    return standing, tuple(melds)


def random_hand(rng: np.random.Generator) -> Hand:
    """A random legal winning hand with 0–8 flowers (few flowers are most likely)."""
    roll = rng.random()
    melds: tuple[Meld, ...] = ()
    if roll < 0.08:  # seven pairs
        faces = rng.choice([t.code for t in PLAYABLE], size=7, replace=False).tolist()
        standing = [c for c in faces for _ in range(2)]
    elif roll < 0.12:  # thirteen orphans
        standing = [*ORPHANS, _pick(rng, list(ORPHANS))]
    else:
        standing, melds = _standard(rng)
    win = standing.pop(int(rng.integers(len(standing))))
    n_flowers = int(rng.choice(9, p=[0.4, 0.22, 0.14, 0.09, 0.06, 0.04, 0.02, 0.02, 0.01]))
    flowers = rng.choice([t.code for t in BONUS], size=n_flowers, replace=False).tolist()
    return Hand(_order(standing), melds, win, _order(flowers))
