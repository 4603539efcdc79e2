"""A referee's score sheet for one MCR match: four players, sixteen hands, what each entry pays, the standings.

The rules (seed 004, the MIL 2015 competition rules; the payouts are ``scoring.score``'s):
- Four rounds of four hands, the prevalent wind E, S, W, N in turn. The deal passes after every hand, won or
  drawn (no dealer repeat): the player who is South in one hand is East in the next.
- Before rounds 2, 3 and 4 the players change seats (``SEAT_CHANGES``), so each sits in every seat once.
- A win on a discard: the discarder pays 8 + the hand's value, the two others 8 each; self-drawn, all three
  pay 8 + value. A false win: the caller pays 10 to each other player and the hand goes on. A referee's
  penalty: points taken from one player, paid to no one. A drawn hand pays nothing.
- Standings by total score, with table points 4, 2, 1, 0; players tied share the points of the places they fill.

A ``Match`` is a value: ``add`` and ``undo`` return a new one. Players are named by their index 0-3, in the
order given: their seats E, S, W, N in the first hand.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from scoring.hand import WINDS, HandError, Situation
from scoring.request import read_request
from scoring.score import false_win_payouts, score, win_payouts
from scoring.tiles import Tile

PLAYERS = 4
HANDS_PER_ROUND = 4
MATCH_HANDS = 16
TABLE_POINTS = (4, 2, 1, 0)
# Before rounds 2, 3 and 4, the seat each seat's player moves to (0 E, 1 S, 2 W, 3 N, as at a round's start).
SEAT_CHANGES = (
    (1, 0, 3, 2),  # East and South swap, West and North swap
    (2, 3, 1, 0),  # East and South to the opposite seats, West to South's seat, North to East's
    (1, 0, 3, 2),  # East and South swap, West and North swap
)
CONDITIONS = ("last_of_kind", "kong_replacement", "robbing_kong", "last_wall_tile")
WIN_SOURCES = ("points", "typed", "scan")  # a win's value typed, or scored from typed or scanned tiles


class MatchError(ValueError):
    """An entry the sheet cannot take, or a sheet that cannot be; the message names the problem."""


class EntryKind(str, Enum):
    WIN = "win"
    DRAW = "draw"
    FALSE_WIN = "false_win"
    PENALTY = "penalty"


@dataclass(frozen=True)
class Entry:
    """One line of the sheet. A win or a draw ends its hand; a false win or a penalty does not."""

    kind: EntryKind
    player: int | None = None  # the winner, the false win's caller, the penalised player
    discarder: int | None = None  # a win on a discard: who discarded; None when self-drawn
    value: int | None = None  # a win: the hand's value, flowers included; a penalty: the points taken
    reason: str | None = None  # a penalty's
    source: str | None = None  # a win: one of WIN_SOURCES
    hand: str | None = None  # a win scored from its tiles: their notation
    flowers: int | None = None  # ... and a flower count, when the notation does not show the flowers
    conditions: tuple[str, ...] = ()  # ... and the win conditions (CONDITIONS) that held

    @property
    def ends_hand(self) -> bool:
        return self.kind in (EntryKind.WIN, EntryKind.DRAW)


@dataclass(frozen=True)
class Row:
    """An entry as the sheet shows it: the hand it belongs to, the seats then, what it paid, the totals after."""

    number: int
    hand_number: int  # 1-16
    prevalent_wind: Tile
    seat_winds: tuple[Tile, ...]  # by player
    entry: Entry
    deltas: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class Standing:
    player: int
    name: str
    score: int
    rank: int  # 1 + the number of players with more points
    table_points: float


def _seating() -> tuple[tuple[int, ...], ...]:
    """The player in each seat at the start of each round."""
    rounds = [tuple(range(PLAYERS))]
    for moves in SEAT_CHANGES:
        after = [0] * PLAYERS
        for seat, player in enumerate(rounds[-1]):
            after[moves[seat]] = player
        rounds.append(tuple(after))
    return tuple(rounds)


SEATING = _seating()


def seat_winds(hand: int) -> tuple[Tile, ...]:
    """Each player's seat wind in hand ``hand`` (0-15): the round's seating, the deal passed on ``hand % 4`` times.

    >>> [w.code for w in seat_winds(4)]  # round 2, first hand: the first two players and the last two swapped
    ['S', 'E', 'N', 'W']
    """
    deals = hand % HANDS_PER_ROUND
    winds: list[Tile] = [WINDS[0]] * PLAYERS
    for seat, player in enumerate(SEATING[hand // HANDS_PER_ROUND]):
        winds[player] = WINDS[(seat - deals) % PLAYERS]
    return tuple(winds)


def prevalent_wind(hand: int) -> Tile:
    return WINDS[hand // HANDS_PER_ROUND]


def win_situation(hand: int, winner: int, discarder: int | None, conditions: tuple[str, ...] = ()) -> Situation:
    """The situation of a win in hand ``hand``: the winner's seat, the round, who discarded (None: self-drawn)."""
    winds = seat_winds(hand)
    flags = {name: True for name in conditions}
    return Situation(self_drawn=discarder is None, seat_wind=winds[winner], prevalent_wind=prevalent_wind(hand),
                     discarder=None if discarder is None else winds[discarder], **flags)


