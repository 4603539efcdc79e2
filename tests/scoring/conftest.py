"""Helpers the scoring tests share."""

from __future__ import annotations

from scoring import Situation
from scoring.tiles import tile


def situation(flags: str) -> Situation:
    """A situation from short flags: ``sd`` (self-drawn), ``seat=S``, ``round=W``, or any `Situation` field set."""
    fields: dict = {}
    for flag in flags.split():
        if flag == "sd":
            fields["self_drawn"] = True
        elif flag.startswith("seat="):
            fields["seat_wind"] = tile(flag[5:])
        elif flag.startswith("round="):
            fields["prevalent_wind"] = tile(flag[6:])
        else:
            fields[flag] = True
    return Situation(**fields)
