"""Fan patterns, grouped by family; ``reading_fans`` runs the per-reading ones in a fixed order."""

from __future__ import annotations

from scoring.patterns.chows import chow_fans
from scoring.patterns.pungs import all_pungs_fans, honor_fans, kong_fans, pung_pattern_fans
from scoring.patterns.shape import form_fans, nine_gates, set_trait_fans
from scoring.patterns.situation import wait_fans, win_fans
from scoring.patterns.tiles import tile_fans
from scoring.patterns.view import Found, HandFacts, View

__all__ = ["Found", "HandFacts", "View", "hand_fans", "reading_fans"]


def hand_fans(facts: HandFacts) -> Found:
    """The fans every reading of the hand shares: tile traits and win conditions."""
    found: Found = {}
    tile_fans(facts, found)
    nine_gates(facts, found)
    win_fans(facts, found)
    return found


def reading_fans(view: View) -> Found:
    """The fans one reading adds to the hand's shared ones."""
    found: Found = {}
    form_fans(view, found)
    chow_fans(view, found)
    pung_pattern_fans(view, found)
    honor_fans(view, found)
    kong_fans(view, found)
    all_pungs_fans(view, found)
    set_trait_fans(view, found)
    wait_fans(view, found)
    return found
