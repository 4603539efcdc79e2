"""``POST /v1/detect``: a photo -> every tile found (code, confidence, box), as `mcr detect --json`."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Request

from api.deps import DetectorDep, SettingsDep, in_pool
from api.schemas import Detection, DetectForm, Problem
from api.upload import read_photo

router = APIRouter(prefix="/v1", tags=["detect"])

PHOTO_PROBLEMS: dict[int | str, dict[str, Any]] = {
    400: {"model": Problem, "description": "empty upload"},
    413: {"model": Problem, "description": "over the size or pixel limit"},
    415: {"model": Problem, "description": "not a JPEG, PNG or WebP image"},
    422: {"model": Problem, "description": "corrupt or truncated image, or bad form fields"},
    503: {"model": Problem, "description": "no detector model available (no_model), or the photo queue is full "
          "(busy: try again after the Retry-After header's seconds)"},
}


@router.post("/detect", operation_id="detect", response_model=Detection, responses=PHOTO_PROBLEMS)
async def detect(form: Annotated[DetectForm, Form()], request: Request, settings: SettingsDep,
                 detector: DetectorDep) -> dict[str, Any]:
    """Find and read every tile in the photo (no layout, no scoring)."""
    image = (await read_photo(request, form.photo, settings)).pixels
    detections = await in_pool(request, detector, image)
    height, width = image.shape[:2]
    return {"image": form.photo.filename or "upload", "width": width, "height": height,
            "tiles": detections.to_json()}
