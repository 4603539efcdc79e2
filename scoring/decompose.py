"""Every reading of a hand: four sets and a pair, seven pairs, thirteen orphans, honours-and-knitted,
knitted straight with a set and a pair; and the tiles a standing hand waits on.

Internally a tile is its index 0-33 and a group of tiles a count vector. Regular readings are found
per suit, memoised by the suit's 9 counts (a suit's splits do not depend on the other suits), then
combined with exactly one pair overall: this keeps Nine Gates or four chows in one suit to a handful
of cached look-ups instead of a search over the whole hand.
"""

from __future__ import annotations

from enum import IntEnum
from functools import lru_cache
from itertools import permutations, product
from typing import NamedTuple

FACES = 34
HONOR_START = 27
SUIT_STARTS = (0, 9, 18, 27)
TERMINALS_AND_HONORS = (0, 8, 9, 17, 18, 26, *range(27, 34))
KNITTED_STRAIGHTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(suit * 9 + first + 3 * k for suit, first in zip(range(3), firsts) for k in range(3))
    for firsts in permutations(range(3))
)
"""The six knitted straights (147/258/369 spread over the three suits), as tile indices."""


class SetKind(IntEnum):
    CHOW = 0
    PUNG = 1
    KONG = 2
    PAIR = 3
    KNITTED = 4  # the nine tiles of a knitted straight, as one unit


REGULAR = "regular"
SEVEN_PAIRS = "seven_pairs"
THIRTEEN_ORPHANS = "thirteen_orphans"
HONORS_AND_KNITTED = "honors_and_knitted"
KNITTED_STRAIGHT = "knitted_straight"


class Group(NamedTuple):
    """One unit of a reading: a set, the pair, or a knitted straight.

    ``tile`` is the set's lowest tile, or for a knitted straight its index in ``KNITTED_STRAIGHTS``.
    A named tuple rather than a dataclass: groups are made, hashed and cached by the thousand per
    second, and a tuple does that in C.
    """

    kind: SetKind
    tile: int
    concealed: bool
    meld_index: int | None = None  # which meld of the hand it is; None for standing tiles


class Reading(NamedTuple):
    form: str
    groups: tuple[Group, ...]


Split = tuple[tuple[int, int], ...]  # (SetKind, rank offset) units of one suit


def _unique(splits: list[Split]) -> tuple[Split, ...]:
    """Each multiset of units once (a face held four times can be cut pung-first or chow-first)."""
    return tuple(sorted({tuple(sorted(split)) for split in splits}))


@lru_cache(maxsize=None)
def _sets_only(counts: tuple[int, ...], honors: bool) -> tuple[Split, ...]:
    """All ways to cut one suit's counts into pungs and chows."""
    first = next((i for i, c in enumerate(counts) if c), None)
    if first is None:
        return ((),)
    found: list[Split] = []
    c = list(counts)
    if c[first] >= 3:
        c[first] -= 3
        found += [((SetKind.PUNG, first), *rest) for rest in _sets_only(tuple(c), honors)]
        c[first] += 3
    if not honors and first <= 6 and c[first + 1] and c[first + 2]:
        c[first] -= 1
        c[first + 1] -= 1
        c[first + 2] -= 1
        found += [((SetKind.CHOW, first), *rest) for rest in _sets_only(tuple(c), honors)]
    return _unique(found)


@lru_cache(maxsize=None)
def _splits(counts: tuple[int, ...], honors: bool) -> tuple[Split, ...]:
    """All readings of one suit: sets only when its size is 3k, sets plus the pair when 3k+2."""
    size = sum(counts)
    if size % 3 == 0:
        return _sets_only(counts, honors)
    if size % 3 == 1:
        return ()
    found: list[Split] = []
    for i, n in enumerate(counts):
        if n >= 2:
            rest = list(counts)
            rest[i] -= 2
            found += [((SetKind.PAIR, i), *sets) for sets in _sets_only(tuple(rest), honors)]
    return _unique(found)


def _groups_of(counts: list[int]) -> list[tuple[int, tuple[int, ...]]]:
    return [(start, tuple(counts[start : start + (7 if start == HONOR_START else 9)])) for start in SUIT_STARTS]


@lru_cache(maxsize=None)
def _group_splits(counts: tuple[int, ...], start: int) -> tuple[tuple[Group, ...], ...]:
    """``_splits`` of one suit as ready-made concealed groups (cached: groups are immutable)."""
    splits = _splits(counts, start == HONOR_START)
    return tuple(tuple(Group(SetKind(k), start + r, True) for k, r in split) for split in splits)


def regular_splits(counts: list[int]) -> list[tuple[Group, ...]]:
    """Every way to read the standing tiles plus the winning tile as sets and exactly one pair."""
    per_suit = []
    pairs = 0
    for start, suit in _groups_of(counts):
        options = _group_splits(suit, start)
        if not options:
            return []
        pairs += sum(suit) % 3 == 2
        per_suit.append(options)
    if pairs != 1:
        return []
    return [sum(choice, ()) for choice in product(*per_suit)]


def regular_complete(counts: list[int]) -> bool:
    pairs = 0
    for start, suit in _groups_of(counts):
        if not _splits(suit, start == HONOR_START):
            return False
        pairs += sum(suit) % 3 == 2
    return pairs == 1


