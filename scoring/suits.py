"""One suit of a hand as one int, and what the readings and the waits need to know of it.

A suit's counts (nine ranks, seven honours) are the bytes of an int, lowest rank first: ``suit_keys`` makes the
four of a hand with one C call each, a tile of rank r adds ``1 << 8 * r``, and a shape is a key hashed in C.

Which shapes read as sets only, or as sets and the pair, is a fixed table made at import (``SUITED``, ``HONORS``:
about 30,000 shapes, 12 ms): whether a suit is whole, or which tiles would complete it, is a look-up per shape,
with no search. A whole suit's readings (``splits``) are found with the table as a guide, so the search never
enters a branch that cannot end in a reading.
"""

from __future__ import annotations

from enum import IntEnum
from functools import lru_cache

SUITED_FACES = 9
HONOR_FACES = 7
SUIT_STARTS = (0, 9, 18, 27)
SETS = 0  # a shape of ``SUITED``/``HONORS`` that reads as sets only (3k tiles)
PAIRED = 1  # ... as sets and the pair (3k + 2)
MOST_COPIES = 5  # four held and the one that would complete them: the reference still counts it as a wait
_FACE_BITS = 8
_FULL = 0xFF


class SetKind(IntEnum):
    """The units a reading is cut into; a split of one suit lists its units sorted by kind, then rank."""

    CHOW = 0
    PUNG = 1
    KONG = 2
    PAIR = 3
    KNITTED = 4  # the nine tiles of a knitted straight, as one unit


CHOW, PUNG, KONG, PAIR, KNITTED = SetKind
"""The kinds by name, for the loops that test a group's kind dozens of times a hand: in Python 3.11 a member read off
its enum (``SetKind.CHOW``) goes through the enum type's ``__getattr__`` hook, ten times the cost of a module name."""


def unit(rank: int) -> int:
    """One tile of ``rank`` (0-8) added to a suit's key."""
    return 1 << _FACE_BITS * rank


_UNITS = tuple(unit(r) for r in range(SUITED_FACES))


def _shapes(faces: int, chows: bool) -> dict[int, int]:
    """Every shape of ``faces`` faces that reads as at most four sets (SETS) or as them and a pair (PAIRED), no face
    held more than ``MOST_COPIES`` times; grown one set at a time from the empty suit."""
    sets = [3 * unit(r) for r in range(faces)] + ([0x010101 * unit(r) for r in range(faces - 2)] if chows else [])
    over = sum(0x80 * unit(r) for r in range(faces))  # a face's top bit: set once its count passes the limit
    lift = sum((0x80 - MOST_COPIES - 1) * unit(r) for r in range(faces))
    level = {0}
    found = {0: SETS}
    for _ in range(4):
        level = {s + m for s in level for m in sets if not (s + m + lift) & over}
        found.update(dict.fromkeys(level, SETS))
    pairs = [2 * unit(r) for r in range(faces)]
    found.update({s + p: PAIRED for s in list(found) for p in pairs if not (s + p + lift) & over})
    return found


SUITED = _shapes(SUITED_FACES, True)
HONORS = _shapes(HONOR_FACES, False)
TABLES = (SUITED, SUITED, SUITED, HONORS)  # by suit: characters, dots, bamboo, honours


def suit_keys(counts: bytes) -> tuple[int, int, int, int]:
    """The four suits' keys of 34 counts by face (as `bytes(counts)`)."""
    return (int.from_bytes(counts[0:9], "little"), int.from_bytes(counts[9:18], "little"),
            int.from_bytes(counts[18:27], "little"), int.from_bytes(counts[27:34], "little"))


def completions(key: int, table: dict[int, int]) -> tuple[list[int], list[int]]:
    """The ranks that, added to the suit ``key``, make it whole: as sets only (SETS), and with the pair (PAIRED)."""
    found: tuple[list[int], list[int]] = ([], [])
    get = table.get
    for r, one in enumerate(_UNITS if table is SUITED else _UNITS[:HONOR_FACES]):
        kind = get(key + one)
        if kind is not None:
            found[kind].append(r)
    return found


Split = tuple[tuple[int, int], ...]  # (SetKind value, rank) units of one suit, sorted


def splits(key: int, table: dict[int, int]) -> tuple[Split, ...]:
    """Every way to read a whole suit as sets (and the pair), each once, sorted; none when it is not whole."""
    if key not in table:
        return ()
    return tuple(sorted({tuple(sorted(split)) for split in _cuts(key, table is SUITED)}))


@lru_cache(maxsize=1 << 14)
def _cuts(key: int, suited: bool) -> tuple[Split, ...]:
    """The splits of a whole shape, its lowest face's tiles taken first as a pung, a chow or the pair: a branch
    whose rest the table does not hold is never entered, so the search meets no dead end. A rest is shared by
    many shapes: the last few thousand are kept."""
    if not key:
        return ((),)
    table = SUITED if suited else HONORS
    rank = ((key & -key).bit_length() - 1) // _FACE_BITS
    one = unit(rank)
    held = key >> _FACE_BITS * rank
    paired = table[key]
    options = []
    if held & _FULL >= 3:
        options.append((PUNG, 3 * one, paired))
    if suited and rank <= 6 and held >> _FACE_BITS & _FULL and held >> 2 * _FACE_BITS & _FULL:
        options.append((CHOW, 0x010101 * one, paired))
    if paired == PAIRED and held & _FULL >= 2:
        options.append((PAIR, 2 * one, SETS))
    found: list[Split] = []
    for kind, take, rest_kind in options:
        rest = key - take
        if table.get(rest) == rest_kind:
            found += [((kind, rank), *split) for split in _cuts(rest, suited)]
    return tuple(found)
