"""The winning tile where the photo does not set it apart, which no photo shows.

A player lays the winning tile apart at the right end of the standing tiles, or does not; then the layout takes
the rightmost standing tile (`vision.layout.WIN_NOT_APART`), and the tiles are the same whichever came last. Which
one it was changes the score only where it changes the wait (an edge, closed or single wait) or a fan that rests on
the last tile, so the doubt names the standing faces that, as the winning tile, score otherwise, with their
totals: a referee checks the photo's hand against the player only where it matters, and a hand every reading of
which scores alike says so.
"""

from __future__ import annotations

from scoring import Hand, HandError, Situation, score
from scoring.tiles import Tile
from vision.facedown import fans_in
from vision.layout import WIN_NOT_APART, Doubt


def scoring_otherwise(hand: Hand, situation: Situation) -> tuple[tuple[Tile, int], ...]:
    """The faces of the standing tiles that, as the winning tile, give other fans than ``hand`` does in the
    situation (those the situation does not fit left out), each with its total, in tile order."""
    own = fans_in(hand, situation)
    found = []
    for face in sorted(set(hand.concealed) - {hand.win_tile}, key=lambda t: t.index):
        other = hand.won_on(face)
        if fans_in(other, situation) not in (own, None):
            found.append((face, score(other, situation).total))
    return tuple(found)


def win_doubt(doubt: Doubt, hand: Hand, total: int, situation: Situation) -> Doubt:
    """The layout's doubt on a winning tile taken by its place, saying which other standing faces would score
    otherwise (they are its ``alternatives``) or that none would."""
    try:
        others = scoring_otherwise(hand, situation)
    except HandError:  # a reading the scorer refuses: the doubt as the layout put it
        return doubt
    taken = f"{WIN_NOT_APART}: took the rightmost standing tile, {hand.win_tile.code} ({total} points)"
    if not others:
        return Doubt(doubt.kind, doubt.tiles, f"{taken}; won on any other standing tile it scores the same")
    by_total: dict[int, list[str]] = {}
    for face, points in others:
        by_total.setdefault(points, []).append(face.code)
    listed = "; ".join(f"on {_either(codes)} {points} points" + (", other fans" if points == total else "")
                       for points, codes in sorted(by_total.items()))
    return Doubt(doubt.kind, doubt.tiles, f"{taken}; won {listed}: override the winning tile if it was another",
                 tuple(face.code for face, _ in others))


def _either(codes: list[str]) -> str:
    return codes[0] if len(codes) == 1 else f"{', '.join(codes[:-1])} or {codes[-1]}"
