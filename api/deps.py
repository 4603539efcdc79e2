"""Shared dependencies: settings, the detector (one ONNX session per process), the inference pool and the
match ledger.

Routers ask for ``SettingsDep``, ``DetectorDep`` and ``LedgerDep``; tests replace them through
``app.dependency_overrides[get_settings]`` / ``[get_detector]`` (a fake detector for edge cases).
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from functools import lru_cache, partial
from pathlib import Path
from typing import Annotated, TypeVar

import anyio
from fastapi import Depends, FastAPI, Request

from api.errors import ApiError
from api.ledger_store import Ledger, LedgerError
from api.settings import Settings, get_settings
from vision.detector import Detector

T = TypeVar("T")
SettingsDep = Annotated[Settings, Depends(get_settings)]


@lru_cache(maxsize=2)
def load_detector(path: Path | None, threads: int, conf: float) -> Detector:
    """The ONNX session, loaded once per process (a failure is not cached: a model may appear later)."""
    return Detector(path, threads=threads, conf=conf)


def get_detector(settings: SettingsDep) -> Detector:
    """The detector, or a 503 naming why there is none (no shipped model yet, or a broken file)."""
    try:
        return load_detector(settings.model_path, settings.onnx_threads, settings.conf)
    except (OSError, ValueError) as exc:
        raise ApiError(503, "no_model", f"the tile detector is unavailable: {exc}") from None


DetectorDep = Annotated[Detector, Depends(get_detector)]


@lru_cache(maxsize=4)
def open_ledger(path: Path | None) -> Ledger:
    """The ledger file, opened (and its tables made) once per process and path."""
    return Ledger(path)


def get_ledger(settings: SettingsDep) -> Ledger:
    """The match ledger, or a 503 naming why it cannot be used (a folder, a file that is not SQLite...)."""
    try:
        return open_ledger(settings.ledger_path)
    except (OSError, LedgerError) as exc:
        raise ApiError(503, "ledger_unavailable", f"the match ledger is unavailable: {exc}") from None


LedgerDep = Annotated[Ledger, Depends(get_ledger)]


def current_settings(app: FastAPI) -> Settings:
    """The settings the app's routes see, honouring a test's override, for code outside a route."""
    return app.dependency_overrides.get(get_settings, get_settings)()


async def in_pool(request: Request, work: Callable[..., T], *args: object) -> T:
    """Run photo work (decoding, inference, layout) on a worker thread; at most ``inference_workers``
    at once per process, so the event loop keeps answering while photos are processed."""
    state = request.app.state
    if getattr(state, "limiter", None) is None:
        state.limiter = anyio.CapacityLimiter(current_settings(request.app).inference_workers)
    return await anyio.to_thread.run_sync(partial(_then_trimmed, work, *args), limiter=state.limiter)


def _then_trimmed(work: Callable[..., T], *args: object) -> T:
    """``work``, then the heap's free memory given back to the system: photos of every size leave the heap
    fragmented, and glibc keeps what it freed (`models.measure.http_memory`, 1,000 varied uploads: a peak of 731
    MB and 616 MB kept after them; with this and the sessions' arenas off, `vision.onnxmodel`, 443 and 213 MB)."""
    try:
        return work(*args)
    finally:
        _release_heap()


@lru_cache(maxsize=1)
def _libc() -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL("libc.so.6")
    except OSError:  # not glibc: nothing to trim
        return None


def _release_heap() -> None:
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)
