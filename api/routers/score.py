"""``POST /v1/score``: a hand (notation or Hand JSON) and its situation -> fans, total, payouts."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from api.cli.score import answer_request
from api.deps import in_pool
from api.schemas import Problem, Score, ScoreRequest

router = APIRouter(prefix="/v1", tags=["score"])


@router.post("/score", operation_id="score", response_model=Score,
             responses={422: {"model": Problem, "description": "bad notation, impossible hand or situation"}})
async def score_hand(body: ScoreRequest, request: Request) -> dict[str, Any]:
    """Score a finished hand under MCR; a hand that is not a win (or under 8) is a result, not an error."""
    return await in_pool(request, answer_request, body.to_request(), True)
