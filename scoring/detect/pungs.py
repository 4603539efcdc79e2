"""Pung patterns (shifted, triple, double), wind and dragon pungs, kongs and concealed pungs.

A single pung earns at most one of Dragon Pung, Seat/Prevalent Wind and Pung of Terminals or
Honors: a dragon pung is never also a Pung of Terminals or Honors, a seat or prevalent wind pung
neither, and wind pungs inside Big Three Winds / Little or Big Four Winds neither.
"""

from __future__ import annotations

from itertools import combinations

from scoring.decompose import HONOR_START, SetKind
from scoring.detect.view import Found, View, add, is_terminal_or_honor, rank, suit

DRAGON_START = HONOR_START + 4


def _three_pung_fan(a: int, b: int, c: int) -> int | None:
    if c >= HONOR_START:
        return None
    if suit(a) == suit(b) == suit(c):
        return 24 if b == a + 1 and c == b + 1 else None  # Pure Shifted Pungs
    if len({suit(a), suit(b), suit(c)}) != 3:
        return None
    ranks = sorted((rank(a), rank(b), rank(c)))
    if ranks[0] == ranks[2]:
        return 32  # Triple Pung
    if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1:
        return 42  # Mixed Shifted Pungs
    return None


def _double_pung(a: int, b: int) -> bool:
    return a < HONOR_START and b < HONOR_START and suit(a) != suit(b) and rank(a) == rank(b)


def pung_pattern_fans(v: View, found: Found) -> None:
    """Shifted/triple/double pungs: the largest pattern, then one Double Pung with a fourth pung."""
    groups = v.pungs
    tiles = [g.tile for g in groups]
    if len(tiles) == 4 and suit(tiles[0]) == suit(tiles[3]) < 3 and tiles == list(range(tiles[0], tiles[0] + 4)):
        add(found, 15, groups)  # Four Pure Shifted Pungs
        return
    for trio in combinations(range(len(tiles)), 3):
        fan = _three_pung_fan(*(tiles[i] for i in trio))
        if fan:
            add(found, fan, tuple(groups[i] for i in trio))
            rest = [i for i in range(len(tiles)) if i not in trio]
            for i in trio:
                if rest and _double_pung(tiles[i], tiles[rest[0]]):
                    add(found, 65, (groups[i], groups[rest[0]]))
                    break
            return
    for i, j in combinations(range(len(tiles)), 2):
        if _double_pung(tiles[i], tiles[j]):
            add(found, 65, (groups[i], groups[j]))


def honor_fans(v: View, found: Found) -> None:
    """Winds and dragons, and the Pung of Terminals or Honors for the pungs no other fan takes."""
    facts = v.facts
    winds = [g for g in v.pungs if HONOR_START <= g.tile < DRAGON_START]
    dragons = [g for g in v.pungs if g.tile >= DRAGON_START]
    pair = v.pair.tile if v.pair else -1
    wind_sets = tuple(winds)
    if len(winds) == 4:
        add(found, 1, wind_sets)
    elif len(winds) == 3 and HONOR_START <= pair < DRAGON_START:
        add(found, 9, (*wind_sets, v.pair))
    elif len(winds) == 3:
        add(found, 38, wind_sets)
    dragon_sets = tuple(dragons)
    if len(dragons) == 3:
        add(found, 2, dragon_sets)
    elif len(dragons) == 2 and pair >= DRAGON_START:
        add(found, 10, (*dragon_sets, v.pair))
    elif len(dragons) == 2:
        add(found, 54, dragon_sets)
    else:
        for g in dragons:
            add(found, 59, (g,))
    for g in winds:
        scored = False
        if g.tile == facts.prevalent_wind:
            add(found, 60, (g,))
            scored = True
        if g.tile == facts.seat_wind:
            add(found, 61, (g,))
            scored = True
        if not scored and len(winds) < 3:
            add(found, 73, (g,))
    for g in v.pungs:
        if g.tile < HONOR_START and is_terminal_or_honor(g.tile):
            add(found, 73, (g,))


def kong_fans(v: View, found: Found) -> None:
    """Kong counts by kind, and the concealed pungs (concealed kongs included)."""
    kongs = [g for g in v.pungs if g.kind is SetKind.KONG]
    hidden = [g for g in kongs if g.concealed]
    shown = [g for g in kongs if not g.concealed]
    text = tuple(kongs)
    if len(kongs) == 4:
        add(found, 5, text)
    elif len(kongs) == 3:
        add(found, 17, text)
    elif len(kongs) == 2:
        add(found, {2: 53, 1: 82, 0: 57}[len(hidden)], text)
    elif hidden:
        add(found, 67, text)
    elif shown:
        add(found, 74, text)
    concealed = [g for g in v.pungs if g.concealed]
    if len(concealed) >= 2:
        add(found, {4: 12, 3: 33, 2: 66}[len(concealed)], tuple(concealed))


def all_pungs_fans(v: View, found: Found) -> None:
    """All Pungs and All Even Pungs (four pungs or kongs and a pair)."""
    if len(v.pungs) != 4 or v.pair is None:
        return
    add(found, 48, "four pungs or kongs")
    units = [g.tile for g in v.pungs] + [v.pair.tile]
    if all(t < HONOR_START and rank(t) % 2 == 1 for t in units):
        add(found, 21, "every set and the pair of even tiles")
