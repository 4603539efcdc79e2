"""The face given to a concealed kong shown all face down, which no photo shows.

Any face the rest of the hand does not hold could be under the four backs, and many score alike: a kong of
simples in a suit the hand already has adds the same fans whichever simple it is. The face taken is one of those
that give the score most faces give (fan for fan, in the situation scored), so that the score shown is the likeliest
one when nothing tells the face; the doubt says so and lists the faces, for the user to give the true one. Kongs
are settled one after another, each with the others as already taken (two face-down kongs in a hand are rare, and
settling them together would score the hand a thousand times).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from scoring import Hand, HandError, Meld, MeldKind, Situation, score
from scoring.tiles import PLAYABLE, Tile


def likeliest_faces(hand: Hand, kongs: tuple[int, ...],
                    situation: Situation) -> tuple[Hand, dict[int, tuple[int, tuple[Tile, ...]]]]:
    """The hand with each meld of ``kongs`` (indices into ``hand.melds``, concealed kongs whose face is unknown)
    given the first face (in tile order) of those that score as most faces do, and per kong how many faces give
    that score and the faces it may have. A kong no face of which fits the situation keeps its face and is not
    in the second."""
    shares: dict[int, tuple[int, tuple[Tile, ...]]] = {}
    for k in kongs:
        scores = {face: _fans(_with_face(hand, k, face), situation) for face in _possible(hand, k)}
        common = Counter(s for s in scores.values() if s is not None).most_common(1)
        if not common:
            continue
        fans, alike = common[0]
        hand = _with_face(hand, k, next(face for face, s in scores.items() if s == fans))
        shares[k] = (alike, tuple(scores))
    return hand, shares


def _possible(hand: Hand, k: int) -> list[Tile]:
    """The faces the kong ``k`` may have: those of which the rest of the hand holds no tile (a set has four)."""
    others = Counter(hand.all_tiles) - Counter(hand.melds[k].tiles)
    return [face for face in PLAYABLE if others[face] == 0]


def _with_face(hand: Hand, k: int, face: Tile) -> Hand:
    """The hand with meld ``k`` a concealed kong of ``face``."""
    melds = list(hand.melds)
    melds[k] = Meld(MeldKind.KONG, (face,) * 4, concealed=True)
    return replace(hand, melds=tuple(melds))


def _fans(hand: Hand, situation: Situation) -> tuple[tuple[int, int], ...] | None:
    """The hand's fans (id, count) in the situation, None where the situation does not fit it."""
    try:
        return score(hand, situation).fan_counts
    except HandError:
        return None
