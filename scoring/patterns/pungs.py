"""Pung patterns (shifted, triple, double), wind and dragon pungs, kongs and concealed pungs.

A single pung earns at most one of Dragon Pung, Seat/Prevalent Wind and Pung of Terminals or
Honors: a dragon pung is never also a Pung of Terminals or Honors, a seat or prevalent wind pung
neither, and wind pungs inside Big Three Winds / Little or Big Four Winds neither.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from scoring.decompose import HONOR_START
from scoring.fans import Fan
from scoring.patterns.view import Found, View, add, is_terminal_or_honor, rank, suit
from scoring.suits import KONG

DRAGON_START = HONOR_START + 4
TWO_KONGS = {2: Fan.TWO_CONCEALED_KONGS, 1: Fan.CONCEALED_KONG_AND_MELDED_KONG, 0: Fan.TWO_MELDED_KONGS}  # by concealed
CONCEALED_PUNGS = {4: Fan.FOUR_CONCEALED_PUNGS, 3: Fan.THREE_CONCEALED_PUNGS, 2: Fan.TWO_CONCEALED_PUNGS}  # by count


def _three_pung_fan(a: int, b: int, c: int) -> int | None:
    if c >= HONOR_START:
        return None
    if suit(a) == suit(b) == suit(c):
        return Fan.PURE_SHIFTED_PUNGS if b == a + 1 and c == b + 1 else None
    if len({suit(a), suit(b), suit(c)}) != 3:
        return None
    ranks = sorted((rank(a), rank(b), rank(c)))
    if ranks[0] == ranks[2]:
        return Fan.TRIPLE_PUNG
    if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1:
        return Fan.MIXED_SHIFTED_PUNGS
    return None


def _double_pung(a: int, b: int) -> bool:
    return a < HONOR_START and b < HONOR_START and suit(a) != suit(b) and rank(a) == rank(b)


def pung_pattern_fans(v: View, found: Found) -> None:
    """Shifted/triple/double pungs: the largest pattern, then one Double Pung with a fourth pung."""
    groups = v.pungs
    if len(groups) < 2:
        return
    suited = tuple([g.tile for g in groups if g.tile < HONOR_START])  # the pungs sort honours last: these come first
    if len(suited) > 1:
        for fan, members in _pung_plan(suited):
            add(found, fan, tuple([groups[i] for i in members]))


@lru_cache(maxsize=1 << 16)
def _pung_plan(tiles: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The pung-pattern fans of suited pungs of ``tiles`` (sorted), each with the positions of the pungs that make
    it (honour pungs make none)."""
    if len(tiles) == 4 and suit(tiles[0]) == suit(tiles[3]) < 3 and tiles == tuple(range(tiles[0], tiles[0] + 4)):
        return ((Fan.FOUR_PURE_SHIFTED_PUNGS, (0, 1, 2, 3)),)
    for trio in combinations(range(len(tiles)), 3):
        fan = _three_pung_fan(*(tiles[i] for i in trio))
        if fan:
            rest = [i for i in range(len(tiles)) if i not in trio]
            double = next(((i, rest[0]) for i in trio if rest and _double_pung(tiles[i], tiles[rest[0]])), None)
            return ((fan, trio),) + (((Fan.DOUBLE_PUNG, double),) if double else ())
    return tuple((Fan.DOUBLE_PUNG, (i, j)) for i, j in combinations(range(len(tiles)), 2)
                 if _double_pung(tiles[i], tiles[j]))


def honor_fans(v: View, found: Found) -> None:
    """Winds and dragons, and the Pung of Terminals or Honors for the pungs no other fan takes."""
    pungs = v.pungs
    if not pungs:
        return
    if pungs[-1].tile >= HONOR_START:  # sorted: the last pung is an honour's when any is
        _wind_and_dragon_fans(v, found)
    for g in pungs:
        if g.tile in _SUITED_TERMINALS:
            add(found, Fan.PUNG_OF_TERMINALS_OR_HONORS, (g,))


_SUITED_TERMINALS = frozenset(t for t in range(HONOR_START) if is_terminal_or_honor(t))


def _wind_and_dragon_fans(v: View, found: Found) -> None:
    facts = v.facts
    winds = [g for g in v.pungs if HONOR_START <= g.tile < DRAGON_START]
    dragons = [g for g in v.pungs if g.tile >= DRAGON_START]
    pair = v.pair.tile if v.pair else -1
    wind_sets = tuple(winds)
    if len(winds) == 4:
        add(found, Fan.BIG_FOUR_WINDS, wind_sets)
    elif len(winds) == 3 and HONOR_START <= pair < DRAGON_START:
        add(found, Fan.LITTLE_FOUR_WINDS, (*wind_sets, v.pair))
    elif len(winds) == 3:
        add(found, Fan.BIG_THREE_WINDS, wind_sets)
    dragon_sets = tuple(dragons)
    if len(dragons) == 3:
        add(found, Fan.BIG_THREE_DRAGONS, dragon_sets)
    elif len(dragons) == 2 and pair >= DRAGON_START:
        add(found, Fan.LITTLE_THREE_DRAGONS, (*dragon_sets, v.pair))
    elif len(dragons) == 2:
        add(found, Fan.TWO_DRAGON_PUNGS, dragon_sets)
    else:
        for g in dragons:
            add(found, Fan.DRAGON_PUNG, (g,))
    for g in winds:
        scored = False
        if g.tile == facts.prevalent_wind:
            add(found, Fan.PREVALENT_WIND, (g,))
            scored = True
        if g.tile == facts.seat_wind:
            add(found, Fan.SEAT_WIND, (g,))
            scored = True
        if not scored and len(winds) < 3:
            add(found, Fan.PUNG_OF_TERMINALS_OR_HONORS, (g,))


def kong_fans(v: View, found: Found) -> None:
    """Kong counts by kind, and the concealed pungs (concealed kongs included)."""
    if not v.pungs:
        return
    if v.facts.kong_tiles:  # kongs are melds: a hand without one reads none
        kongs = [g for g in v.pungs if g.kind is KONG]
        hidden = [g for g in kongs if g.concealed]
        text = tuple(kongs)
        if len(kongs) == 4:
            add(found, Fan.FOUR_KONGS, text)
        elif len(kongs) == 3:
            add(found, Fan.THREE_KONGS, text)
        elif len(kongs) == 2:
            add(found, TWO_KONGS[len(hidden)], text)
        else:
            add(found, Fan.CONCEALED_KONG if hidden else Fan.MELDED_KONG, text)
    concealed = [g for g in v.pungs if g.concealed]
    if len(concealed) >= 2:
        add(found, CONCEALED_PUNGS[len(concealed)], tuple(concealed))


def all_pungs_fans(v: View, found: Found) -> None:
    """All Pungs and All Even Pungs (four pungs or kongs and a pair)."""
    if len(v.pungs) != 4 or v.pair is None:
        return
    add(found, Fan.ALL_PUNGS, "four pungs or kongs")
    units = [g.tile for g in v.pungs] + [v.pair.tile]
    if all(t < HONOR_START and rank(t) % 2 == 1 for t in units):
        add(found, Fan.ALL_EVEN_PUNGS, "every set and the pair of even tiles")