@dataclass(frozen=True)
class Match:
    """Four players and the entries so far."""

    players: tuple[str, ...]
    entries: tuple[Entry, ...] = ()
    name: str = ""

    def __post_init__(self) -> None:
        names = [p.strip() if isinstance(p, str) else p for p in self.players]
        if len(names) != PLAYERS or not all(isinstance(p, str) and p for p in names):
            raise MatchError("a match has four players, each with a name")
        if len({p.casefold() for p in names}) != PLAYERS:
            raise MatchError(f"two players have the same name: {', '.join(names)}")
        object.__setattr__(self, "players", tuple(names))

    @property
    def hands_played(self) -> int:
        return sum(e.ends_hand for e in self.entries)

    @property
    def is_over(self) -> bool:
        return self.hands_played == MATCH_HANDS

    def add(self, entry: Entry) -> Match:
        """The match with ``entry`` added; a ``MatchError`` names why it cannot be."""
        problem = _problem(self, entry)
        if problem:
            raise MatchError(problem)
        return replace(self, entries=self.entries + (entry,))

    def undo(self) -> Match:
        """The match without its last entry."""
        if not self.entries:
            raise MatchError("nothing to undo: the sheet is empty")
        return replace(self, entries=self.entries[:-1])

    def rows(self) -> tuple[Row, ...]:
        rows: list[Row] = []
        totals = (0,) * PLAYERS
        hand = 0
        for number, entry in enumerate(self.entries, 1):
            at = min(hand, MATCH_HANDS - 1)  # a penalty after the last hand belongs to it
            deltas = _deltas(at, entry)
            totals = tuple(t + d for t, d in zip(totals, deltas))
            rows.append(Row(number, at + 1, prevalent_wind(at), seat_winds(at), entry, deltas, totals))
            hand += entry.ends_hand
        return tuple(rows)

    def totals(self) -> tuple[int, ...]:
        rows = self.rows()
        return rows[-1].totals if rows else (0,) * PLAYERS

    def standings(self) -> tuple[Standing, ...]:
        """Best first; table points shared between tied players (final only once the match is over)."""
        totals = self.totals()
        order = sorted(range(PLAYERS), key=lambda p: (-totals[p], p))
        found = []
        for p in order:
            places = [i for i, q in enumerate(order) if totals[q] == totals[p]]
            shared = sum(TABLE_POINTS[i] for i in places) / len(places)
            found.append(Standing(p, self.players[p], totals[p], places[0] + 1, round(shared, 2)))
        return tuple(found)


def win_entry(match: Match, winner: int | None, discarder: int | None, *, value: int | None = None,
              hand: str | None = None, flowers: int | None = None, conditions: tuple[str, ...] = (),
              source: str = "typed") -> Entry:
    """A win of the match's current hand: its value typed, or scored from ``hand`` (notation) in the
    situation the sheet knows (seats, round, discarder) and the ``conditions`` given."""
    if hand is None:
        return Entry(EntryKind.WIN, winner, discarder, value, source="points")
    entry = Entry(EntryKind.WIN, winner, discarder, None, source=source, hand=hand, flowers=flowers,
                  conditions=tuple(c for c in CONDITIONS if c in conditions))
    problem = _seats_problem(entry)
    if problem:
        raise MatchError(problem)
    return replace(entry, value=_scored_value(match.hands_played, entry))


