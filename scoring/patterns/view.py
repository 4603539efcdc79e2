"""What the fan patterns look at: facts about the whole hand, and one reading of it.

``HandFacts`` is built once per hand (tile counts, win conditions, the wait), ``View`` once per
reading (its chows, pungs and pair, with the concealed/melded status each set scores with).
Patterns return ``Found``: fan (`scoring.fans.Fan`) -> one piece of evidence per time the fan is scored: the groups
that make it (rendered only for the chosen reading, by ``render``) or a short text.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from scoring.decompose import FACES, HONOR_START, KNITTED_STRAIGHTS, Group, SetKind, single_wait
from scoring.tiles import PLAYABLE, runs

Evidence = str | tuple[Group, ...]
Found = dict[int, list[Evidence]]


def suit(t: int) -> int:
    """0-2 for the suits, 3 for honours."""
    return 3 if t >= HONOR_START else t // 9


def rank(t: int) -> int:
    """0-8 within a suit (rank minus one)."""
    return t % 9


def is_terminal_or_honor(t: int) -> bool:
    return t >= HONOR_START or t % 9 in (0, 8)


def label(g: Group) -> str:
    """A group as a player writes it: ``123m``, ``999s``, ``EEEE``, ``55p``, ``147m258p369s``."""
    return _LABELS[g.kind][g.tile]


def tiles_label(tiles: tuple[int, ...] | list[int]) -> str:
    return _tiles_label(tuple(tiles))


@lru_cache(maxsize=4096)
def _tiles_label(tiles: tuple[int, ...]) -> str:
    return runs([PLAYABLE[t].code for t in tiles])


def add(found: Found, fan_id: int, evidence: Evidence) -> None:
    found.setdefault(fan_id, []).append(evidence)


def render(found: Sequence[Evidence]) -> tuple[str, ...]:
    """A fan's evidence as written: its texts as they are, its groups as a player writes them."""
    return tuple([e if e.__class__ is str else " ".join([_LABELS[g.kind][g.tile] for g in e]) for e in found])


class HandFacts(NamedTuple):
    """Built once per hand (a named tuple: made and read in C, thousands of times a second)."""

    counts: tuple[int, ...]  # every tile of the hand by face, a kong counting 4
    win: int
    self_drawn: bool
    seat_wind: int
    prevalent_wind: int
    last_of_kind: bool
    kong_replacement: bool
    robbing_kong: bool
    last_wall_tile: bool
    melded_sets: int  # claimed melds: chows, pungs, melded and added kongs
    kong_tiles: frozenset[int]
    standing: tuple[int, ...]  # the standing tiles by face, without the winning tile
    open_sets: int  # melds, concealed kongs included

    @property
    def unique_wait(self) -> bool:
        """Whether exactly one face finishes the standing tiles (asked only when a wait fan could count). Worked out
        each time it is asked: a cache of the last hands' answers, keyed by their standing tiles, missed on new hands
        and cost more than the few readings that ask twice."""
        return single_wait(self.standing, self.open_sets)


class View(NamedTuple):
    """Built once per reading."""

    facts: HandFacts
    form: str
    groups: tuple[Group, ...]
    chows: tuple[Group, ...]  # sorted by tile
    pungs: tuple[Group, ...]  # pungs and kongs, sorted by tile, concealed as they score
    pair: Group | None


def _kind_labels(kind: SetKind) -> tuple[str, ...]:
    if kind is SetKind.KNITTED:
        return tuple(tiles_label(ks) for ks in KNITTED_STRAIGHTS)
    if kind is SetKind.CHOW:
        return tuple(tiles_label((t, t + 1, t + 2)) if t < HONOR_START and t % 9 < 7 else "" for t in range(FACES))
    size = {SetKind.PUNG: 3, SetKind.KONG: 4, SetKind.PAIR: 2}[kind]
    return tuple(tiles_label((t,) * size) for t in range(FACES))


# label(g) for every kind (a SetKind is its place here) and lowest tile (a knitted straight: its number).
_LABELS: tuple[tuple[str, ...], ...] = tuple(_kind_labels(kind) for kind in SetKind)
