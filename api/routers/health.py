"""``GET /healthz`` (is the process up, is the model there) and ``GET /v1/model`` (what it reads)."""

from __future__ import annotations

from fastapi import APIRouter

from api.deps import DetectorDep, SettingsDep, get_detector
from api.errors import ApiError
from api.schemas import Health, ModelInfo
from vision.detector import default_model_path

router = APIRouter()


@router.get("/healthz", tags=["health"], operation_id="health", response_model=Health)
def health(settings: SettingsDep) -> dict[str, str]:
    """Always 200 while the process serves; ``model`` says whether photos can be read. A plain ``def``
    (run on a worker thread), as a first call may load the ONNX file."""
    try:
        get_detector(settings)
    except ApiError:
        return {"status": "ok", "model": "missing"}
    return {"status": "ok", "model": "loaded"}


@router.get("/v1/model", tags=["model"], operation_id="model_info", response_model=ModelInfo)
def model_info(detector: DetectorDep, settings: SettingsDep) -> dict[str, object]:
    """The detector's file name, version, classes (in class-id order) and input size."""
    path = settings.model_path or default_model_path()
    return {"name": path.name, "version": detector.version, "classes": list(detector.classes),
            "input_size": detector.size}
