"""The doubt on a winning tile not set apart says which other standing faces would score otherwise."""

from __future__ import annotations

from scoring import Situation, parse_hand, score
from scoring.tiles import tile
from tests.vision.conftest import lay, shoot
from vision.layout import WIN_NOT_APART, Doubt
from vision.scan import ScanResult, scan_detections
from vision.winningtile import scoring_otherwise


def _win_doubt(spec: str) -> tuple[ScanResult, Doubt]:
    result = scan_detections(shoot(lay(spec)), Situation())
    (doubt,) = [d for d in result.doubts if d.message.startswith(WIN_NOT_APART)]
    return result, doubt


def test_the_faces_that_score_otherwise_as_the_winning_tile_are_the_alternatives() -> None:
    """Four pungs of winds and a pair of 9p: taken as won on the 9p (a single wait, Big Four Winds 88 with it),
    won on a wind instead it is no single wait and scores less."""
    result, doubt = _win_doubt("E E E S S S W W W N N N 9p 9p")
    assert result.hand is not None and result.score is not None and result.hand.win_tile == tile("9p")
    assert doubt.alternatives == ("E", "S", "W", "N")
    for code in doubt.alternatives:
        assert score(result.hand.won_on(tile(code)), Situation()).total != result.score.total
    assert f"9p ({result.score.total} points)" in doubt.message and "override the winning tile" in doubt.message


def test_faces_scoring_alike_but_with_other_fans_are_named_too() -> None:
    """A closed wait on 3m scores as the single wait on 9p taken, with another fan: the score's detail changes."""
    result, doubt = _win_doubt("E E E 1m 2m 3m 4m 5m 6m 7m 8m 9m 9p 9p")
    assert result.score is not None and "3m" in doubt.alternatives and "other fans" in doubt.message
    others = scoring_otherwise(result.score, result.hand, Situation())
    assert [face.code for face, _ in others] == list(doubt.alternatives)


def test_a_hand_every_winning_tile_of_which_scores_alike_says_so() -> None:
    hand = parse_hand("1133557799m113p3p")  # seven pairs: every tile is a single wait
    assert scoring_otherwise(score(hand, Situation()), hand, Situation()) == ()
    _, doubt = _win_doubt("1m 1m 3m 3m 5m 5m 7m 7m 9m 9m 1p 1p 3p 3p")
    assert doubt.alternatives == () and "scores the same" in doubt.message
