"""A concealed kong shown all face down: the face taken is one that scores as most faces it may have do."""

from __future__ import annotations

from collections import Counter

from scoring import Situation, format_hand, parse_hand, score
from scoring.tiles import PLAYABLE
from tests.vision.conftest import lay, shoot
from vision.facedown import likeliest_faces
from vision.layout import Overrides, read_hand
from vision.scan import scan_detections

STANDING = "1m 2m 3m 4m 5m 6m 7m 8m 9m 5p | 5p"
FACE_DOWN = f"{STANDING} | back back back back"


def _fans(notation: str) -> tuple:
    return score(parse_hand(notation), Situation()).fan_counts


def test_the_face_taken_scores_as_most_faces_do() -> None:
    held = {"1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "5p"}
    possible = [t.code for t in PLAYABLE if t.code not in held]
    counts = Counter(_fans(f"[{t.code[0] * 4}{t.code[1:]}]123456789m5p5p") for t in PLAYABLE if t.code in possible)
    fans, most = counts.most_common(1)[0]
    settled, alike = likeliest_faces(parse_hand("[EEEE]123456789m5p5p"), (0,), Situation())
    assert alike == {0: (most, tuple(t for t in PLAYABLE if t.code in possible))} and most < len(possible)
    assert _fans(format_hand(settled)) == fans
    assert settled.melds[0].concealed and settled.melds[0].first.code in possible


def test_a_scanned_face_down_kong_names_the_face_taken_and_how_many_score_alike() -> None:
    result = scan_detections(shoot(lay(FACE_DOWN)), Situation())
    assert result.hand is not None and result.score is not None
    (doubt,) = [d for d in result.doubts if "all face down" in d.message]
    face = result.hand.melds[0].first
    assert f"took {face.code} (" in doubt.message and "faces it may have score as it does" in doubt.message
    assert face.code not in doubt.alternatives and not set(doubt.alternatives) & {t.code for t in result.hand.concealed}
    assert face not in result.hand.concealed  # a face the hand holds cannot be under the backs


def test_the_melds_given_leave_no_face_to_choose() -> None:
    given = parse_hand("[EEEE]123456789m5p5p").melds
    reading = read_hand(shoot(lay(FACE_DOWN)), Overrides(melds=given))
    assert reading.face_down == () and reading.hand is not None and reading.hand.melds == given
    assert not [d for d in reading.doubts if "give the melds" in d.message]  # they were given


def test_melds_given_that_leave_face_down_tiles_out_do_not_fit() -> None:
    reading = read_hand(shoot(lay(FACE_DOWN)), Overrides(melds=parse_hand("[123s]123456789m5p5p").melds))
    assert reading.hand is None
    assert any("leave 1 of the face-down tiles out" in d.message for d in reading.doubts)
