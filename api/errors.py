"""Every refusal the service makes, as one JSON shape: ``{"error": code, "detail": message}``.

Handlers turn the library's own errors (a ``HandError`` from the scorer, pydantic's validation errors)
into 4xx answers that name the problem, so no bad input ever surfaces as a 500.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from api.ledger_store import LedgerError, MatchNotFound
from scoring import HandError
from scoring.match import MatchError
from scoring.hand import SituationError
from scoring.notation import NotationError
from scoring.tiles import TileError


class ApiError(Exception):
    """A request the service refuses: HTTP ``status``, a stable machine ``code`` and a readable message."""

    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail = status, code, detail


def hand_error(exc: HandError) -> ApiError:
    """The scorer's refusal, with a code saying which kind of input was wrong."""
    code = ("bad_notation" if isinstance(exc, NotationError)
            else "bad_situation" if isinstance(exc, SituationError) else "impossible_hand")
    return ApiError(422, code, str(exc))


def _body(code: str, detail: str) -> dict[str, str]:
    return {"error": code, "detail": detail}


def _where(loc: tuple[object, ...]) -> str:
    """A pydantic location as a readable path, without the leading ``body``/``query`` part."""
    parts = loc[1:] if len(loc) > 1 and loc[0] in ("body", "query", "path", "header") else loc
    return ".".join(str(p) for p in parts) or "request"


def install(app: FastAPI) -> None:
    """Register the handlers that give every error the one JSON shape."""

    @app.exception_handler(ApiError)
    async def api_error(_: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(_body(exc.code, exc.detail), status_code=exc.status)

    @app.exception_handler(HandError)
    async def scorer_error(_: Request, exc: HandError) -> JSONResponse:
        err = hand_error(exc)
        return JSONResponse(_body(err.code, err.detail), status_code=err.status)

    @app.exception_handler(TileError)
    async def tile_error(_: Request, exc: TileError) -> JSONResponse:
        return JSONResponse(_body("unknown_tile", str(exc)), status_code=422)

    @app.exception_handler(MatchError)
    async def match_error(_: Request, exc: MatchError) -> JSONResponse:
        return JSONResponse(_body("bad_entry", str(exc)), status_code=422)

    @app.exception_handler(LedgerError)
    async def ledger_error(_: Request, exc: LedgerError) -> JSONResponse:
        if isinstance(exc, MatchNotFound):
            return JSONResponse(_body("no_match", str(exc)), status_code=404)
        return JSONResponse(_body("ledger_unavailable", str(exc)), status_code=503)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [f"{_where(tuple(e['loc']))}: {e['msg']}" for e in exc.errors()]
        return JSONResponse(_body("invalid_request", "; ".join(problems)), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}.get(exc.status_code, "bad_request")
        return JSONResponse(_body(code, str(exc.detail)), status_code=exc.status_code, headers=exc.headers)
