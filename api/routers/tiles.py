"""``GET /v1/tiles``: the tile vocabulary (codes, kinds, names) from `scoring.tiles`, so the web page
and other clients never keep a second copy of it."""

from __future__ import annotations

from fastapi import APIRouter

from api.schemas import TileFace
from scoring.tiles import TILES

router = APIRouter(prefix="/v1", tags=["tiles"])


@router.get("/tiles", operation_id="tiles", response_model=list[TileFace])
async def tiles() -> list[dict[str, object]]:
    """Every tile face in model class order: code, kind, rank, English and Chinese name."""
    return [{"code": t.code, "kind": t.kind.value, "rank": t.rank, "en": t.en, "zh": t.zh} for t in TILES]
