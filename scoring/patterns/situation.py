"""Fans of how the hand was won: win conditions, concealment, and the wait.

Edge, Closed and Single Wait count only when exactly one face finishes the standing tiles
(``HandFacts.unique_wait``); the reading then says which (``win_role``): the winning tile completing a 1-2
or 8-9 edge (edge), the middle of a chow (closed), or the pair (single), in that order of preference.
"""

from __future__ import annotations

from scoring.decompose import KNITTED_STRAIGHTS, Group
from scoring.fans import Fan
from scoring.patterns.view import Found, HandFacts, View, add, rank
from scoring.suits import CHOW, KNITTED, PAIR
from scoring.tiles import PLAYABLE


def win_fans(facts: HandFacts, found: Found) -> None:
    """Last tile draw/claim, replacement tile, robbing the kong, last tile, self-drawn, concealment."""
    win = PLAYABLE[facts.win].code
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


_WAIT_FANS = {"edge": Fan.EDGE_WAIT, "closed": Fan.CLOSED_WAIT, "single": Fan.SINGLE_WAIT}  # in the order one is chosen when several could be


def win_role(g: Group, win: int) -> str | None:
    """How the winning tile finishes a standing group: ``edge`` (3 of 123, 7 of 789), ``closed`` (a chow's
    middle), ``two_sided`` (a chow's other end), ``single`` (the pair), ``pung``, ``knitted`` (a knitted
    straight's gap); None when the group does not hold it."""
    if g.kind is CHOW:
        if win == g.tile + 1:
            return "closed"
        if (win == g.tile + 2 and rank(g.tile) == 0) or (win == g.tile and rank(g.tile) == 6):
            return "edge"
        return "two_sided" if win in (g.tile, g.tile + 2) else None
    if g.kind is KNITTED:
        return "knitted" if win in KNITTED_STRAIGHTS[g.tile] else None
    if g.tile != win:
        return None
    return "single" if g.kind is PAIR else "pung"


def wait_fans(v: View, found: Found) -> None:
    """Edge, Closed or Single Wait, when the wait is unique."""
    facts = v.facts
    roles: dict[str, Group] = {}
    win = facts.win
    for g in v.groups:
        if g.meld_index is None and (g.tile <= win <= g.tile + 2 or g.kind is KNITTED):  # it may hold win
            role = win_role(g, win)
            if role in _WAIT_FANS:
                roles.setdefault(role, g)
    if not roles or not facts.unique_wait:
        return
    role = next(r for r in _WAIT_FANS if r in roles)
    add(found, _WAIT_FANS[role], (roles[role],))
