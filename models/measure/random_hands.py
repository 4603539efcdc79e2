"""A seeded generator of legal winning hands with consistent situations, for differential and
property tests: every hand shape, melds of every kind, kongs (concealed, melded, added), flowers and
every win condition. Tiles are drawn from a random "palette" (one suit, honours only, terminals...)
so that the rarer fans (flushes, All Green, wind and dragon hands) come up often enough to test.
"""

from __future__ import annotations

import random
from collections import Counter

from scoring.decompose import KNITTED_STRAIGHTS, TERMINALS_AND_HONORS
from scoring.hand import WINDS, Hand, Meld, MeldKind, Situation
from scoring.tiles import BONUS, PLAYABLE, Tile

_PALETTES = (
    lambda t: True,
    lambda t: t.kind.value == "m" or t.is_honor,
    lambda t: t.kind.value == "p",
    lambda t: t.is_honor,
    lambda t: t.is_terminal_or_honor,
    lambda t: t.is_terminal,
    lambda t: t.is_suited and t.rank <= 3,
    lambda t: t.code in ("2s", "3s", "4s", "6s", "8s", "F"),
    lambda t: t.is_suited and t.rank in (1, 2, 3, 4, 6, 7, 8, 9) and t.kind.value != "s",
    lambda t: t.is_suited and t.rank >= 4,
    lambda t: t.is_suited and t.rank <= 6,
    lambda t: t.is_suited and t.rank in (2, 4, 5, 6, 8),
    lambda t: t.code in ("1p", "2p", "3p", "4p", "5p", "8p", "9p", "2s", "4s", "5s", "6s", "8s", "9s", "P"),
    lambda t: t.kind.value in ("s", "p") or t.kind.value == "wind",
)


class _Pool:
    """Tiles still available (4 of each face)."""

    def __init__(self) -> None:
        self.left = Counter({t: 4 for t in PLAYABLE})

    def take(self, tiles: list[Tile]) -> bool:
        need = Counter(tiles)
        if any(self.left[t] < n for t, n in need.items()):
            return False
        self.left -= need
        return True


def _random_set(rng: random.Random, faces: list[Tile], pool: _Pool) -> tuple[str, list[Tile]] | None:
    for _ in range(20):
        t = rng.choice(faces)
        roll = rng.random()
        if roll < 0.5 and t.is_suited and t.rank <= 7:
            run = [PLAYABLE[t.index + k] for k in range(3)]
            if all(x in faces for x in run) and pool.take(run):
                return "chow", run
        elif roll < 0.85 and pool.take([t] * 3):
            return "pung", [t] * 3
        elif pool.take([t] * 4):
            return "kong", [t] * 4
    return None


def _meld(rng: random.Random, kind: str, tiles: list[Tile]) -> Meld:
    if kind == "chow":
        return Meld(MeldKind.CHOW, tuple(tiles), claimed=rng.randrange(3))
    if kind == "pung":
        return Meld(MeldKind.PUNG, tuple(tiles), source=rng.randint(1, 3))
    style = rng.randrange(3)
    if style == 0:
        return Meld(MeldKind.KONG, tuple(tiles), concealed=True)
    return Meld(MeldKind.KONG, tuple(tiles), source=rng.randint(1, 3), added=style == 2)


def _themed_sets(rng: random.Random) -> list[tuple[str, list[Tile]]]:
    """2-4 sets in a pattern that some fan rewards: related chows or pungs, winds, dragons, fives."""
    suit, rank = rng.randrange(3), rng.randrange(7)
    suits = rng.sample(range(3), 3)
    n = rng.randint(2, 4)
    theme = rng.randrange(10)
    if theme == 8:  # Pure / Three-Suited Terminal Chows
        other = suit if rng.random() < 0.5 else suits[0] if suits[0] != suit else suits[1]
        return [("chow", [PLAYABLE[su * 9 + r + k] for k in range(3)]) for su in (suit, other) for r in (0, 6)]
    if theme == 9:  # sets holding a five
        picks = [(rng.randrange(3) * 9, r) for r in rng.choices(range(2, 5), k=4)]
        return [("chow", [PLAYABLE[s + r + k] for k in range(3)]) if r < 4 else ("pung", [PLAYABLE[s + 4]] * 3)
                for s, r in picks]
    if theme == 0:  # chows in one suit: identical, shifted by 1 or 2, or a straight
        step = rng.choice((0, 1, 2, 3))
        starts = [suit * 9 + r for r in (rank, rank + step, rank + 2 * step, rank + 3 * step)[:n] if r <= 6]
        return [("chow", [PLAYABLE[s + k] for k in range(3)]) for s in starts]
    if theme == 1:  # chows across suits: same rank, shifted, or a mixed straight
        step = rng.choice((0, 1, 3))
        ranks = [r for r in (rank, rank + step, rank + 2 * step) if r <= 6]
        return [("chow", [PLAYABLE[su * 9 + r + k] for k in range(3)]) for su, r in zip(suits, ranks)]
    if theme == 2:  # terminal chows 123 + 789, in one or two suits
        two = [suit, suits[0] if suits[0] != suit else suits[1]]
        chosen = two[: rng.randint(1, 2)]
        return [("chow", [PLAYABLE[su * 9 + r + k] for k in range(3)]) for su in chosen for r in (0, 6)]
    if theme == 3:  # pungs in one suit, consecutive
        return [("pung", [PLAYABLE[suit * 9 + min(rank + i, 8)]] * 3) for i in range(n)]
    if theme == 4:  # pungs across suits: same rank or shifted
        step = rng.choice((0, 1))
        return [("pung", [PLAYABLE[su * 9 + min(rank + i * step, 8)]] * 3) for i, su in enumerate(suits)]
    if theme == 5:  # wind pungs
        return [("pung", [w] * 3) for w in rng.sample(WINDS, rng.randint(2, 4))]
    if theme == 6:  # dragon pungs
        return [("pung", [PLAYABLE[31 + i]] * 3) for i in rng.sample(range(3), rng.randint(2, 3))]
    return [("chow", [PLAYABLE[suit * 9 + r + k] for k in range(3)]) for r in (0, 3, 6, rng.choice((0, 3, 6)))][:n]


