"""`mcr serve`: the HTTP API and the table-side web page (FastAPI on uvicorn).

Limits come from ``MCR_*`` environment variables (see the README's HTTP API section): ``MCR_MODEL``,
``MCR_MAX_UPLOAD_MB`` (default 15), ``MCR_MAX_PIXELS``, ``MCR_INFERENCE_WORKERS``, ``MCR_PHOTO_QUEUE`` (default 16:
photos waiting beyond those being read; more get a 503 with Retry-After), ``MCR_ONNX_THREADS``; the
match sheets of the page at /match are kept in ``MCR_LEDGER`` (or ``--db``), by default under the user's
data folder.
"""

from __future__ import annotations

import argparse


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("serve", help="serve the HTTP API and the web page", description=__doc__,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; "
                        "0.0.0.0 for phones on the LAN)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--workers", type=int, default=1, help="processes, each with its own model (default 1)")
    parser.add_argument("--db", help="the match ledger file (sets MCR_LEDGER; default: the user's data folder)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        raise ValueError(f"--port must be 1-65535, got {args.port}")
    if args.workers < 1:
        raise ValueError(f"--workers must be at least 1, got {args.workers}")
    import os

    import uvicorn

    from api.settings import get_settings

    if args.db:
        os.environ["MCR_LEDGER"] = args.db
    from vision.detector_options import usable_cores

    # N processes share the cores this one may run on: each reads at most cores/N photos at once unless told otherwise.
    os.environ.setdefault("MCR_INFERENCE_WORKERS", str(max(1, usable_cores() // args.workers)))

    get_settings()  # a bad MCR_* variable is reported here, as one error line, before serving
    uvicorn.run("api.app:create_app", factory=True, host=args.host, port=args.port, workers=args.workers,
                log_level="info")
    return 0
