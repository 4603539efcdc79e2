"""The scorer's one entry point: ``score(hand, situation) -> ScoreResult``.

Flow: check the situation against the hand -> facts shared by every reading (tile counts, the wait,
win conditions) -> every reading (``scoring.decompose``) -> per reading: fans, then the table's
exclusions -> the highest total wins. Between readings of equal total (same points, other fans),
the one with more chows wins, then the one with the higher pair; a special form loses a tie to a
regular reading. This is the choice the reference calculator (PyMahjongGB 1.4.0) makes in every tie
of 80 collected from random hands; the rules themselves only ask for the highest total.
A hand that is not complete, or worth less than 8 without flowers, is a false win: reported with its
error code and penalty, never raised.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cached_property, lru_cache
from operator import attrgetter
from typing import Any

from scoring.decompose import (
    FACES,
    KNITTED_STRAIGHTS,
    SEVEN_PAIRS,
    Group,
    Reading,
    all_readings,
    waits,
)
from scoring.fans import FAN_BY_ID, MIN_POINTS, POINTS, Fan, apply_exclusions
from scoring.hand import WINDS, Hand, HandError, Meld, MeldKind, Situation
from scoring.json_text import BOOLEANS, KeptJson, string
from scoring.patterns import Found, HandFacts, View, hand_fans, reading_fans
from scoring.patterns.view import label, render, tiles_label
from scoring.suits import CHOW, KNITTED, KONG, PAIR, PUNG, SetKind
from scoring.tiles import COPIES_PER_FACE, PLAYABLE, Tile

# (points, chows, pair tile), form, groups as they score, fans kept
_Best = tuple[tuple[int, int, int], str, tuple[Group, ...], Found]
FALSE_WIN_PENALTY = 10
BASE_PAYMENT = 8


class ScoreError(str, Enum):
    NOT_A_WIN = "not_a_win"  # the tiles do not make a complete hand
    UNDER_EIGHT = "under_8"  # complete, but worth 1-7 points without flowers


@dataclass(frozen=True)
class FanScore(KeptJson):
    """One fan of the result: ``points`` is its value once, scored ``count`` times; ``evidence`` says
    which sets or tiles make each occurrence."""

    id: int
    en: str
    zh: str
    points: int
    count: int
    evidence: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "en": self.en, "zh": self.zh, "points": self.points, "count": self.count,
                "evidence": list(self.evidence)}

    @cached_property
    def json_text(self) -> str:
        """``dumps(self.to_json())``, written directly rather than by encoding a dict: most hands have a fan on sets
        not seen before, written once."""
        evidence = ", ".join([string(e) for e in self.evidence])
        return (f'{{"id": {self.id}, "en": {string(self.en)}, "zh": {string(self.zh)}, "points": {self.points}, '
                f'"count": {self.count}, "evidence": [{evidence}]}}')


@dataclass(frozen=True)
class ReadingSet(KeptJson):
    """A set of the chosen reading as a player sees it: kind, tiles, and whether it is concealed."""

    kind: str  # chow, pung, kong, pair, knitted (a knitted straight), single (honours and knitted)
    tiles: str
    concealed: bool

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "tiles": self.tiles, "concealed": self.concealed}


_JSON_TEXT = attrgetter("json_text")


@dataclass(frozen=True)
class ScoreResult:
    fans: tuple[FanScore, ...]  # flowers included, as fan 81
    fan_points: int  # without flowers: what must reach 8
    total: int  # with flowers
    is_win: bool
    error: ScoreError | None
    payouts: dict[str, int]  # seat wind -> points won (+) or paid (-)
    form: str | None  # the chosen reading's shape, None when the hand is incomplete
    reading: tuple[ReadingSet, ...]

    @property
    def fan_counts(self) -> tuple[tuple[int, int], ...]:
        """Each fan's id and count, in id order: what two scorings agree on when they agree fan for fan."""
        return tuple(sorted((f.id, f.count) for f in self.fans))

    def explanation(self) -> list[str]:
        """One line per fan: its name, points and the sets or tiles that make it."""
        return [f"{f.en} ({f.zh}) {f.points * f.count}: {'; '.join(f.evidence)}" for f in self.fans]

    def to_json(self) -> dict[str, Any]:
        return {
            "fans": [f.to_json() for f in self.fans],
            "fan_points": self.fan_points,
            "total": self.total,
            "is_win": self.is_win,
            "error": self.error.value if self.error else None,
            "payouts": dict(self.payouts),
            "reading": {"form": self.form, "sets": [s.to_json() for s in self.reading]} if self.form else None,
        }

    def json_members(self) -> str:
        """The members of ``to_json()`` as `json_text.dumps` writes them, without the braces, put together from
        the fans' and sets' kept text."""
        reading = (f'{{"form": {string(self.form)}, "sets": [{", ".join(map(_JSON_TEXT, self.reading))}]}}'
                   if self.form else "null")
        payouts = ", ".join([f'"{seat}": {amount}' for seat, amount in self.payouts.items()])  # seats: E S W N
        return (f'"fans": [{", ".join(map(_JSON_TEXT, self.fans))}], "fan_points": {self.fan_points}, '
                f'"total": {self.total}, "is_win": {BOOLEANS[self.is_win]}, '
                f'"error": {string(self.error.value) if self.error else "null"}, "payouts": {{{payouts}}}, '
                f'"reading": {reading}')


