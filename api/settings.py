"""The HTTP service's settings: limits and the detector, read once from ``MCR_*`` environment variables.

Nothing is read at import time; `get_settings` builds them on first use and caches them, and tests pass
their own `Settings` to `api.app.create_app` (or override `get_settings`).
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from vision.detector_options import usable_cores

MB = 1024 * 1024


class Settings(BaseModel):
    """What an operator may tune; every limit protects the process from one kind of bad upload."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model_path: Path | None = Field(None, description="ONNX detector; None means the shipped model")
    max_upload_bytes: int = Field(15 * MB, gt=0, description="largest photo accepted, checked while streaming")
    max_pixels: int = Field(50_000_000, gt=0, description="largest width x height decoded (decompression bombs)")
    inference_workers: int = Field(default_factory=usable_cores, gt=0,
                                   description="photos processed at once (default: the cores this process may run "
                                   "on); the event loop keeps serving")
    photo_queue: int = Field(16, ge=0, description="photos that may wait for a worker beyond those being read "
                             "(16: a table's phones all photographing at once are read); one more is refused at once "
                             "(503 with Retry-After)")
    onnx_threads: int = Field(1, gt=0, description="onnxruntime threads per inference")
    conf: float = Field(0.25, gt=0, lt=1, description="detector confidence threshold")
    ledger_path: Path | None = Field(None, description="the match ledger (SQLite); None means the user's data "
                                     "folder (api.ledger_store.default_path)")

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        """Settings from ``MCR_MODEL``, ``MCR_MAX_UPLOAD_MB``, ``MCR_MAX_PIXELS``, ``MCR_INFERENCE_WORKERS``,
        ``MCR_PHOTO_QUEUE``, ``MCR_ONNX_THREADS``, ``MCR_CONF`` and ``MCR_LEDGER``; a bad value is a ``ValueError`` naming the variable."""
        env = os.environ if environ is None else environ
        fields: dict[str, object] = {}
        for var, name, kind in _ENV:
            if raw := env.get(var, "").strip():
                try:
                    fields[name] = kind(raw)
                except ValueError:
                    raise ValueError(f"{var}={raw!r} is not a valid {kind.__name__}") from None
        if "max_upload_bytes" in fields:
            fields["max_upload_bytes"] = int(float(fields["max_upload_bytes"]) * MB)  # type: ignore[arg-type]
        try:
            return cls(**fields)
        except ValidationError as exc:
            raise ValueError(f"bad MCR_* setting: {exc.errors()[0]['loc'][0]}: {exc.errors()[0]['msg']}") from None


_ENV: tuple[tuple[str, str, type], ...] = (
    ("MCR_MODEL", "model_path", Path),
    ("MCR_MAX_UPLOAD_MB", "max_upload_bytes", float),
    ("MCR_MAX_PIXELS", "max_pixels", int),
    ("MCR_INFERENCE_WORKERS", "inference_workers", int),
    ("MCR_PHOTO_QUEUE", "photo_queue", int),
    ("MCR_ONNX_THREADS", "onnx_threads", int),
    ("MCR_CONF", "conf", float),
    ("MCR_LEDGER", "ledger_path", Path),
)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process's settings, read from the environment once."""
    return Settings.from_env()
