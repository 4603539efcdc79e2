"""Fans decided by the tiles alone, whatever the reading: colours, suits, ranks, terminals, Tile Hog.

Each family gives its largest pattern only (a one-suit hand is a flush, never also One Voided Suit).
"""

from __future__ import annotations

from scoring.decompose import FACES, HONOR_START
from scoring.fans import Fan
from scoring.patterns.view import Found, HandFacts, add, is_terminal_or_honor, rank, suit, tiles_label
from scoring.tiles import tile

_GREEN = frozenset(tile(c).index for c in ("2s", "3s", "4s", "6s", "8s", "F"))
_REVERSIBLE = frozenset(
    tile(c).index for c in ("1p", "2p", "3p", "4p", "5p", "8p", "9p", "2s", "4s", "5s", "6s", "8s", "9s", "P")
)
_RANK_BANDS = (  # (fan, allowed ranks 0-8)
    (Fan.UPPER_TILES, frozenset(range(6, 9))),  # ranks 7-9
    (Fan.MIDDLE_TILES, frozenset(range(3, 6))),  # ranks 4-6
    (Fan.LOWER_TILES, frozenset(range(0, 3))),  # ranks 1-3
    (Fan.UPPER_FOUR, frozenset(range(5, 9))),  # ranks 6-9
    (Fan.LOWER_FOUR, frozenset(range(0, 4))),  # ranks 1-4
)


def tile_fans(facts: HandFacts, found: Found) -> None:
    """Add every fan that depends only on which tiles the hand holds."""
    present = [t for t in range(FACES) if facts.counts[t]]
    suits = {suit(t) for t in present if t < HONOR_START}
    honors = [t for t in present if t >= HONOR_START]
    if set(present) <= _GREEN:
        add(found, Fan.ALL_GREEN, tiles_label(present))
    if set(present) <= _REVERSIBLE:
        add(found, Fan.REVERSIBLE_TILES, tiles_label(present))
    if all(is_terminal_or_honor(t) for t in present):
        fan = Fan.ALL_HONORS if not suits else Fan.ALL_TERMINALS if not honors else Fan.ALL_TERMINALS_AND_HONORS
        add(found, fan, tiles_label(present))
    _suit_fans(suits, bool(honors), found)
    if not honors:
        ranks = {rank(t) for t in present}
        for fan, band in _RANK_BANDS:
            if ranks <= band:
                add(found, fan, tiles_label(present))
                break
        if 0 not in ranks and 8 not in ranks:
            add(found, Fan.ALL_SIMPLES, tiles_label(present))
    if len(suits) == 3 and {t < HONOR_START + 4 for t in honors} == {True, False}:
        add(found, Fan.ALL_TYPES, "characters, dots, bamboo, a wind and a dragon")
    for t in present:
        if facts.counts[t] == 4 and t not in facts.kong_tiles:
            add(found, Fan.TILE_HOG, tiles_label([t] * 4))


def _suit_fans(suits: set[int], honors: bool, found: Found) -> None:
    if len(suits) == 1:
        add(found, Fan.HALF_FLUSH if honors else Fan.FULL_FLUSH, "one suit" + (" and honours" if honors else ""))
    elif len(suits) == 2:
        add(found, Fan.ONE_VOIDED_SUIT, "a suit missing")
    if not honors:
        add(found, Fan.NO_HONORS, "no honour tiles")
