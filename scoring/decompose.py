"""Every reading of a hand: four sets and a pair, seven pairs, thirteen orphans, honours-and-knitted,
knitted straight with a set and a pair; and the tiles a standing hand waits on.

Internally a tile is its index 0-33 and a group of tiles a count vector. Regular readings are found
per suit (a suit's splits do not depend on the other suits), its shape one int (``scoring.suits``), then
combined with exactly one pair overall: this keeps Nine Gates or four chows in one suit to a handful
of look-ups instead of a search over the whole hand. What a suit's shape gives (its splits, the tiles that
complete it, its counts) is kept for the shapes last seen, a bounded number (``KEPT_SHAPES``).
"""

from __future__ import annotations

from functools import lru_cache, partial
from itertools import compress, permutations, product
from typing import NamedTuple

from scoring.suits import (
    KNITTED,
    PAIR,
    PAIRED,
    SETS,
    SUIT_STARTS,
    SUITED,
    TABLES,
    SetKind,
    completions,
    splits,
    suit_keys,
)

FACES = 34
HONOR_START = 27
TERMINALS_AND_HONORS = (0, 8, 9, 17, 18, 26, *range(27, 34))
KNITTED_STRAIGHTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(suit * 9 + first + 3 * k for suit, first in zip(range(3), firsts) for k in range(3))
    for firsts in permutations(range(3))
)
"""The six knitted straights (147/258/369 spread over the three suits), as tile indices."""


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


class _Suit(NamedTuple):
    """What the readings and the waits need of one suit's shape, worked out once per shape."""

    whole: int | None  # SETS or PAIRED when it reads as sets (and the pair), else None (``scoring.suits``)
    splits: tuple[tuple[Group, ...], ...]  # its readings as concealed groups; none when it cannot be read
    pair: bool  # 3k+2 tiles: the suit holds the pair
    size: int
    knit: int  # the most tiles of one of its 147, 258, 369 present (suited only)
    faces: int  # how many of its faces it holds
    odd: int  # how many of its faces it holds an odd number of times
    completions: tuple[tuple[int, ...], tuple[int, ...]]  # the tiles that make it whole as sets only, with the pair


def _suit(start: int, table: dict[int, int], key: int) -> _Suit:
    counts = key.to_bytes(9, "little")
    groups = tuple([tuple([_STANDING[k][start + r] for k, r in split]) for split in splits(key, table)])
    size = sum(counts)
    knit = 3 - min(counts[0::3].count(0), counts[1::3].count(0), counts[2::3].count(0)) if table is SUITED else 0
    ways = tuple([tuple([start + r for r in ranks]) for ranks in completions(key, table)])  # SETS, then PAIRED
    return _Suit(table.get(key), groups, size % 3 == 2, size, knit, 9 - counts.count(0),
                 sum(counts.translate(_ODD)), ways)


_STANDING = tuple(tuple(Group(kind, t, True) for t in range(FACES)) for kind in SetKind)
"""Every concealed group of the standing tiles, by kind and lowest tile: the suits' readings share them."""
_ODD = bytes(n % 2 for n in range(256))  # bytes.translate: a face's count to 1 when it is odd
_FACE_RANGE = range(FACES)  # `compress(_FACE_RANGE, counts)`: the faces held (or held an odd number of times), in C


KEPT_SHAPES = 1 << 13
"""Per suit, the shapes kept summed up (a few hundred bytes each): a service fed every shape there is keeps these."""
_SUITS = tuple(
    lru_cache(maxsize=KEPT_SHAPES)(partial(_suit, start, table)) for start, table in zip(SUIT_STARTS, TABLES)
)


def _suits(counts: bytes) -> list[_Suit]:
    """The counts cut into their four suits, each summed up."""
    a, b, c, d = suit_keys(counts)
    return [_SUITS[0](a), _SUITS[1](b), _SUITS[2](c), _SUITS[3](d)]


def regular_splits(counts: list[int]) -> list[tuple[Group, ...]]:
    """Every way to read the standing tiles plus the winning tile as sets and exactly one pair."""
    return _regular_splits(_suits(bytes(counts)))


def _regular_splits(suits: list[_Suit]) -> list[tuple[Group, ...]]:
    a, b, c, d = suits
    if not (a.splits and b.splits and c.splits and d.splits) or a.pair + b.pair + c.pair + d.pair != 1:
        return []
    if len(a.splits) == len(b.splits) == len(c.splits) == len(d.splits) == 1:  # the common case: one reading
        return [a.splits[0] + b.splits[0] + c.splits[0] + d.splits[0]]
    return [sum(choice, ()) for choice in product(a.splits, b.splits, c.splits, d.splits)]


def regular_complete(counts: list[int]) -> bool:
    """Whether the counts read as sets and exactly one pair: a look-up per suit."""
    pairs = 0
    for key, table in zip(suit_keys(bytes(counts)), TABLES):
        kind = table.get(key)
        if kind is None:
            return False
        pairs += kind
    return pairs == PAIRED


