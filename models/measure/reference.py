"""Adapter to the reference calculator PyMahjongGB (dev dependency): our Hand/Situation in, fan ids out.

Its English names differ from the rulebook's in three places (mcr-fans.md); those are mapped here.
"""

from __future__ import annotations

from collections import Counter

import MahjongGB

from scoring.fans import FANS
from scoring.hand import WINDS, Hand, MeldKind, Situation
from scoring.tiles import Kind, Tile

_SUIT = {Kind.CHARACTERS: "W", Kind.DOTS: "B", Kind.BAMBOO: "T"}
_ID_BY_EN = {f.en: f.id for f in FANS} | {"All Five": 31, "Robbing The Kong": 47, "Two Dragons Pungs": 54}


def code(t: Tile) -> str:
    if t.is_suited:
        return f"{_SUIT[t.kind]}{t.rank}"
    return f"F{t.rank}" if t.kind is Kind.WIND else f"J{t.rank}"


def pack(m) -> tuple[str, str, int]:
    if m.kind is MeldKind.CHOW:
        return ("CHI", code(m.tiles[1]), (m.claimed or 0) + 1)
    if m.kind is MeldKind.PUNG:
        return ("PENG", code(m.first), m.source)
    return ("GANG", code(m.first), 0 if m.concealed else m.source)


def reference_args(hand: Hand, situation: Situation) -> tuple:
    """The arguments of ``MahjongGB.MahjongFanCalculator`` for a hand, flowers left out."""
    return (
        tuple(pack(m) for m in hand.melds),
        tuple(code(t) for t in hand.concealed),
        code(hand.win_tile),
        0,
        situation.self_drawn,
        situation.last_of_kind or situation.robbing_kong,
        situation.kong_replacement or situation.robbing_kong,
        situation.last_wall_tile,
        WINDS.index(situation.seat_wind),
        WINDS.index(situation.prevalent_wind),
        True,
    )


def reference_fans(hand: Hand, situation: Situation) -> Counter[int]:
    """The reference's fans as {fan id: count}, flowers left out; raises on what it calls a non-win."""
    result = MahjongGB.MahjongFanCalculator(*reference_args(hand, situation))
    fans: Counter[int] = Counter()
    for _points, count, _zh, en in result:
        fans[_ID_BY_EN[en]] += count
    return fans