def score(hand: Hand, situation: Situation | None = None) -> ScoreResult:
    """Score a finished hand: its best reading, fans, total and payouts (a false win is a result too).

    >>> from scoring.notation import parse_hand
    >>> score(parse_hand("[999s,3]123456789p5s5s")).fans[0].en
    'Pure Straight'
    """
    return score_reading(hand, situation)[0]


def score_reading(hand: Hand, situation: Situation | None = None) -> tuple[ScoreResult, tuple[Group, ...]]:
    """`score`, and the chosen reading's groups as the fans saw them (a pung finished by a discard melded;
    none for an incomplete hand or a form without sets): what the wait's shape is read from."""
    situation = situation or Situation()
    situation.check_against(hand)
    facts, hidden, melds = _facts(hand, situation)
    shared = hand_fans(facts)
    best: _Best | None = None
    for reading in all_readings(hidden, melds):
        view = _view(facts, reading)
        kept = apply_exclusions({**shared, **reading_fans(view)}) or {Fan.CHICKEN_HAND: ["no other fan"]}
        points = sum([POINTS[f] * len(ev) for f, ev in kept.items()])
        rank = (points, len(view.chows), view.pair.tile if view.pair else -1)
        if best is None or rank > best[0]:
            best = (rank, reading.form, view.groups, kept)
    return _result(hand, situation, best), best[2] if best else ()


def is_complete(hand: Hand) -> bool:
    """Whether the hand's tiles make a complete hand in some form: what `score` tells by any error but
    ``NOT_A_WIN``, without scoring a reading's fans (the photo reader asks it of thousands of candidate
    readings)."""
    hidden = _counts(hand.concealed)
    hidden[hand.win_tile.index] += 1
    return bool(all_readings(hidden, _meld_groups(hand)))


def winning_faces(standing: Sequence[Tile], melds: tuple[Meld, ...] = ()) -> tuple[Tile, ...]:
    """The faces that, won on, make the standing tiles and the melds a valid complete hand, in tile order: what
    `is_complete` tells of each face in turn, worked out at once from the tiles' waits (`decompose.waits`, in
    any form) without a fifth copy (the photo reader asks it of every unsure tile of a reading). None when no
    face can: the tiles fail a hand's own checks (their count, their faces, a fifth copy already), made as
    the hand won on a face they do not hold."""
    held = Counter(t for m in melds for t in m.tiles) + Counter(standing)
    try:
        Hand(tuple(standing), melds, next(t for t in PLAYABLE if t not in held))
    except HandError:
        return ()
    return tuple(PLAYABLE[i] for i in waits(_counts(standing), len(melds)) if held[PLAYABLE[i]] < COPIES_PER_FACE)


def _counts(tiles: Sequence[Tile]) -> list[int]:
    """The tiles by face."""
    counts = [0] * FACES
    for t in tiles:
        counts[t.index] += 1
    return counts


_SET_OF = {MeldKind.CHOW: CHOW, MeldKind.PUNG: PUNG, MeldKind.KONG: KONG}


def _meld_groups(hand: Hand) -> tuple[Group, ...]:
    return tuple([Group(_SET_OF[m.kind], m.tiles[0].index, m.concealed, i) for i, m in enumerate(hand.melds)])


_NO_KONGS: frozenset[int] = frozenset()


def _facts(hand: Hand, s: Situation) -> tuple[HandFacts, list[int], tuple[Group, ...]]:
    """The facts every reading shares, the concealed tiles with the winning one by face, the melds as groups."""
    standing = _counts(hand.concealed)
    win = hand.win_tile.index
    hidden = standing.copy()
    hidden[win] += 1
    counts = hidden
    melded = 0
    kongs = _NO_KONGS
    if hand.melds:
        counts = hidden.copy()
        for m in hand.melds:
            first = m.tiles[0].index
            kind = _SET_OF[m.kind]
            if kind is CHOW:
                counts[first] += 1
                counts[first + 1] += 1
                counts[first + 2] += 1
            else:
                counts[first] += len(m.tiles)
                if kind is KONG:
                    kongs = kongs | {first}
            melded += not m.concealed
    melds = _meld_groups(hand)
    last_of_kind = s.last_of_kind or counts[win] - hidden[win] == 3  # three shown: the win is the last copy
    facts = HandFacts(tuple(counts), win, s.self_drawn, s.seat_wind.index, s.prevalent_wind.index, last_of_kind,
                      s.kong_replacement, s.robbing_kong, s.last_wall_tile, melded, kongs, tuple(standing), len(melds))
    return facts, hidden, melds


