"""Fans of the hand's shape: the special forms, Nine Gates, and what every set of a reading shares
(All Chows, Outside Hand, All Fives)."""

from __future__ import annotations

from functools import reduce
from itertools import compress
from operator import and_

from scoring.decompose import (
    FACES,
    HONOR_START,
    HONORS_AND_KNITTED,
    KNITTED_STRAIGHT,
    KNITTED_STRAIGHTS,
    REGULAR,
    SEVEN_PAIRS,
    THIRTEEN_ORPHANS,
)
from scoring.fans import Fan
from scoring.patterns.view import Found, HandFacts, View, add, is_terminal_or_honor, rank, suit, tiles_label
from scoring.suits import CHOW

_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def form_fans(v: View, found: Found) -> None:
    """Seven (shifted) pairs, thirteen orphans, honours and knitted tiles, knitted straight."""
    if v.form == REGULAR:
        return
    counts = v.facts.counts
    present = list(compress(range(FACES), counts))
    if v.form == SEVEN_PAIRS:
        pairs = sorted({g.tile for g in v.groups})
        shifted = len(pairs) == 7 and suit(pairs[0]) == suit(pairs[6]) < 3 and pairs[6] - pairs[0] == 6
        add(found, Fan.SEVEN_SHIFTED_PAIRS if shifted else Fan.SEVEN_PAIRS, v.groups)
    elif v.form == THIRTEEN_ORPHANS:
        add(found, Fan.THIRTEEN_ORPHANS, tiles_label(present))
    elif v.form == HONORS_AND_KNITTED:
        honors = sum(1 for t in present if t >= HONOR_START)
        greater = honors == 7  # all seven honours beside the knitted tiles
        add(found, Fan.GREATER_HONORS_AND_KNITTED_TILES if greater else Fan.LESSER_HONORS_AND_KNITTED_TILES,
            tiles_label(present))
        for ks in KNITTED_STRAIGHTS:
            if honors < 7 and all(counts[t] for t in ks):
                add(found, Fan.KNITTED_STRAIGHT, tiles_label(sorted(ks)))
    elif v.form == KNITTED_STRAIGHT:
        add(found, Fan.KNITTED_STRAIGHT, v.groups[:1])


def nine_gates(facts: HandFacts, found: Found) -> None:
    """1112345678999 standing in one suit, winning on any tile of that suit."""
    standing = facts.standing
    if facts.open_sets:
        return
    for start in (0, 9, 18):
        if standing[start : start + 9] == _NINE_GATES and sum(standing) == 13 and facts.win // 9 == start // 9:
            gates = tiles_label([start] * 3 + list(range(start + 1, start + 8)) + [start + 8] * 3)
            add(found, Fan.NINE_GATES, f"{gates} + {tiles_label([facts.win])}")


def set_trait_fans(v: View, found: Found) -> None:
    """All Chows, Outside Hand and All Fives: traits every set and the pair of a regular reading share."""
    if v.pair is None:
        return
    if v.form == KNITTED_STRAIGHT:
        if len(v.chows) == 1 and v.pair.tile < HONOR_START:
            add(found, Fan.ALL_CHOWS, "chows only and a suited pair")
        return
    if v.form != REGULAR:
        return
    if len(v.chows) == 4 and v.pair.tile < HONOR_START:
        add(found, Fan.ALL_CHOWS, "chows only and a suited pair")
    shared = reduce(and_, [(_CHOW_TRAITS if g.kind is CHOW else _SET_TRAITS)[g.tile] for g in v.groups])
    if shared & _OUTSIDE:
        add(found, Fan.OUTSIDE_HAND, v.groups)
    if shared & _FIVE:
        add(found, Fan.ALL_FIVES, v.groups)


_OUTSIDE = 1  # a set's traits: it holds a terminal or honour
_FIVE = 2  # ... it holds a suited five


def _traits(tiles: tuple[int, ...]) -> int:
    """A set's or pair's traits as bits (`_OUTSIDE`, `_FIVE`): those every set shares are then the bits they all
    have."""
    return (_OUTSIDE * any(map(is_terminal_or_honor, tiles))
            | _FIVE * any(t < HONOR_START and rank(t) == 4 for t in tiles))


# By a set's lowest tile: a chow starting there (no chow starts at rank 8 or 9), or a pung, kong or pair of it.
_CHOW_TRAITS = tuple(_traits((t, t + 1, t + 2)) for t in range(HONOR_START))
_SET_TRAITS = tuple(_traits((t,)) for t in range(FACES))
