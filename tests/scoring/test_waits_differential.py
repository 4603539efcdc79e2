"""Waits and shanten against the reference calculator PyMahjongGB, on seeded random ready hands (every
shape, melds, kongs; see random_hands.py): the winning tiles are exactly the faces the reference accepts as a
win, each worth what the reference scores it, won on a discard and self-drawn; and the shanten number of
hands one to three tiles off ready is the reference's."""

from __future__ import annotations

import random
from collections import Counter

import MahjongGB

from scoring.hand import WINDS, Situation
from scoring.held import Held
from scoring.shanten import shanten
from scoring.tiles import PLAYABLE, Tile
from scoring.waits import ready_waits
from models.measure.random_hands import random_hand
from models.measure.reference import code, pack


def reference_points(held: Held, win: Tile, situation: Situation) -> int | None:
    """The reference's points for the win (flowers aside), or None when it does not accept it as a win."""
    shown = sum(1 for m in held.melds for t in m.tiles if t is win)
    try:
        fans = MahjongGB.MahjongFanCalculator(
            tuple(pack(m) for m in held.melds), tuple(code(t) for t in held.concealed), code(win), 0,
            situation.self_drawn, situation.last_of_kind or shown == 3, False, False,
            WINDS.index(situation.seat_wind), WINDS.index(situation.prevalent_wind), True)
    except TypeError:
        return None
    return sum(points * count for points, count, _zh, _en in fans)


def ready_hands(n: int, seed: int):
    """Seeded random ready hands (a random winning hand less its winning tile) and their winds."""
    rng = random.Random(seed)
    for _ in range(n):
        hand, _ = random_hand(rng)
        yield Held(hand.concealed, hand.melds), Situation(seat_wind=rng.choice(WINDS),
                                                          prevalent_wind=rng.choice(WINDS))


def test_winning_tiles_and_their_values_are_the_references():
    checked = 0
    for held, situation in ready_hands(3000, seed=43):
        found = ready_waits(held, situation)
        assert found.ready and found.shanten == 0
        mine = {w.tile: w for w in found.waits}
        held_copies = Counter(held.all_tiles)
        accepted = {t for t in PLAYABLE if held_copies[t] < 4
                    and reference_points(held, t, Situation(False, situation.seat_wind,
                                                            situation.prevalent_wind)) is not None}
        assert set(mine) == accepted, (held, sorted(t.code for t in accepted))
        for t, wait in mine.items():
            for won in (wait.discard, wait.self_drawn):
                as_won = Situation(won["situation"]["win"] == "self_drawn", situation.seat_wind,
                                   situation.prevalent_wind, won["situation"]["last_of_kind"])
                assert won["fan_points"] == reference_points(held, t, as_won), (held, t.code, won["hand"])
                checked += 1
    assert checked > 8000


def test_shanten_of_hands_a_few_tiles_off_ready_is_the_references():
    rng = random.Random(44)
    seen = Counter()
    for held, _ in ready_hands(1500, seed=45):
        standing, copies = list(held.concealed), Counter(held.all_tiles)
        for _ in range(rng.choice((1, 1, 2, 3))):  # swap standing tiles for random faces
            i, face = rng.randrange(len(standing)), rng.choice(PLAYABLE)
            if copies[face] < 4:
                copies[standing[i]] -= 1
                copies[face] += 1
                standing[i] = face
        counts = [0] * 34
        for t in standing:
            counts[t.index] += 1
        theirs = MahjongGB.MahjongShanten(tuple(pack(m) for m in held.melds), tuple(code(t) for t in standing))
        assert shanten(counts, len(held.melds)) == theirs, (sorted(t.code for t in standing), held.melds)
        seen[theirs] += 1
    assert seen[0] and seen[1] and seen[2] and seen[3]  # ready, and one to three tiles off