_TILE = attrgetter("tile")


def _view(facts: HandFacts, reading: Reading) -> View:
    """Sort the reading's sets by family; a pung finished by a discard scores as melded, unless the
    winning tile could as well have finished a concealed chow of the same reading."""
    groups = reading.groups
    win = facts.win
    if not facts.self_drawn and facts.counts[win] >= 3:  # a concealed pung of the winning tile may be read
        in_chow = won_pung = False
        for g in groups:
            if g.meld_index is None:
                if g.kind is CHOW:
                    in_chow = in_chow or g.tile <= win <= g.tile + 2
                elif g.kind is PUNG:
                    won_pung = won_pung or g.tile == win
        if won_pung and not in_chow:
            groups = tuple(
                Group(g.kind, g.tile, False) if g.kind is PUNG and g.meld_index is None and g.tile == win else g
                for g in groups
            )
    chows = []
    pungs = []
    pair = None
    for g in groups:
        kind = g.kind
        if kind is CHOW:
            chows.append(g)
        elif kind is PUNG or kind is KONG:
            pungs.append(g)
        elif kind is PAIR and pair is None:
            pair = g
    chows.sort(key=_TILE)
    pungs.sort(key=_TILE)
    return View(facts, reading.form, groups, tuple(chows), tuple(pungs), pair if reading.form != SEVEN_PAIRS else None)


def _result(hand: Hand, s: Situation, best: _Best | None) -> ScoreResult:
    flowers = hand.flower_count
    if best is None:
        return ScoreResult((), 0, 0, False, ScoreError.NOT_A_WIN, false_win_payouts(s), None, ())
    (points, _, _), form, groups, kept = best
    fans = [_fan_score(f, render(ev)) for f, ev in sorted(kept.items())]
    if flowers:
        unnamed = ["flower"] * (flowers - len(hand.flowers))
        fans.append(_fan_score(Fan.FLOWER_TILES, (*[t.code for t in hand.flowers], *unnamed)))
    total = points + flowers
    win = points >= MIN_POINTS
    payouts = win_payouts(s, total) if win else false_win_payouts(s)
    sets = tuple([_READING_SETS[g.kind][g.concealed][g.tile] for g in groups]) or (
        ReadingSet("tiles", tiles_label(sorted(t.index for t in hand.all_tiles)), True),
    )
    return ScoreResult(tuple(fans), points, total, win, None if win else ScoreError.UNDER_EIGHT, payouts,
                       form, sets)


@lru_cache(maxsize=16384)
def _fan_score(fan_id: int, evidence: tuple[str, ...]) -> FanScore:
    """A fan with its evidence as written (`render`): the same fan on the same sets in another hand is the same
    value. Keyed by the text, not the sets, so sets that differ only in how they were laid down (melded or
    concealed, a meld's place) share one value and its JSON text: random hands hold a third fewer fans by text."""
    spec = FAN_BY_ID[fan_id]
    return FanScore(spec.id, spec.en, spec.zh, spec.points, len(evidence), evidence)


def _reading_sets(kind: SetKind, concealed: bool) -> tuple[ReadingSet, ...]:
    """The sets of a kind, melded or concealed, by lowest tile (a knitted straight: by its number)."""
    return tuple(ReadingSet(kind.name.lower(), label(Group(kind, t, concealed)), concealed)
                 for t in range(len(KNITTED_STRAIGHTS) if kind is KNITTED else FACES))


# Every set a reading can show, by kind, whether concealed, and lowest tile: a few hundred values, made once.
_READING_SETS = tuple((_reading_sets(kind, False), _reading_sets(kind, True)) for kind in SetKind)


def win_payouts(s: Situation, total: int) -> dict[str, int]:
    """Self-drawn: each other seat pays 8 + total. On a discard: the discarder 8 + total, the others 8."""
    discarder = s.paying_discarder
    return dict(_win_payouts(s.seat_wind.index, discarder.index if discarder else None, total))


@lru_cache(maxsize=4096)  # 4 seats, 4 discarders or none, a few hundred totals
def _win_payouts(seat: int, discarder: int | None, total: int) -> tuple[tuple[str, int], ...]:
    paid = {w.code: -(BASE_PAYMENT + total) if discarder is None or w.index == discarder else -BASE_PAYMENT
            for w in WINDS if w.index != seat}
    return tuple((w.code, paid.get(w.code, -sum(paid.values()))) for w in WINDS)


def false_win_payouts(s: Situation) -> dict[str, int]:
    """A false win: the caller pays 10 to each other seat."""
    return dict(_false_win_payouts(s.seat_wind.index))


@lru_cache(maxsize=4)
def _false_win_payouts(seat: int) -> tuple[tuple[str, int], ...]:
    return tuple((w.code, -3 * FALSE_WIN_PENALTY if w.index == seat else FALSE_WIN_PENALTY) for w in WINDS)
