"""The winning tile where the photo does not set it apart, which no photo shows.

A player lays the winning tile apart at the right end of the standing tiles, or does not; then the layout takes
the rightmost standing tile (`vision.layout.WIN_NOT_APART`), and the tiles are the same whichever came last. Which
one it was changes the score only where it changes the wait (an edge, closed or single wait) or a fan that rests on
the last tile, so the doubt names the standing faces that, as the winning tile, score otherwise, with their
totals: a referee checks the photo's hand against the player only where it matters, and a hand every reading of
which scores alike says so.
"""

from __future__ import annotations

from scoring import Hand, HandError, ScoreResult, Situation, score
from scoring.tiles import Tile
from vision.layout import WIN_NOT_APART, Doubt


def scoring_otherwise(result: ScoreResult, hand: Hand, situation: Situation) -> tuple[tuple[Tile, int], ...]:
    """The faces of the standing tiles that, as the winning tile, give other fans than ``hand`` scored so
    (``result``) in the situation (those the situation does not fit left out), each with its total, in tile order."""
    found = []
    for face in sorted(set(hand.concealed) - {hand.win_tile}, key=lambda t: t.index):
        try:
            other = score(hand.won_on(face), situation)
        except HandError:  # the situation does not fit the hand won so
            continue
        if other.fan_counts != result.fan_counts:
            found.append((face, other.total))
    return tuple(found)


def win_doubt(doubt: Doubt, hand: Hand, result: ScoreResult, situation: Situation) -> Doubt:
    """The layout's doubt on a winning tile taken by its place, saying which other standing faces would score
    otherwise (they are its ``alternatives``) or that none would."""
    others = scoring_otherwise(result, hand, situation)
    taken = f"{WIN_NOT_APART}: took the rightmost standing tile, {hand.win_tile.code} ({result.total} points)"
    if not others:
        return Doubt(doubt.kind, doubt.tiles, f"{taken}; won on any other standing tile it scores the same")
    by_total: dict[int, list[str]] = {}
    for face, points in others:
        by_total.setdefault(points, []).append(face.code)
    listed = "; ".join(f"on {_either(codes)} {points} points" + (", other fans" if points == result.total else "")
                       for points, codes in sorted(by_total.items()))
    return Doubt(doubt.kind, doubt.tiles, f"{taken}; won {listed}: override the winning tile if it was another",
                 tuple(face.code for face, _ in others))


def _either(codes: list[str]) -> str:
    return codes[0] if len(codes) == 1 else f"{', '.join(codes[:-1])} or {codes[-1]}"
