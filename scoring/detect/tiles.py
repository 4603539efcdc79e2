"""Fans decided by the tiles alone, whatever the reading: colours, suits, ranks, terminals, Tile Hog.

Each family gives its largest pattern only (a one-suit hand is a flush, never also One Voided Suit).
"""

from __future__ import annotations

from scoring.decompose import FACES, HONOR_START
from scoring.detect.view import Found, HandFacts, add, is_terminal_or_honor, rank, suit, tiles_label
from scoring.tiles import tile

_GREEN = frozenset(tile(c).index for c in ("2s", "3s", "4s", "6s", "8s", "F"))
_REVERSIBLE = frozenset(
    tile(c).index for c in ("1p", "2p", "3p", "4p", "5p", "8p", "9p", "2s", "4s", "5s", "6s", "8s", "9s", "P")
)
_RANK_BANDS = (  # (fan, allowed ranks 0-8)
    (25, frozenset(range(6, 9))),  # Upper Tiles 7-9
    (26, frozenset(range(3, 6))),  # Middle Tiles 4-6
    (27, frozenset(range(0, 3))),  # Lower Tiles 1-3
    (36, frozenset(range(5, 9))),  # Upper Four 6-9
    (37, frozenset(range(0, 4))),  # Lower Four 1-4
)


def tile_fans(facts: HandFacts, found: Found) -> None:
    """Add every fan that depends only on which tiles the hand holds."""
    present = [t for t in range(FACES) if facts.counts[t]]
    suits = {suit(t) for t in present if t < HONOR_START}
    honors = [t for t in present if t >= HONOR_START]
    if set(present) <= _GREEN:
        add(found, 3, tiles_label(present))
    if set(present) <= _REVERSIBLE:
        add(found, 40, tiles_label(present))
    if all(is_terminal_or_honor(t) for t in present):
        fan = 11 if not suits else 8 if not honors else 18
        add(found, fan, tiles_label(present))
    _suit_fans(suits, bool(honors), found)
    if not honors:
        ranks = {rank(t) for t in present}
        for fan, band in _RANK_BANDS:
            if ranks <= band:
                add(found, fan, tiles_label(present))
                break
        if 0 not in ranks and 8 not in ranks:
            add(found, 68, tiles_label(present))
    if len(suits) == 3 and {t < HONOR_START + 4 for t in honors} == {True, False}:
        add(found, 51, "characters, dots, bamboo, a wind and a dragon")
    for t in present:
        if facts.counts[t] == 4 and t not in facts.kong_tiles:
            add(found, 64, tiles_label([t] * 4))


def _suit_fans(suits: set[int], honors: bool, found: Found) -> None:
    if len(suits) == 1:
        add(found, 49 if honors else 22, "one suit" + (" and honours" if honors else ""))
    elif len(suits) == 2:
        add(found, 75, "a suit missing")
    if not honors:
        add(found, 76, "no honour tiles")
