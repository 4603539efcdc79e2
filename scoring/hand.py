"""The values the scorer works on: a meld, a hand, and the situation in which it was won.

They are frozen and validated on construction, so anything that holds a ``Hand`` holds a hand that
can exist at a table (14 tiles counting each kong as 3, no fifth copy, well-formed melds). Whether it
is a *winning* hand is the scorer's question, not a construction error. The JSON form here is the
public contract shared by the scorer, the photo pipeline, the synthetic generator and the HTTP API.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache
from operator import attrgetter, eq
from typing import Any

from scoring.json_text import KeptJson
from scoring.tiles import BONUS, COPIES_PER_FACE, PLAYABLE_COUNT, Tile, tile


class HandError(ValueError):
    """A hand or situation that cannot exist; the message names the problem."""


class FifthCopyError(HandError):
    """More copies of a face than a set holds (4 of each playable tile, 1 of each flower)."""


class TileCountError(HandError):
    """The tiles do not add up to a finished hand (14, counting each kong as 3)."""


class MeldError(HandError):
    """A meld that is malformed (wrong size, not a run, bad source) or cannot be made."""


class SituationError(HandError):
    """Win conditions that contradict each other or the hand (e.g. a self-drawn robbing of the kong)."""


class MeldKind(str, Enum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"


WINDS: tuple[Tile, ...] = tuple(tile(c) for c in "ESWN")
HAND_SIZE = 14
FROM_FACES = -1  # Hand.flower_count: count the flower faces given
SETS_PER_HAND = 4


@dataclass(frozen=True)
class Meld:
    """A set laid on the table: a claimed chow/pung/kong, or a concealed kong (shown, but not claimed).

    ``source`` is who it was claimed from (1 = left, 2 = opposite, 3 = right; None when concealed);
    ``claimed`` is, for a chow, the index in ``tiles`` of the claimed tile; ``added`` marks a kong
    made by adding a drawn tile to a claimed pung.
    """

    kind: MeldKind
    tiles: tuple[Tile, ...]
    concealed: bool = False
    source: int | None = 1
    claimed: int | None = None
    added: bool = False

    def __post_init__(self) -> None:
        if self.kind is MeldKind.CHOW and self.claimed is None:
            object.__setattr__(self, "claimed", 0)
        if self.concealed and self.source is not None:
            object.__setattr__(self, "source", None)
        problem = _meld_problem(self)
        if problem:
            raise MeldError(f"impossible meld {'-'.join(t.code for t in self.tiles)}: {problem}")

    @property
    def first(self) -> Tile:
        return self.tiles[0]


_MELD_SIZES = {MeldKind.CHOW: 3, MeldKind.PUNG: 3, MeldKind.KONG: 4}


def _meld_problem(m: Meld) -> str | None:
    """Why a meld cannot exist, or None; one place for every meld rule."""
    if any(not t.is_playable for t in m.tiles):
        return "flowers and face-down tiles cannot be in a meld"
    size = _MELD_SIZES[m.kind]
    if len(m.tiles) != size:
        return f"a {m.kind.value} has {size} tiles, not {len(m.tiles)}"
    if m.kind is MeldKind.CHOW:
        a, b, c = m.tiles
        if not (a.is_suited and a.kind == b.kind == c.kind and (b.rank, c.rank) == (a.rank + 1, a.rank + 2)):
            return "a chow is three consecutive tiles of one suit, in rank order"
        if m.concealed:
            return "a chow on the table is always claimed"
        if m.source != 1:
            return "a chow can only be claimed from the player on the left (1)"
        if m.claimed not in (0, 1, 2):
            return "the claimed tile of a chow is at index 0, 1 or 2"
    else:
        if len(set(m.tiles)) != 1:
            return f"a {m.kind.value} is {size} copies of one tile"
        if m.claimed is not None:
            return "only a chow says which of its tiles was claimed"
        if m.concealed and (m.kind is MeldKind.PUNG or m.added):
            return "only a kong made of four drawn tiles is concealed"
    if m.added and m.kind is not MeldKind.KONG:
        return "only a kong can be added to a pung"
    if not m.concealed and m.source not in (1, 2, 3):
        return "a claimed set comes from 1 (left), 2 (opposite) or 3 (right)"
    return None


@dataclass(frozen=True)
class Hand:
    """A finished hand: standing tiles (without the winning tile), melds, the winning tile, flowers.

    ``flowers`` holds the flower/season faces when known; ``flower_count`` is how many were drawn
    (``FROM_FACES``, the default, means ``len(flowers)``; larger when only a count was given).
    """

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    win_tile: Tile
    flowers: tuple[Tile, ...] = ()
    flower_count: int = FROM_FACES

    def __post_init__(self) -> None:
        settle(self)
        _validate_hand(self)

    @property
    def all_tiles(self) -> tuple[Tile, ...]:
        """Every playable tile of the hand, the winning tile included (a kong gives 4)."""
        return self.concealed + tuple([t for m in self.melds for t in m.tiles]) + (self.win_tile,)

    def won_on(self, tile: Tile) -> Hand:
        """The same tiles won on ``tile``, one of the standing tiles (the winning tile taken before stands in its
        place): a photo whose winning tile is not set apart shows the tiles, not which came last."""
        if tile is self.win_tile:
            return self
        standing = list(self.concealed)
        if tile not in standing:
            raise HandError(f"the winning tile {tile.code} is not among the standing tiles")
        standing.remove(tile)
        return replace(self, concealed=(*standing, self.win_tile), win_tile=tile)

    def with_flower_count(self, count: int) -> Hand:
        """The same tiles with ``count`` flowers drawn: the faces read kept where there are no more of them than that
        (a photo may show fewer than were drawn, or show tiles the player says are not theirs)."""
        flowers = self.flowers if len(self.flowers) <= count else ()
        return replace(self, flowers=flowers, flower_count=check_flower_count(count))

    def to_json(self) -> dict[str, Any]:
        """The public Hand JSON form (see the README)."""
        return {
            "concealed": [t.code for t in self.concealed],
            "melds": [meld_to_json(m) for m in self.melds],
            "win_tile": self.win_tile.code,
            "flowers": flowers_json(self.flowers, self.flower_count),
        }

    @classmethod
    def from_json(cls, data: Any) -> Hand:
        """Read the Hand JSON form; any missing or malformed field is a ``HandError`` naming it."""
        concealed, melds, win, flowers, count = read_hand_json(data, win_required=True)
        assert win is not None
        return cls(concealed, melds, win, flowers, count)


def read_hand_json(
    data: Any, win_required: bool
) -> tuple[tuple[Tile, ...], tuple[Meld, ...], Tile | None, tuple[Tile, ...], int]:
    """The parts of the Hand JSON form: standing tiles, melds, the winning tile (None when absent and not
    required), the flower faces and the flower count; shared by ``Hand`` and ``scoring.held.Held``."""
    if not isinstance(data, dict):
        raise HandError("a hand is a JSON object with concealed, melds, win_tile and flowers")
    unknown = set(data) - {"concealed", "melds", "win_tile", "flowers"}
    if unknown:
        raise HandError(f"unknown hand field(s): {', '.join(sorted(unknown))}")
    if win_required and "win_tile" not in data:
        raise HandError("the hand has no win_tile")
    melds = data.get("melds", [])
    if not isinstance(melds, list):
        raise HandError("melds must be a list")
    flowers = data.get("flowers", [])
    if isinstance(flowers, bool) or not isinstance(flowers, (int, list)):
        raise HandError("flowers must be a count or a list of 1f-8f")
    tiles = _codes(data.get("concealed", []), "concealed")
    win = _codes([data["win_tile"]], "win_tile")[0] if "win_tile" in data else None
    read = tuple(_meld_from_json(m) for m in melds)
    if isinstance(flowers, int):
        return tiles, read, win, (), check_flower_count(flowers)
    return tiles, read, win, _codes(flowers, "flowers"), FROM_FACES


_index = attrgetter("index")
_BONUS_FACES = frozenset(map(_index, BONUS))


def settle(held: Any) -> None:
    """Put a frozen ``Hand`` (or ``Held``) in canonical order, so two reports of the same tiles are equal, and
    count its flowers from their faces unless a count was given."""
    object.__setattr__(held, "concealed", tuple(sorted(held.concealed, key=_index)))
    object.__setattr__(held, "flowers", tuple(sorted(held.flowers, key=_index)))
    if held.flower_count == FROM_FACES:
        object.__setattr__(held, "flower_count", len(held.flowers))


def flowers_json(flowers: tuple[Tile, ...], count: int) -> list[str] | int:
    """Flowers in JSON: their codes when every one is known, else just how many."""
    return [t.code for t in flowers] if len(flowers) == count else count


def check_flower_count(n: int) -> int:
    """A flower count given by a user: 0-8."""
    if not 0 <= n <= 8:
        raise HandError(f"flower count {n}: must be 0-8")
    return n


def _codes(values: Any, where: str) -> tuple[Tile, ...]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise HandError(f"{where} must be a list of tile codes")
    return tuple(tile(v) for v in values)


def meld_to_json(m: Meld) -> dict[str, Any]:
    return {
        "kind": m.kind.value,
        "tiles": [t.code for t in m.tiles],
        "concealed": m.concealed,
        "from": m.source,
        "claimed": m.claimed,
        "added": m.added,
    }


def _meld_from_json(data: Any) -> Meld:
    if not isinstance(data, dict) or "kind" not in data or "tiles" not in data:
        raise MeldError("a meld is a JSON object with at least kind and tiles")
    try:
        kind = MeldKind(data["kind"])
    except ValueError:
        raise MeldError(f"unknown meld kind {data['kind']!r}: use chow, pung or kong") from None
    concealed = data.get("concealed", False)
    source = data.get("from", None if concealed else 1)
    added = data.get("added", False)
    claimed = data.get("claimed")
    for name, value, types in (("concealed", concealed, bool), ("added", added, bool)):
        if not isinstance(value, types):
            raise MeldError(f"meld field {name} must be true or false")
    for name, value in (("from", source), ("claimed", claimed)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise MeldError(f"meld field {name} must be an integer or null")
    return Meld(kind, _codes(data["tiles"], "meld tiles"), concealed, source, claimed, added)


def _validate_hand(hand: Hand) -> None:
    if not hand.win_tile.is_playable:
        raise HandError(f"the winning tile {hand.win_tile.code} is not a playable tile")
    check_tiles(hand.concealed, hand.melds, hand.all_tiles, hand.flowers, hand.flower_count, (HAND_SIZE - 1,),
                " plus the winning tile")


def check_tiles(
    concealed: tuple[Tile, ...],
    melds: tuple[Meld, ...],
    all_tiles: tuple[Tile, ...],
    flowers: tuple[Tile, ...],
    flower_count: int,
    sizes: tuple[int, ...],
    what_else: str,
) -> None:
    """Raise a ``HandError`` naming the first way the tiles cannot be held at a table: a flower standing, more
    than four sets, a count (each kong as 3) that is none of ``sizes``, a fifth copy, a bad flower."""
    if concealed and concealed[-1].index >= PLAYABLE_COUNT:  # settled (`settle`): the highest face last
        bad = [t.code for t in concealed if t.index >= PLAYABLE_COUNT]
        raise HandError(f"standing tiles must be playable; remove {', '.join(bad)} (flowers go in flowers)")
    if len(melds) > SETS_PER_HAND:
        raise TileCountError(f"{len(melds)} melds: a hand has at most {SETS_PER_HAND} sets")
    if len(concealed) + 3 * len(melds) not in sizes:
        expected = [size - 3 * len(melds) for size in sizes]
        raise TileCountError(
            f"{len(concealed)} standing tiles with {len(melds)} meld(s): expected "
            f"{' or '.join(map(str, expected))}{what_else}"
        )
    faces = sorted(map(_index, all_tiles))
    if any(map(eq, faces, faces[COPIES_PER_FACE:])):  # sorted: a face held five times spans five places
        face = next(t for t in all_tiles if faces.count(t.index) > COPIES_PER_FACE)  # the first written
        raise FifthCopyError(f"{faces.count(face.index)} copies of {face.code}: a set has only {COPIES_PER_FACE}")
    if flowers:
        if not _BONUS_FACES.issuperset(map(_index, flowers)):
            raise HandError("flowers must be flower or season tiles 1f-8f")
        if len(set(map(_index, flowers))) < len(flowers):
            face = next(t for t in flowers if flowers.count(t) > 1)
            raise FifthCopyError(f"flower {face.code} appears {flowers.count(face)} times: there is one of each")
    if not len(flowers) <= flower_count <= 8:
        raise HandError(f"flower count {flower_count}: must be 0-8 and at least the flowers listed")


@dataclass(frozen=True)
class Situation(KeptJson):
    """How the hand was won: the win conditions a referee asks about, checked for contradictions.

    ``discarder`` is the seat wind of the player whose discard won (only for a win on a discard);
    left unset it is the player on the winner's left, who plays just before them.
    """

    self_drawn: bool = False
    seat_wind: Tile = WINDS[0]
    prevalent_wind: Tile = WINDS[0]
    last_of_kind: bool = False
    kong_replacement: bool = False
    robbing_kong: bool = False
    last_wall_tile: bool = False
    discarder: Tile | None = None

    def __post_init__(self) -> None:
        for name in ("seat_wind", "prevalent_wind", "discarder"):
            value = getattr(self, name)
            if value is not None and value not in WINDS:
                raise SituationError(f"{name} must be a wind E, S, W or N, not {value}")
        problem = _situation_problem(self)
        if problem:
            raise SituationError(problem)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Situation:
        """Read the situation fields of a score request (see the README); others are ignored here."""
        values = tuple(map(data.get, _REQUEST_NAMES, _REQUEST_DEFAULTS))  # each field, or its default
        if _WORDS.issuperset(map(type, values)):  # hashable, and no two such values of other types are equal
            return _situation(*values)
        return _situation.__wrapped__(*values)

    def to_json(self) -> dict[str, Any]:
        return {
            "win": "self_drawn" if self.self_drawn else "discard",
            "seat_wind": self.seat_wind.code,
            "prevalent_wind": self.prevalent_wind.code,
            "last_of_kind": self.last_of_kind,
            "kong_replacement": self.kong_replacement,
            "robbing_kong": self.robbing_kong,
            "last_wall_tile": self.last_wall_tile,
            "discarder": self.discarder.code if self.discarder else None,
        }

    @property
    def paying_discarder(self) -> Tile | None:
        """Who discarded the winning tile: None when self-drawn."""
        if self.self_drawn:
            return None
        if self.discarder is not None:
            return self.discarder
        return WINDS[(self.seat_wind.rank - 2) % 4]  # a wind's rank is its place in E S W N, from 1

    def check_against(self, hand: Hand) -> None:
        """Raise ``SituationError`` if the win conditions cannot hold for this hand."""
        win = hand.win_tile  # tiles are singletons: identity is equality
        if self.kong_replacement and not any(m.kind is MeldKind.KONG for m in hand.melds):
            raise SituationError("out with a replacement tile needs a kong in the hand")
        if self.robbing_kong and sum(1 for t in hand.all_tiles if t is win) > 1:
            raise SituationError(
                f"robbing the kong: the other copies of {hand.win_tile.code} are in the robbed kong, not in this hand"
            )
        if self.last_of_kind and any(t is win for t in hand.concealed):
            raise SituationError(
                f"last tile of its kind: a copy of {hand.win_tile.code} in the standing hand means at most "
                f"two others were visible"
            )


_CONDITIONS = ("last_of_kind", "kong_replacement", "robbing_kong", "last_wall_tile")
_REQUEST_FIELDS = (("win", "discard"), *((name, False) for name in _CONDITIONS),
                   ("seat_wind", None), ("prevalent_wind", None), ("discarder", None))
_REQUEST_NAMES, _REQUEST_DEFAULTS = zip(*_REQUEST_FIELDS)
_WORDS = frozenset((str, bool, type(None)))


# Requests name a few thousand situations at most: each is read and checked once. Only a valid one is kept (a
# field that fails raises), so a key's text is a wind or win word, never a long string a request made up.
@lru_cache(maxsize=4096)
def _situation(win: Any, *values: Any) -> Situation:
    """The ``Situation`` of a request's fields in ``_REQUEST_FIELDS`` order, each type checked."""
    if win not in ("discard", "self_drawn"):
        raise SituationError(f"win must be 'discard' or 'self_drawn', not {win!r}")
    for name, value in zip(_CONDITIONS, values):
        if not isinstance(value, bool):
            raise SituationError(f"{name} must be true or false")
    winds = {}
    for name, value in zip(("seat_wind", "prevalent_wind", "discarder"), values[len(_CONDITIONS):]):
        if value is not None and not isinstance(value, str):
            raise SituationError(f"{name} must be a wind code E, S, W or N")
        winds[name] = tile(value) if value is not None else None
    return Situation(
        self_drawn=win == "self_drawn",
        seat_wind=winds["seat_wind"] or WINDS[0],
        prevalent_wind=winds["prevalent_wind"] or WINDS[0],
        discarder=winds["discarder"],
        **dict(zip(_CONDITIONS, values)),
    )


def _situation_problem(s: Situation) -> str | None:
    if s.robbing_kong and s.self_drawn:
        return "robbing the kong wins on another player's kong tile, so it cannot be self-drawn"
    if s.kong_replacement and not s.self_drawn:
        return "out with a replacement tile is a self-drawn win"
    if s.robbing_kong and s.last_wall_tile:
        return "no kong can be declared on the last tile of the wall, so it cannot be robbed"
    if s.discarder is not None and s.self_drawn:
        return "a self-drawn win has no discarder"
    if s.discarder is not None and s.discarder == s.seat_wind:
        return "the discarder cannot be the winner"
    return None
