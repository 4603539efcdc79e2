"""Waits (听牌): what wins 13 held tiles and what each win is worth; for 14, which discard waits best.

A wait is a face that completes the tiles in any form the scorer reads, unless the hand holds all four
copies (it cannot be won). Each is scored as the scorer scores it, won on a discard and self-drawn, so a
wait shows whether it reaches 8. Tiles the player has seen (discards, others' melds) only change how many
copies are unseen, and make a win on the last unseen copy "last tile of its kind" (和绝张). Not ready, the
answer is the shanten number (``scoring.shanten``).

The request (`mcr waits`, ``POST /v1/waits``): ``{"hand": "<13 or 14 tiles in notation>" | {Hand JSON,
win_tile optional}, "seat_wind": "E", "prevalent_wind": "E", "discarder": "N", "flowers": 0 | ["1f", ...],
"seen": "<tiles>" | ["5p", ...]}``; all but ``hand`` optional.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from scoring.decompose import FACES, HONORS_AND_KNITTED, THIRTEEN_ORPHANS, Group
from scoring.patterns.situation import win_role
from scoring.hand import HandError, Situation
from scoring.held import Held
from scoring.notation import parse_held, parse_tiles
from scoring.request import answer_json, read_hand
from scoring.score import ScoreResult, score_reading, winning_faces
from scoring.shanten import shanten
from scoring.tiles import COPIES_PER_FACE, PLAYABLE, Tile, tile

FIELDS = frozenset({"hand", "seat_wind", "prevalent_wind", "discarder", "flowers", "seen"})
# How the winning tile finishes the reading it scores with; first in this order when it finishes two sets.
KINDS = ("edge", "closed", "single", "two_sided", "pung", "knitted", "thirteen_orphans")


@dataclass(frozen=True)
class Wait:
    """One winning tile: how it finishes the hand, copies unseen, and the win on a discard and self-drawn."""

    tile: Tile
    kind: str
    unseen: int
    discard: dict[str, Any]  # the `mcr score --json` answer of the win on a discard
    self_drawn: dict[str, Any]  # ... and self-drawn

    @property
    def reaches_eight(self) -> bool:
        """Whether the tile can be won on at all: at least 8 points on a discard or self-drawn."""
        return bool(self.discard["is_win"] or self.self_drawn["is_win"])

    def to_json(self) -> dict[str, Any]:
        return {"tile": self.tile.code, "kind": self.kind, "unseen": self.unseen, "discard": self.discard,
                "self_drawn": self.self_drawn}


@dataclass(frozen=True)
class Waits:
    """13 held tiles: ready or not, the shanten number (0 when ready), every winning tile in tile order."""

    ready: bool
    shanten: int
    waits: tuple[Wait, ...]

    @property
    def winning_tiles(self) -> int:
        """Unseen copies of the waits that reach 8: the tiles still left to win on."""
        return sum(w.unseen for w in self.waits if w.reaches_eight)

    def to_json(self) -> dict[str, Any]:
        return {"ready": self.ready, "shanten": self.shanten, "waits": [w.to_json() for w in self.waits]}


@dataclass(frozen=True)
class Discard:
    """One discard from 14 tiles and the waits of the 13 it leaves."""

    tile: Tile
    waits: Waits

    def rank(self) -> tuple[int, int, int, int, int]:
        """Best first: nearer ready, more tiles left to win on, more unseen waits, a higher win, tile order."""
        best = max((w.discard["total"] for w in self.waits.waits if w.reaches_eight), default=0)
        unseen = sum(w.unseen for w in self.waits.waits)
        return self.waits.shanten, -self.waits.winning_tiles, -unseen, -best, self.tile.index

    def to_json(self) -> dict[str, Any]:
        return {"tile": self.tile.code, "winning_tiles": self.waits.winning_tiles, **self.waits.to_json()}


def ready_waits(held: Held, situation: Situation | None = None, seen: Iterable[Tile] = ()) -> Waits:
    """The waits of 13 held tiles; ``situation`` gives the winds and the discarder, the win conditions are
    each win's own.

    >>> from scoring.notation import parse_held
    >>> [(w.tile.code, w.kind) for w in ready_waits(parse_held("123456789m23p55s")).waits]
    [('1p', 'two_sided'), ('4p', 'two_sided')]
    """
    if held.before_discard:
        raise HandError("14 tiles: discard one first (best_discards tells which)")
    base = situation or Situation()
    left = _unseen(held, seen)
    counts = _counts(held.concealed)
    found = tuple(_wait(held, base, t, left[t], counts[t.index] == 0) for t in winning_faces(held.concealed,
                                                                                              held.melds))
    if found:
        return Waits(True, 0, found)
    return Waits(False, max(1, shanten(counts, len(held.melds))), ())


def best_discards(held: Held, situation: Situation | None = None, seen: Iterable[Tile] = ()) -> tuple[Discard, ...]:
    """Each discard from 14 held tiles (one per face), best first (``Discard.rank``); the discarded copy
    counts as seen."""
    if not held.before_discard:
        raise HandError("13 tiles: nothing to discard (ask for the waits)")
    seen = tuple(seen)
    _unseen(held, seen)
    options = (Discard(t, ready_waits(held.without(t), situation, seen + (t,))) for t in dict.fromkeys(held.concealed))
    return tuple(sorted(options, key=Discard.rank))


def answer_waits(data: Any) -> dict[str, Any]:
    """The JSON answer to a waits request: `Waits.to_json` for 13 tiles; for 14, the tiles' own shanten
    (-1 when already complete) and every discard best first. A ``HandError`` names what is wrong."""
    held = read_hand(data, FIELDS, parse_held, Held.from_json)
    situation = Situation.from_json(data)
    seen = _read_seen(data.get("seen", []))
    if not held.before_discard:
        return ready_waits(held, situation, seen).to_json()
    options = best_discards(held, situation, seen)
    return {"shanten": shanten(_counts(held.concealed), len(held.melds)),
            "discards": [d.to_json() for d in options]}


def _wait(held: Held, base: Situation, t: Tile, unseen: int, last_of_kind: bool) -> Wait:
    hand = held.won_on(t)
    last = last_of_kind and unseen == 1
    wins = []
    for drawn in (False, True):
        situation = Situation(drawn, base.seat_wind, base.prevalent_wind, last,
                              discarder=None if drawn else base.discarder)
        result, groups = score_reading(hand, situation)
        wins.append((answer_json(hand, situation, result), result, groups))
    (on_discard, result, groups), (drawn_win, _, _) = wins
    return Wait(t, _kind(result, groups, t), unseen, on_discard, drawn_win)


def _kind(result: ScoreResult, groups: tuple[Group, ...], t: Tile) -> str:
    """How ``t`` finishes the reading the win scores with (``KINDS``)."""
    if result.form == THIRTEEN_ORPHANS:
        return "thirteen_orphans"
    if result.form == HONORS_AND_KNITTED:
        return "knitted"
    roles = {win_role(g, t.index) for g in groups if g.meld_index is None}
    return next(k for k in KINDS if k in roles)


def _counts(tiles: Iterable[Tile]) -> list[int]:
    counts = [0] * FACES
    for t in tiles:
        counts[t.index] += 1
    return counts


def _unseen(held: Held, seen: Iterable[Tile]) -> Counter[Tile]:
    """Copies of each face neither held nor seen; more seen than the set holds is a ``HandError``."""
    mine, shown = Counter(held.all_tiles), Counter(seen)
    for face, n in shown.items():
        if mine[face] + n > COPIES_PER_FACE:
            raise HandError(f"{n} copies of {face.code} seen and {mine[face]} held: a set has only {COPIES_PER_FACE}")
    return Counter({t: COPIES_PER_FACE - mine[t] - shown[t] for t in PLAYABLE})


def _read_seen(value: Any) -> tuple[Tile, ...]:
    """``seen`` as tiles written in runs (``"1155m E"``) or a list of tile codes."""
    if isinstance(value, str):
        return parse_tiles(value)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise HandError("seen must be tiles in notation (\"1155m E\") or a list of tile codes")
    faces = tuple(tile(v) for v in value)
    if any(not t.is_playable for t in faces):
        raise HandError("seen lists playable tiles only: no flowers or face-down tiles")
    return faces
