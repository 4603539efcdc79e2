"""Chow patterns: four, three and two chows, each family giving only its largest pattern.

Two-chow fans (1 point each) obey the account-once principle: a set may join one more fan with
another set after its first, never the same fan twice, so with n related chows at most n - 1 such
fans count (``_best_pairs``). Ties between equally large choices go to the lower fan id.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from scoring.fans import FAN_BY_ID, Fan
from scoring.patterns.view import Found, View, add, rank, suit


def _four_chow_fan(a: int, b: int, c: int, d: int) -> int | None:
    if suit(a) == suit(d):
        if a == b == c == d:
            return Fan.QUADRUPLE_CHOW
        if b - a == c - b == d - c and b - a in (1, 2):
            return Fan.FOUR_PURE_SHIFTED_CHOWS
    return None


def three_chow_fan(a: int, b: int, c: int) -> int | None:
    """The fan of three chows given by their lowest tiles, sorted; None if they make none."""
    if suit(a) == suit(b) == suit(c):
        if a == b == c:
            return Fan.PURE_TRIPLE_CHOW
        if (rank(a), rank(b), rank(c)) == (0, 3, 6):
            return Fan.PURE_STRAIGHT
        if b - a == c - b and b - a in (1, 2):
            return Fan.PURE_SHIFTED_CHOWS
        return None
    if len({suit(a), suit(b), suit(c)}) != 3:
        return None
    ranks = sorted((rank(a), rank(b), rank(c)))
    if ranks == [0, 3, 6]:
        return Fan.MIXED_STRAIGHT
    if ranks[0] == ranks[2]:
        return Fan.MIXED_TRIPLE_CHOW
    if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1:
        return Fan.MIXED_SHIFTED_CHOWS
    return None


def two_chow_fan(a: int, b: int) -> int | None:
    if suit(a) == suit(b):
        if a == b:
            return Fan.PURE_DOUBLE_CHOW
        if abs(a - b) == 3:
            return Fan.SHORT_STRAIGHT
        if {rank(a), rank(b)} == {0, 6}:
            return Fan.TWO_TERMINAL_CHOWS
        return None
    return Fan.MIXED_DOUBLE_CHOW if rank(a) == rank(b) else None


def _terminal_chows_fan(tiles: tuple[int, ...], pair: int) -> int | None:
    """Pure / Three-Suited Terminal Chows: 123 and 789 twice, with a pair of fives."""
    if pair < 0 or pair >= 27 or rank(pair) != 4:
        return None
    suits = {suit(t) for t in tiles}
    if sorted(rank(t) for t in tiles) != [0, 0, 6, 6]:
        return None
    if suits == {suit(pair)} and tiles[0] != tiles[2]:
        return Fan.PURE_TERMINAL_CHOWS
    both_in_each = all(sorted(rank(t) for t in tiles if suit(t) == s) == [0, 6] for s in suits)
    if len(suits) == 2 and both_in_each and suit(pair) not in suits:
        return Fan.THREE_SUITED_TERMINAL_CHOWS
    return None


def _best_pairs(chows: list[int]) -> list[tuple[int, int, int]]:
    """The largest valid set of two-chow fans (fan, i, j) under account-once and no-repeat."""
    edges = [(f, i, j) for i, j in combinations(range(len(chows)), 2) if (f := two_chow_fan(chows[i], chows[j]))]
    if len(edges) < len(chows) and _valid(tuple(edges), len(chows)):
        return edges  # the common case: every related pair may count
    best: list[tuple[int, int, int]] = []
    best_key: tuple = ()
    for size in range(min(len(edges), len(chows) - 1), 0, -1):
        for chosen in combinations(edges, size):
            if _valid(chosen, len(chows)):
                key = tuple(sorted(f for f, _, _ in chosen))
                if not best or key < best_key:
                    best, best_key = list(chosen), key
        if best:
            return best
    return []


def _valid(chosen: tuple[tuple[int, int, int], ...], n: int) -> bool:
    """No set in the same fan twice, and the fans form a forest (each adds a set not yet combined)."""
    seen = set()
    parent = list(range(n))

    def root(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    for f, i, j in chosen:
        if (f, i) in seen or (f, j) in seen:
            return False
        seen |= {(f, i), (f, j)}
        ri, rj = root(i), root(j)
        if ri == rj:
            return False
        parent[ri] = rj
    return True


def chow_fans(v: View, found: Found) -> None:
    """Add the chow-pattern fans of a reading to ``found``."""
    groups = v.chows
    if len(groups) < 2:
        return
    pair = v.pair.tile if v.pair is not None and len(groups) == 4 else -1
    for fan, members in _chow_plan(tuple([g.tile for g in groups]), pair):
        add(found, fan, tuple([groups[i] if i < 4 else v.pair for i in members]))


# Chows starting at given tiles (and a pair beside four chows) make the same fans in every hand.
@lru_cache(maxsize=1 << 16)
def _chow_plan(tiles: tuple[int, ...], pair: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The chow fans of chows starting at ``tiles`` (sorted) beside a pair of ``pair`` (-1: none asked), each
    with the positions in ``tiles`` of the chows that make it (4: the pair)."""
    if len(tiles) == 4:
        special = _terminal_chows_fan(tiles, pair)
        if special:
            return ((special, (0, 1, 2, 3, 4)),)
        fan = _four_chow_fan(*tiles)
        if fan:
            return ((fan, (0, 1, 2, 3)),)
    if len(tiles) >= 3:
        plan = _three_chow_plan(tiles)
        if plan:
            return plan
    return tuple((fan, (i, j)) for fan, i, j in _best_pairs(list(tiles)))


def _three_chow_plan(tiles: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The best three-chow fan, plus for a fourth chow one two-chow fan with one of the three; none if no three
    chows make a fan."""
    options = []
    for trio in combinations(range(len(tiles)), 3):
        fan = three_chow_fan(*(tiles[i] for i in trio))
        if fan:
            rest = [i for i in range(len(tiles)) if i not in trio]
            extra = sorted(
                (f, i, rest[0]) for i in trio if rest and (f := two_chow_fan(tiles[i], tiles[rest[0]]))
            )
            options.append((-FAN_BY_ID[fan].points, -len(extra[:1]), fan, trio, extra[:1]))
    if not options:
        return ()
    _, _, fan, trio, extra = min(options)
    return ((fan, trio), *((f, (i, j)) for f, i, j in extra))
