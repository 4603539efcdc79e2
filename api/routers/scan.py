"""``POST /v1/scan``: a photo and the situation -> tiles, groups, notation, doubts and the full score,
as `mcr scan --json`; the annotated photo too when asked for."""

from __future__ import annotations

import base64
from typing import Annotated, Any

import cv2
from fastapi import APIRouter, Form, Request

from api.deps import DetectorDep, SettingsDep, in_pool
from api.errors import ApiError
from api.routers.detect import PHOTO_PROBLEMS
from api.schemas import Scan, ScanForm
from api.upload import read_photo
from scoring import Situation, parse_melds
from scoring.tiles import tile
from vision.imagefile import Photo
from vision.scan import SCAN_SIDE, ScanOverrides, ScanResult, scan_photo

router = APIRouter(prefix="/v1", tags=["scan"])


def annotated_jpeg(photo: Photo, result: ScanResult) -> str:
    """The photo at its own size with boxes, groups and fans drawn on it, as a JPEG data URL."""
    from vision.annotate import annotate

    ok, data = cv2.imencode(".jpg", annotate(photo.full_size(), result), [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:
        raise ApiError(422, "corrupt_image", "the annotated photo could not be encoded")
    return "data:image/jpeg;base64," + base64.b64encode(data.tobytes()).decode()


@router.post("/scan", operation_id="scan", response_model=Scan, response_model_by_alias=True,
             responses=PHOTO_PROBLEMS)
async def scan_upload(form: Annotated[ScanForm, Form()], request: Request, settings: SettingsDep,
                     detector: DetectorDep) -> dict[str, Any]:
    """Read the hand in the photo and score it. A photo whose tiles give no valid hand is still a 200:
    ``hand`` and ``score`` are null and ``doubts`` say which tiles to check."""
    situation = Situation.from_json(form.situation_fields())
    overrides = ScanOverrides(win_tile=tile(form.win_tile) if form.win_tile else None, flowers=form.flowers,
                              melds=parse_melds(form.melds) if form.melds else None)
    photo = await read_photo(request, form.photo, settings, SCAN_SIDE)
    result = await in_pool(request, scan_photo, photo, detector, situation, overrides, form.all_sides)
    if len(result.detections) == 0:
        raise ApiError(422, "no_tiles", "no tiles found in the photo: photograph the hand from above, "
                       "closer, with all tiles face up and in the light")
    body = {"image": form.photo.filename or "upload", "width": photo.width, "height": photo.height, **result.to_json()}
    if form.annotate:
        body["annotated"] = await in_pool(request, annotated_jpeg, photo, result)
    return body