def _regular(rng: random.Random, faces: list[Tile]) -> tuple[list[Tile], list[Meld]] | None:
    pool = _Pool()
    themed = _themed_sets(rng) if rng.random() < 0.5 else []
    pair_face = rng.choice(faces) if rng.random() < 0.8 else PLAYABLE[rng.randrange(3) * 9 + 4]
    if not pool.take([pair_face] * 2):
        return None
    hidden, melds = [pair_face] * 2, []
    meld_rate = rng.choice((0.0, 0.2, 0.5, 0.9))
    for i in range(4):
        found = themed[i] if i < len(themed) and pool.take(themed[i][1]) else _random_set(rng, faces, pool)
        if found is None:
            return None
        kind, tiles = found
        if kind == "pung" and rng.random() < 0.1 and pool.take(tiles[:1]):
            kind, tiles = "kong", tiles + tiles[:1]
        if kind == "kong" or rng.random() < meld_rate:
            melds.append(_meld(rng, kind, tiles))
        else:
            hidden += tiles
    return hidden, melds


def _seven_pairs(rng: random.Random, faces: list[Tile]) -> list[Tile] | None:
    if rng.random() < 0.3:
        start = rng.choice([t for t in PLAYABLE if t.is_suited and t.rank <= 3])
        return [PLAYABLE[start.index + k] for k in range(7) for _ in range(2)]
    chosen = [rng.choice(faces) for _ in range(7)]
    return None if max(Counter(chosen).values()) > 2 else [t for t in chosen for _ in range(2)]


def _knitted(rng: random.Random) -> tuple[list[Tile], list[Meld]] | None:
    straight = [PLAYABLE[i] for i in rng.choice(KNITTED_STRAIGHTS)]
    honors = [t for t in PLAYABLE if t.is_honor]
    shape = rng.randrange(3)
    if shape == 0:  # lesser or greater honours and knitted tiles
        n_honors = rng.randint(5, 7)
        return rng.sample(straight, 14 - n_honors) + rng.sample(honors, n_honors), []
    pool = _Pool()
    pool.take(straight)
    pair_face = rng.choice(PLAYABLE)
    found = _random_set(rng, list(PLAYABLE), pool) if pool.take([pair_face] * 2) else None
    if found is None:
        return None
    kind, tiles = found
    if kind == "kong" or shape == 2:
        return straight + [pair_face] * 2, [_meld(rng, kind, tiles)]
    return straight + [pair_face] * 2 + tiles, []


def random_hand(rng: random.Random) -> tuple[Hand, Situation]:
    """One legal winning hand (possibly worth under 8) and a situation consistent with it."""
    while True:
        palette = rng.choice(_PALETTES)
        faces = [t for t in PLAYABLE if palette(t)]
        shape = rng.random()
        melds: list[Meld] = []
        if shape < 0.02:  # Nine Gates, won on any tile of its suit
            start = rng.randrange(3) * 9
            hidden = [PLAYABLE[start + r] for r in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, rng.randrange(9))]
            hidden.append(hidden.pop(rng.randrange(14)))
        elif shape < 0.78:
            made = _regular(rng, faces)
            if made is None:
                continue
            hidden, melds = made
        elif shape < 0.88:
            hidden = _seven_pairs(rng, faces)
        elif shape < 0.91:
            orphans = [PLAYABLE[i] for i in TERMINALS_AND_HONORS]
            hidden = orphans + [rng.choice(orphans)]
        else:
            made = _knitted(rng)
            if made is None:
                continue
            hidden, melds = made
        if hidden is None:
            continue
        win = hidden.pop(rng.randrange(len(hidden)))
        flowers = tuple(rng.sample(BONUS, rng.choice((0, 0, 0, 1, 2, 8))))
        hand = Hand(tuple(hidden), tuple(melds), win, flowers)
        return hand, random_situation(rng, hand)


def random_situation(rng: random.Random, hand: Hand) -> Situation:
    """Win conditions drawn at random but never contradicting each other or the hand."""
    self_drawn = rng.random() < 0.5
    copies = sum(1 for t in hand.all_tiles if t == hand.win_tile)
    has_kong = any(m.kind is MeldKind.KONG for m in hand.melds)
    robbing = not self_drawn and copies == 1 and rng.random() < 0.15
    return Situation(
        self_drawn=self_drawn,
        seat_wind=rng.choice(WINDS),
        prevalent_wind=rng.choice(WINDS),
        last_of_kind=hand.win_tile not in hand.concealed and rng.random() < 0.2,
        kong_replacement=self_drawn and has_kong and rng.random() < 0.3,
        robbing_kong=robbing,
        last_wall_tile=not robbing and rng.random() < 0.15,
    )