def special_readings(counts: list[int], melds: tuple[Group, ...]) -> list[Reading]:
    """Seven pairs, thirteen orphans and honours-and-knitted readings of a fully concealed hand."""
    if melds or sum(counts) != 14:
        return []
    found: list[Reading] = []
    present = {i for i, c in enumerate(counts) if c}
    if not any(c % 2 for c in counts):
        pairs = tuple(Group(SetKind.PAIR, i, True) for i, c in enumerate(counts) for _ in range(c // 2))
        found.append(Reading(SEVEN_PAIRS, pairs))
    if present == _ORPHANS:
        found.append(Reading(THIRTEEN_ORPHANS, ()))
    if len(present) == 14 and _is_knitted_suited([i for i in present if i < HONOR_START]):
        found.append(Reading(HONORS_AND_KNITTED, ()))
    return found


_ORPHANS = frozenset(TERMINALS_AND_HONORS)
_HONORS = frozenset(range(HONOR_START, FACES))


def _is_knitted_suited(tiles: list[int]) -> bool:
    """Whether suited tiles all fit one knitted straight (each suit within one of 147/258/369)."""
    return any(set(tiles) <= set(ks) for ks in KNITTED_STRAIGHTS)


def knitted_straight_cores(counts: list[int]) -> list[tuple[int, ...]]:
    """The knitted straights wholly present in the counts, whose remaining tiles read as a set and a pair."""
    present = {i for i, n in enumerate(counts) if n}
    found = []
    for ks in KNITTED_STRAIGHTS:
        if present.issuperset(ks):
            rest = list(counts)
            for i in ks:
                rest[i] -= 1
            if regular_complete(rest) or sum(rest) == 2 and max(rest) == 2:
                found.append(ks)
    return found


def knitted_straight_readings(counts: list[int], melds: tuple[Group, ...]) -> list[Reading]:
    """Knitted straight + one set + the pair; the set may be a meld."""
    if len(melds) > 1 or sum(counts) < 11:
        return []
    found = []
    for ks in knitted_straight_cores(counts):
        rest = list(counts)
        for i in ks:
            rest[i] -= 1
        core = Group(SetKind.KNITTED, KNITTED_STRAIGHTS.index(ks), True)
        if melds:
            found += [Reading(KNITTED_STRAIGHT, (core, *melds, *split)) for split in regular_splits(rest)]
        else:
            found += [Reading(KNITTED_STRAIGHT, (core, *split)) for split in regular_splits(rest)]
    return found


@lru_cache(maxsize=None)
def _completions(counts: tuple[int, ...], honors: bool) -> tuple[int, ...]:
    """The ranks that, added to this suit, leave it readable as sets (plus a pair)."""
    found = []
    for r in range(len(counts)):
        grown = counts[:r] + (counts[r] + 1,) + counts[r + 1 :]
        if _splits(grown, honors):
            found.append(r)
    return tuple(found)


def _regular_waits(standing: list[int]) -> set[int]:
    """Waits for four sets and a pair: the suit that takes the tile must complete, the others be whole."""
    groups = _groups_of(standing)
    whole = [bool(_splits(suit, start == HONOR_START)) for start, suit in groups]
    pairs = [sum(suit) % 3 == 2 for _, suit in groups]
    found: set[int] = set()
    for g, (start, suit) in enumerate(groups):
        if not all(whole[h] for h in range(4) if h != g):
            continue
        other_pairs = sum(pairs) - pairs[g]
        if other_pairs > 1 or (sum(suit) + 1) % 3 != (2 if other_pairs == 0 else 0):
            continue
        found.update(start + r for r in _completions(suit, start == HONOR_START))
    return found


def _special_waits(standing: list[int], open_sets: int) -> set[int]:
    """Waits for the special forms, worked out directly from what each form still lacks."""
    found: set[int] = set()
    present = {t for t, n in enumerate(standing) if n}
    if open_sets == 0 and sum(standing) == 13:
        odd = [t for t, n in enumerate(standing) if n % 2]
        if len(odd) == 1:
            found.add(odd[0])  # seven pairs
        if present <= _ORPHANS:
            missing = _ORPHANS - present
            found |= missing if len(missing) == 1 else _ORPHANS if not missing else set()
        if len(present) == 13:
            suited = {t for t in present if t < HONOR_START}
            for ks in KNITTED_STRAIGHTS:
                if suited <= set(ks):
                    found |= (set(ks) | _HONORS) - present
    if open_sets <= 1:
        for ks in KNITTED_STRAIGHTS:
            if len(present.intersection(ks)) < 8:
                continue
            missing = [t for t in ks if not standing[t]]
            rest = list(standing)
            for t in ks:
                rest[t] -= t not in missing
            if missing and regular_complete(rest):
                found.add(missing[0])
            elif not missing:
                found |= _regular_waits(rest)
    return found


def waits(standing: list[int], open_sets: int) -> list[int]:
    """The faces that would finish the standing tiles, in any form.

    As in the reference calculator, a face the hand already holds four of still counts as a wait.
    """
    return sorted(_regular_waits(standing) | _special_waits(standing, open_sets))
