"""``POST /v1/score``: a hand (notation or Hand JSON) and its situation -> fans, total, payouts."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from scoring.request import answer_request
from api.schemas import HandRequest, ParsedHand, Problem, ScoreAnswer, ScoreRequest
from scoring import format_hand
from scoring.request import read_request

router = APIRouter(prefix="/v1", tags=["score"])
HAND_PROBLEMS: dict[int | str, dict[str, Any]] = {
    422: {"model": Problem, "description": "bad notation, unknown tile, impossible hand or situation"}}


@router.post("/score", operation_id="score", response_model=ScoreAnswer, responses=HAND_PROBLEMS,
             response_model_exclude_unset=True)
async def score_hand(body: ScoreRequest) -> JSONResponse:
    """Score a finished hand under MCR; a hand that is not a win (or under 8) is a result, not an error."""
    # Scored on the event loop: a hand takes well under a millisecond (the hardest ones included), less than
    # handing it to a thread would, and photos run on worker threads of their own, so a rescore never queues
    # behind them. The answer is the scorer's own JSON (`mcr score --json`): sent as it is, not validated again.
    return JSONResponse(answer_request(body.to_request(), raise_errors=True))


@router.post("/hand", operation_id="hand", response_model=ParsedHand, responses=HAND_PROBLEMS)
def parse(body: HandRequest) -> dict[str, Any]:
    """Check a hand and give it in both forms (notation and Hand JSON), without scoring it."""
    hand, _ = read_request(body.to_request())
    return {"notation": format_hand(hand), **hand.to_json()}
