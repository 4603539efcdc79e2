"""Fans of how the hand was won: win conditions, concealment, and the wait.

Edge, Closed and Single Wait count only when exactly one face finishes the standing tiles
(``HandFacts.unique_wait``); the reading then says which: the winning tile completing a 1-2 or 8-9
edge (edge), the middle of a chow (closed), or the pair (single), in that order of preference.
"""

from __future__ import annotations

from scoring.decompose import Group, SetKind
from scoring.fans import Fan
from scoring.patterns.view import Found, HandFacts, View, add, rank, tiles_label


def win_fans(facts: HandFacts, found: Found) -> None:
    """Last tile draw/claim, replacement tile, robbing the kong, last tile, self-drawn, concealment."""
    win = tiles_label([facts.win])
    if facts.last_wall_tile:
        add(found, Fan.LAST_TILE_DRAW if facts.self_drawn else Fan.LAST_TILE_CLAIM, win)
    if facts.kong_replacement:
        add(found, Fan.OUT_WITH_REPLACEMENT_TILE, win)
    if facts.robbing_kong:
        add(found, Fan.ROBBING_THE_KONG, win)
    if facts.last_of_kind or facts.robbing_kong:
        add(found, Fan.LAST_TILE, win)
    if facts.melded_sets == 0:
        add(found, Fan.FULLY_CONCEALED_HAND if facts.self_drawn else Fan.CONCEALED_HAND, "nothing claimed")
    elif facts.melded_sets == 4 and not facts.self_drawn:
        add(found, Fan.MELDED_HAND, "four claimed sets, won on a discard")
    if facts.self_drawn:
        add(found, Fan.SELF_DRAWN, win)


def wait_fans(v: View, found: Found) -> None:
    """Edge, Closed or Single Wait, when the wait is unique."""
    facts = v.facts
    win = facts.win
    kinds: dict[int, Group] = {}
    for g in v.groups:
        if g.meld_index is not None:
            continue
        if g.kind is SetKind.CHOW:
            if win == g.tile + 1:
                kinds.setdefault(Fan.CLOSED_WAIT, g)
            elif (win == g.tile + 2 and rank(g.tile) == 0) or (win == g.tile and rank(g.tile) == 6):
                kinds.setdefault(Fan.EDGE_WAIT, g)
        elif g.kind is SetKind.PAIR and g.tile == win:
            kinds.setdefault(Fan.SINGLE_WAIT, g)
    if not kinds or not facts.unique_wait:
        return
    for fan in (Fan.EDGE_WAIT, Fan.CLOSED_WAIT, Fan.SINGLE_WAIT):
        if fan in kinds:
            add(found, fan, (kinds[fan],))
            return
