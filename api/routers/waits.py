"""``POST /v1/waits``: 13 held tiles -> every winning tile and its value; 14 -> each discard, best first."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from api.routers.score import HAND_PROBLEMS
from api.schemas import Discards, Waits, WaitsRequest
from scoring.waits import answer_waits

router = APIRouter(prefix="/v1", tags=["waits"])


@router.post("/waits", operation_id="waits", response_model=Waits | Discards, responses=HAND_PROBLEMS)
def waits(body: WaitsRequest) -> dict[str, Any]:
    """The waits (听牌) of 13 held tiles, each scored on a discard and self-drawn, or the shanten number when
    not ready; for 14 tiles, what each discard leaves, best first (most tiles left to win on)."""
    return answer_waits(body.to_request())
