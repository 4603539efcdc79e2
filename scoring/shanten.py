"""How far standing tiles are from ready (向听, shanten): 0 ready, n the tiles to exchange before ready,
-1 already complete (14 tiles). The least over the forms the scorer reads (``scoring.decompose``): four sets
and a pair, seven pairs (four of a kind count as two pairs, as the scorer counts them), thirteen orphans,
honours and knitted tiles, and a knitted straight with a set and a pair.

Tiles are index counts (0-33), as in ``scoring.decompose``. A regular hand is worked out per suit,
memoised by the suit's counts (the blocks one suit can make do not depend on the others), then combined.
"""

from __future__ import annotations

from functools import lru_cache

from scoring.decompose import HONOR_START, KNITTED_STRAIGHTS, SUIT_STARTS, TERMINALS_AND_HONORS
from scoring.hand import SETS_PER_HAND

Blocks = frozenset[tuple[int, int]]  # (sets, partial sets) one suit can make, none worse than another
_HONORS = tuple(range(HONOR_START, HONOR_START + 7))


def shanten(counts: list[int], open_sets: int) -> int:
    """The least shanten of the standing tiles ``counts`` beside ``open_sets`` melds, over every form.

    >>> from scoring.notation import parse_held
    >>> held = parse_held("123456789m1234p")
    >>> counts = [0] * 34
    >>> for t in held.concealed: counts[t.index] += 1
    >>> shanten(counts, 0)
    0
    """
    found = regular_shanten(counts, SETS_PER_HAND - open_sets)
    if open_sets <= 1:
        found = min(found, knitted_straight_shanten(counts, open_sets))
    if open_sets == 0:
        found = min(found, seven_pairs_shanten(counts), thirteen_orphans_shanten(counts),
                    honors_and_knitted_shanten(counts))
    return found


def regular_shanten(counts: list[int], sets: int) -> int:
    """Tiles from ready for ``sets`` sets and a pair: 2 per missing set, less one per partial set (two
    tiles of a set) and one for a pair, with no more sets and partials than sets are needed."""
    found = 2 * sets - _most(counts, sets)
    for i, n in enumerate(counts):
        if n >= 2:
            counts[i] -= 2
            found = min(found, 2 * sets - 1 - _most(counts, sets))
            counts[i] += 2
    return found


def seven_pairs_shanten(counts: list[int]) -> int:
    return 6 - sum(n // 2 for n in counts)


def thirteen_orphans_shanten(counts: list[int]) -> int:
    held = [counts[i] for i in TERMINALS_AND_HONORS]
    return 13 - sum(1 for n in held if n) - (1 if max(held) >= 2 else 0)


def honors_and_knitted_shanten(counts: list[int]) -> int:
    """14 different tiles among the honours and one knitted straight's nine."""
    honors = sum(1 for i in _HONORS if counts[i])
    return 13 - min(14, honors + max(sum(1 for i in ks if counts[i]) for ks in KNITTED_STRAIGHTS))


def knitted_straight_shanten(counts: list[int], open_sets: int) -> int:
    """A knitted straight's missing tiles, plus what the rest lacks of a set (unless it is a meld) and a pair."""
    found = 8
    for ks in KNITTED_STRAIGHTS:
        have = [i for i in ks if counts[i]]
        for i in have:
            counts[i] -= 1
        found = min(found, len(ks) - len(have) + regular_shanten(counts, 1 - open_sets))
        for i in have:
            counts[i] += 1
    return found


def _most(counts: list[int], sets: int) -> int:
    """The most 2 x sets + partials the tiles make, counting at most ``sets`` of the two together."""
    options = {(0, 0)}
    for start in SUIT_STARTS:
        end = start + (7 if start == HONOR_START else 9)
        suit = _blocks(tuple(counts[start:end]), start == HONOR_START)
        options = {_capped(m + m2, t + t2, sets) for m, t in options for m2, t2 in suit}
    return max(2 * m + t for m, t in options)


def _capped(m: int, t: int, sets: int) -> tuple[int, int]:
    m = min(m, sets)
    return m, min(t, sets - m)


# The blocks of the suit shapes last asked about (a few hundred bytes each): bounded, where every shape a service
# was ever asked about was kept.
@lru_cache(maxsize=1 << 14)
def _blocks(suit: tuple[int, ...], honors: bool) -> Blocks:
    """Every (sets, partial sets) one suit's tiles can be cut into, keeping only those no other beats."""
    first = next((i for i, n in enumerate(suit) if n), None)
    if first is None:
        return frozenset({(0, 0)})
    found: set[tuple[int, int]] = set()

    def cut(used: tuple[int, ...], made: tuple[int, int]) -> None:
        rest = list(suit)
        for i in used:
            if i >= len(rest) or rest[i] == 0:
                return
            rest[i] -= 1
        found.update((m + made[0], t + made[1]) for m, t in _blocks(tuple(rest), honors))

    cut((first,), (0, 0))  # left alone
    cut((first,) * 3, (1, 0))
    cut((first,) * 2, (0, 1))
    if not honors:
        cut((first, first + 1, first + 2), (1, 0))
        cut((first, first + 1), (0, 1))
        cut((first, first + 2), (0, 1))
    return frozenset(o for o in found if not any(p != o and p[0] >= o[0] and p[1] >= o[1] for p in found))
