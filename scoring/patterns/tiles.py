"""Fans decided by the tiles alone, whatever the reading: colours, suits, ranks, terminals, Tile Hog.

Each family gives its largest pattern only (a one-suit hand is a flush, never also One Voided Suit).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from scoring.decompose import FACES, HONOR_START
from scoring.fans import Fan
from scoring.patterns.view import Found, HandFacts, add, is_terminal_or_honor, tiles_label
from scoring.tiles import tile


def _bits(tiles: Iterable[int]) -> int:
    """Tiles as the bits of one int, one byte a face (tile t: bit 8t): which tiles a hand holds is then its counts'
    bytes made 0 or 1 (one C call, `_held`), tested against a family at once."""
    return sum(1 << 8 * t for t in set(tiles))


_PRESENT = bytes([0] + [1] * 255)  # bytes.translate: a face's count to 1 when it is held


_GREEN = _bits(tile(c).index for c in ("2s", "3s", "4s", "6s", "8s", "F"))
_REVERSIBLE = _bits(
    tile(c).index for c in ("1p", "2p", "3p", "4p", "5p", "8p", "9p", "2s", "4s", "5s", "6s", "8s", "9s", "P")
)
_TERMINALS_AND_HONORS = _bits(t for t in range(FACES) if is_terminal_or_honor(t))
_SUITS = tuple(_bits(range(start, start + 9)) for start in (0, 9, 18))
_SUIT_BITS = 8 * 9
_WINDS = _bits(range(4))  # of the honour bits: E S W N, then the dragons
_RANKS = _bits(range(9))
_TERMINAL_RANKS = _bits((0, 8))
_RANK_BANDS = (  # (fan, allowed ranks 0-8)
    (Fan.UPPER_TILES, _bits(range(6, 9))),  # ranks 7-9
    (Fan.MIDDLE_TILES, _bits(range(3, 6))),  # ranks 4-6
    (Fan.LOWER_TILES, _bits(range(0, 3))),  # ranks 1-3
    (Fan.UPPER_FOUR, _bits(range(5, 9))),  # ranks 6-9
    (Fan.LOWER_FOUR, _bits(range(0, 4))),  # ranks 1-4
)


def tile_fans(facts: HandFacts, found: Found) -> None:
    """Add every fan that depends only on which tiles the hand holds."""
    counts = bytes(facts.counts)
    held = int.from_bytes(counts.translate(_PRESENT), "little")  # bit 8t: the hand holds tile t
    for fan, evidence in _held_fans(held):
        add(found, fan, evidence)
    t = counts.find(4)  # the faces held four times, found in C
    while t >= 0:
        if t not in facts.kong_tiles:
            add(found, Fan.TILE_HOG, tiles_label([t] * 4))
        t = counts.find(4, t + 1)


@lru_cache(maxsize=1 << 14)
def _held_fans(held: int) -> tuple[tuple[int, str], ...]:
    """The fans of the faces a hand holds (the bits of ``held``), each with its evidence, Tile Hog aside: a few
    thousand sets of faces come back in hand after hand (4,000 in 20,000 random hands)."""
    found: Found = {}
    suits = [s for s, suit in enumerate(_SUITS) if held & suit]
    honors = held >> 8 * HONOR_START
    if not held & ~_GREEN:
        add(found, Fan.ALL_GREEN, _held_label(held))
    if not held & ~_REVERSIBLE:
        add(found, Fan.REVERSIBLE_TILES, _held_label(held))
    if not held & ~_TERMINALS_AND_HONORS:
        fan = Fan.ALL_HONORS if not suits else Fan.ALL_TERMINALS if not honors else Fan.ALL_TERMINALS_AND_HONORS
        add(found, fan, _held_label(held))
    _suit_fans(suits, bool(honors), found)
    if not honors:
        ranks = (held | held >> _SUIT_BITS | held >> 2 * _SUIT_BITS) & _RANKS  # bit 8r: some suit holds rank r + 1
        for fan, band in _RANK_BANDS:
            if not ranks & ~band:
                add(found, fan, _held_label(held))
                break
        if not ranks & _TERMINAL_RANKS:
            add(found, Fan.ALL_SIMPLES, _held_label(held))
    if len(suits) == 3 and honors & _WINDS and honors & ~_WINDS:
        add(found, Fan.ALL_TYPES, "characters, dots, bamboo, a wind and a dragon")
    return tuple((fan, evidence) for fan, found_for in found.items() for evidence in found_for)


def _held_label(held: int) -> str:
    """The faces the hand holds (the bits of ``held``), each once, as a player writes them."""
    return tiles_label([t for t in range(FACES) if held >> 8 * t & 1])


def _suit_fans(suits: list[int], honors: bool, found: Found) -> None:
    if len(suits) == 1:
        add(found, Fan.HALF_FLUSH if honors else Fan.FULL_FLUSH, "one suit" + (" and honours" if honors else ""))
    elif len(suits) == 2:
        add(found, Fan.ONE_VOIDED_SUIT, "a suit missing")
    if not honors:
        add(found, Fan.NO_HONORS, "no honour tiles")