def score_request(hand: int, entry: Entry) -> dict[str, object]:
    """The `mcr score` request of a win scored from its tiles, in hand ``hand`` (0-15)."""
    assert entry.player is not None, "a win's entry names its winner"
    request = {"hand": entry.hand, **win_situation(hand, entry.player, entry.discarder, entry.conditions).to_json()}
    return request | ({"flowers": entry.flowers} if entry.flowers is not None else {})


def _scored_value(hand: int, entry: Entry) -> int:
    """The value of a win's tiles as the scorer finds it; a false win or an impossible hand is a ``MatchError``."""
    unknown = sorted(set(entry.conditions) - set(CONDITIONS))
    if unknown:
        raise MatchError(f"unknown win condition(s): {', '.join(unknown)}")
    try:
        tiles, situation = read_request(score_request(hand, entry))
        result = score(tiles, situation)
    except HandError as exc:
        raise MatchError(f"the winning hand: {exc}") from None
    if not result.is_win:
        raise MatchError(f"the hand {entry.hand} is not a win ({result.error.value if result.error else ''}): "
                         f"record a false win instead")
    return result.total


_OPTIONAL = ("player", "discarder", "value", "reason", "source", "hand", "flowers", "conditions")
_FIELDS = {  # the fields each kind of entry has
    EntryKind.WIN: frozenset(_OPTIONAL) - {"reason"},
    EntryKind.DRAW: frozenset(),
    EntryKind.FALSE_WIN: frozenset({"player"}),
    EntryKind.PENALTY: frozenset({"player", "value", "reason"}),
}


def _player_problem(value: object, what: str) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < PLAYERS:
        return f"the {what} must be a player 0-3, not {value!r}"
    return None


def _seats_problem(e: Entry) -> str | None:
    """Why a win's winner or discarder is not a player (or the same one), or None."""
    if problem := _player_problem(e.player, "winner"):
        return problem
    if e.discarder is not None and (_player_problem(e.discarder, "discarder") or e.discarder == e.player):
        return f"the discarder must be another player 0-3, not {e.discarder!r}"
    return None


def _problem(match: Match, e: Entry) -> str | None:
    """Why the sheet cannot take the entry now, or None."""
    if match.is_over and e.kind is not EntryKind.PENALTY:
        return f"the match is over ({MATCH_HANDS} hands): only a penalty can still be added"
    extra = [name for name in _OPTIONAL if getattr(e, name) not in (None, ()) and name not in _FIELDS[e.kind]]
    if extra:
        return f"a {e.kind.value.replace('_', ' ')} has no {', '.join(extra)}"
    if e.kind is EntryKind.DRAW:
        return None
    problem = _player_problem(e.player, "player")
    if problem or e.kind is EntryKind.FALSE_WIN:
        return problem
    value = e.value if isinstance(e.value, int) and not isinstance(e.value, bool) else None
    if e.kind is EntryKind.PENALTY:
        if value is None or value <= 0:
            return f"a penalty takes a positive whole number of points, not {e.value!r}"
        return None if isinstance(e.reason, str) and e.reason.strip() else "a penalty needs a reason"
    if problem := _seats_problem(e):
        return problem
    if value is None or value < 8:
        return f"a win is worth at least 8 points, not {e.value!r}"
    if e.source not in WIN_SOURCES or (e.hand is None) != (e.source == "points"):
        return "a win's source is 'points' (its value typed) or 'typed'/'scan' (with its hand)"
    if e.hand is None and (e.flowers is not None or e.conditions):
        return "flowers and win conditions go with a hand to score; typed points already count them"
    scored = value if e.hand is None else _scored_value(match.hands_played, e)
    return None if scored == value else f"the hand {e.hand} is worth {scored}, not {value}"


def _deltas(hand: int, e: Entry) -> tuple[int, ...]:
    """What each player wins (+) or pays (-) for the entry, in hand ``hand`` (0-15)."""
    if e.kind is EntryKind.DRAW or e.player is None:
        return (0,) * PLAYERS
    if e.kind is EntryKind.PENALTY:
        return tuple(-(e.value or 0) if p == e.player else 0 for p in range(PLAYERS))
    winds = seat_winds(hand)
    situation = win_situation(hand, e.player, e.discarder)
    paid = win_payouts(situation, e.value or 0) if e.kind is EntryKind.WIN else false_win_payouts(situation)
    return tuple(paid[w.code] for w in winds)
