"""``POST /v1/score``: a hand (notation or Hand JSON) and its situation -> fans, total, payouts."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from scoring.request import answer_request
from api.schemas import HandRequest, ParsedHand, Problem, ScoreAnswer, ScoreRequest
from scoring import format_hand
from scoring.request import read_request

router = APIRouter(prefix="/v1", tags=["score"])
HAND_PROBLEMS: dict[int | str, dict[str, Any]] = {
    422: {"model": Problem, "description": "bad notation, unknown tile, impossible hand or situation"}}


@router.post("/score", operation_id="score", response_model=ScoreAnswer, responses=HAND_PROBLEMS,
             response_model_exclude_unset=True)
def score_hand(body: ScoreRequest) -> dict[str, Any]:
    """Score a finished hand under MCR; a hand that is not a win (or under 8) is a result, not an error."""
    # A plain def: FastAPI runs it on its general thread pool, so a rescore never queues behind photos.
    return answer_request(body.to_request(), raise_errors=True)


@router.post("/hand", operation_id="hand", response_model=ParsedHand, responses=HAND_PROBLEMS)
def parse(body: HandRequest) -> dict[str, Any]:
    """Check a hand and give it in both forms (notation and Hand JSON), without scoring it."""
    hand, _ = read_request(body.to_request())
    return {"notation": format_hand(hand), **hand.to_json()}