def special_readings(counts: list[int], melds: tuple[Group, ...]) -> list[Reading]:
    """Seven pairs, thirteen orphans and honours-and-knitted readings of a fully concealed hand."""
    if melds or sum(counts) != 14:
        return []
    found: list[Reading] = []
    present = set(compress(_FACE_RANGE, counts))
    if not any(bytes(counts).translate(_ODD)):
        pairs = tuple(Group(PAIR, i, True) for i, c in enumerate(counts) for _ in range(c // 2))
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


def _knit_reach(suits: list[_Suit]) -> int:
    """An upper bound on the tiles of any one knitted straight present: the best row of each suit."""
    return suits[0].knit + suits[1].knit + suits[2].knit


def knitted_straight_cores(counts: list[int]) -> list[tuple[int, ...]]:
    """The knitted straights wholly present in the counts, whose remaining tiles read as a set and a pair."""
    present = set(compress(_FACE_RANGE, counts))
    found = []
    for ks in KNITTED_STRAIGHTS:
        if present.issuperset(ks):
            rest = list(counts)
            for i in ks:
                rest[i] -= 1
            if regular_complete(rest) or sum(rest) == 2 and max(rest) == 2:
                found.append(ks)
    return found


def all_readings(counts: list[int], melds: tuple[Group, ...]) -> list[Reading]:
    """Every reading of the concealed tiles ``counts`` (the winning tile among them) beside the melds."""
    suits = _suits(bytes(counts))
    found = [Reading(REGULAR, (*split, *melds)) for split in _regular_splits(suits)]
    if len(melds) > 1:  # the special forms and the knitted straight leave room for one meld at most
        return found
    a, b, c, d = suits
    if not melds and (not (a.odd or b.odd or c.odd or d.odd) or a.faces + b.faces + c.faces + d.faces >= 13):
        found += special_readings(counts, melds)  # pairs only, or 13 faces
    if _knit_reach(suits) == 9:
        found += knitted_straight_readings(counts, melds)
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
        core = Group(KNITTED, KNITTED_STRAIGHTS.index(ks), True)
        if melds:
            found += [Reading(KNITTED_STRAIGHT, (core, *melds, *split)) for split in regular_splits(rest)]
        else:
            found += [Reading(KNITTED_STRAIGHT, (core, *split)) for split in regular_splits(rest)]
    return found


def _regular_waits(suits: list[_Suit]) -> set[int]:
    """Waits for four sets and a pair: the suit that takes the tile must complete, the others be whole (one
    suit at most is not)."""
    kinds = [s.whole for s in suits]
    if None in kinds:
        broken = kinds.index(None)
        kinds[broken] = SETS
        if None in kinds or sum(kinds) > PAIRED:
            return set()
        return set(suits[broken].completions[PAIRED - sum(kinds)])
    pairs = sum(kinds)
    found: set[int] = set()
    for s, kind in zip(suits, kinds):
        if pairs - kind <= PAIRED:
            found.update(s.completions[PAIRED - pairs + kind])
    return found


def _special_waits(standing: list[int] | tuple[int, ...], open_sets: int, suits: list[_Suit]) -> set[int]:
    """Waits for the special forms, worked out directly from what each form still lacks."""
    found: set[int] = set()
    if open_sets > 1:
        return found
    present = None
    a, b, c, d = suits
    # seven pairs lack one face held an odd number of times; the orphans and knitted forms hold 12 faces or more
    if open_sets == 0 and a.size + b.size + c.size + d.size == 13 and (
            a.odd + b.odd + c.odd + d.odd == 1 or a.faces + b.faces + c.faces + d.faces >= 12):
        present = set(compress(_FACE_RANGE, standing))
        odd = list(compress(_FACE_RANGE, bytes(standing).translate(_ODD)))
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
    if _knit_reach(suits) >= 8:
        present = present or set(compress(_FACE_RANGE, standing))
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
                found |= _regular_waits(_suits(bytes(rest)))
    return found


def waits(standing: list[int] | tuple[int, ...], open_sets: int) -> list[int]:
    """The faces that would finish the standing tiles, in any form.

    As in the reference calculator, a face the hand already holds four of still counts as a wait.
    """
    suits = _suits(bytes(standing))
    return sorted(_regular_waits(suits) | _special_waits(standing, open_sets, suits))


def single_wait(standing: list[int] | tuple[int, ...], open_sets: int) -> bool:
    """Whether exactly one face finishes the standing tiles: ``len(waits(...)) == 1``, given up as soon as two
    regular waits are found."""
    suits = _suits(bytes(standing))
    found = _regular_waits(suits)
    return len(found) < 2 and len(found | _special_waits(standing, open_sets, suits)) == 1
