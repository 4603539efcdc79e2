"""The tiles a player holds between turns: 13 (is it ready, and on what) or 14 (which tile to discard).

A ``Held`` is a ``Hand`` before its winning tile: the same standing tiles, melds and flowers, the same checks
(no fifth copy, well-formed melds), but 13 or 14 tiles counting each kong as 3 and no winning tile. Its
JSON form is the Hand JSON form with ``win_tile`` optional: given, it is one more standing tile.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from scoring.hand import (
    FROM_FACES,
    HAND_SIZE,
    Hand,
    Meld,
    check_tiles,
    flowers_json,
    meld_to_json,
    read_hand_json,
    settle,
)
from scoring.tiles import Tile

READY_SIZE = HAND_SIZE - 1


@dataclass(frozen=True)
class Held:
    """Standing tiles, melds and flowers, as in ``Hand``; ``flower_count`` as there."""

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    flowers: tuple[Tile, ...] = ()
    flower_count: int = FROM_FACES

    def __post_init__(self) -> None:
        settle(self)
        check_tiles(self.concealed, self.melds, self.all_tiles, self.flowers, self.flower_count,
                    (READY_SIZE, HAND_SIZE), " (13 tiles to ask what wins, 14 to choose a discard)")

    @property
    def all_tiles(self) -> tuple[Tile, ...]:
        """Every playable tile held, a kong giving 4."""
        return self.concealed + tuple(t for m in self.melds for t in m.tiles)

    @property
    def before_discard(self) -> bool:
        """14 tiles (kongs as 3): one must go before the hand can wait."""
        return len(self.concealed) + 3 * len(self.melds) == HAND_SIZE

    def won_on(self, win: Tile) -> Hand:
        """The 13 tiles as a finished hand won on ``win`` (a ``HandError`` if that cannot be)."""
        return Hand(self.concealed, self.melds, win, self.flowers, self.flower_count)

    def without(self, discard: Tile) -> Held:
        """The 14 tiles less one standing copy of ``discard``."""
        at = self.concealed.index(discard)
        return replace(self, concealed=self.concealed[:at] + self.concealed[at + 1 :])

    def to_json(self) -> dict[str, Any]:
        return {
            "concealed": [t.code for t in self.concealed],
            "melds": [meld_to_json(m) for m in self.melds],
            "flowers": flowers_json(self.flowers, self.flower_count),
        }

    @classmethod
    def from_json(cls, data: Any) -> Held:
        """The Hand JSON form, ``win_tile`` optional (counted as a standing tile when given)."""
        concealed, melds, win, flowers, count = read_hand_json(data, win_required=False)
        return cls(concealed + ((win,) if win else ()), melds, flowers, count)
