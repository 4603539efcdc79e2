"""MCR rules: the tile vocabulary, hands, fans and payouts; the waits of a hand (``scoring.waits``) and a
match's score sheet (``scoring.match``). Pure Python; imports no image code.

>>> from scoring import parse_hand, score
>>> score(parse_hand("[567m,2][567s,3]567p234p1s1s")).is_win
True
"""

from scoring.hand import Hand, HandError, Meld, MeldKind, Situation
from scoring.notation import format_hand, format_melds, parse_hand, parse_melds
from scoring.score import FanScore, ReadingSet, ScoreError, ScoreResult, is_complete, score, winning_faces

__all__ = [
    "FanScore",
    "Hand",
    "HandError",
    "Meld",
    "MeldKind",
    "ReadingSet",
    "ScoreError",
    "ScoreResult",
    "Situation",
    "format_hand",
    "format_melds",
    "is_complete",
    "parse_hand",
    "parse_melds",
    "score",
    "winning_faces",
]
