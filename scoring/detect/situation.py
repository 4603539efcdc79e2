"""Fans of how the hand was won: win conditions, concealment, and the wait.

Edge, Closed and Single Wait count only when exactly one face finishes the standing tiles
(``HandFacts.unique_wait``); the reading then says which: the winning tile completing a 1-2 or 8-9
edge (edge), the middle of a chow (closed), or the pair (single), in that order of preference.
"""

from __future__ import annotations

from scoring.decompose import Group, SetKind
from scoring.detect.view import Found, HandFacts, View, add, rank, tiles_label


def win_fans(facts: HandFacts, found: Found) -> None:
    """Last tile draw/claim, replacement tile, robbing the kong, last tile, self-drawn, concealment."""
    win = tiles_label([facts.win])
    if facts.last_wall_tile:
        add(found, 44 if facts.self_drawn else 45, win)
    if facts.kong_replacement:
        add(found, 46, win)
    if facts.robbing_kong:
        add(found, 47, win)
    if facts.last_of_kind or facts.robbing_kong:
        add(found, 58, win)
    if facts.melded_sets == 0:
        add(found, 56 if facts.self_drawn else 62, "nothing claimed")
    elif facts.melded_sets == 4 and not facts.self_drawn:
        add(found, 52, "four claimed sets, won on a discard")
    if facts.self_drawn:
        add(found, 80, win)


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
                kinds.setdefault(78, g)
            elif (win == g.tile + 2 and rank(g.tile) == 0) or (win == g.tile and rank(g.tile) == 6):
                kinds.setdefault(77, g)
        elif g.kind is SetKind.PAIR and g.tile == win:
            kinds.setdefault(79, g)
    if not kinds or not facts.unique_wait:
        return
    for fan in (77, 78, 79):
        if fan in kinds:
            add(found, fan, (kinds[fan],))
            return
