"""The `mcr` program: one subcommand per module in this package, each a thin layer over the library.

A subcommand module defines ``add_parser(subparsers)`` and sets ``run=`` (a function taking the parsed
arguments and returning an exit code) on its parser. User mistakes raise ``ValueError``/``OSError`` (or
``CliError``) and are printed as one ``error:`` line with exit status 2, never as a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Sequence

from vision.weights import REPOSITORY

# Subcommands in the order `mcr --help` lists them; each name is a module of this package.
SUBCOMMANDS: tuple[str, ...] = ("score", "waits", "match", "scan", "detect", "eval", "train", "synth", "label", "serve")


class CliError(Exception):
    """A problem with what the user asked for; its message is printed as is."""


def require_workbench(command: str, package: str) -> None:
    """Refuse a command that runs the training workbench (``models``, ``datasets``: in a checkout of the repository,
    never in the installed package) where there is none, before an import finds nothing or another project's
    package of that name."""
    if not (REPOSITORY / package / "__init__.py").is_file():
        raise CliError(f"mcr {command} runs in a checkout of the repository (it needs its {package}/ folder); "
                       "the installed package carries the shipped models only")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The `mcr` parser with every subcommand, or with ``command`` alone: a run of one command then imports its own
    module only (`mcr score --jsonl` starts in a third less time), and reads its arguments the same way."""
    parser = argparse.ArgumentParser(
        prog="mcr",
        description="MCR Lens: read a photo of a Chinese mahjong hand and score it under the "
        "Mahjong Competition Rules.",
    )
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", dest="command")
    for name in SUBCOMMANDS if command is None else (command,):
        importlib.import_module(f"{__name__}.{name}").add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(words[0] if words and words[0] in SUBCOMMANDS else None)
    args = parser.parse_args(words)
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    try:
        return int(args.run(args) or 0)
    except (CliError, ValueError, OSError) as exc:
        print(f"mcr {args.command}: error: {_said(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def _said(exc: Exception) -> str:
    """The error as one line for the user: a system call's failure as ``PATH: reason``, as the program's own
    messages name a path, not Python's ``[Errno 20] Not a directory: 'PATH'``."""
    if isinstance(exc, OSError) and exc.filename is not None and exc.strerror:
        return f"{exc.filename}: {exc.strerror}"
    return str(exc)


def program() -> None:
    """The `mcr` program: `main` on the command line, then exit with its status.

    A run that loaded Ray (`mcr label --engine ray`) ends the process without the interpreter's teardown: tearing
    down Ray Data's modules (pandas, pyarrow) and Ray's took 0.55 s after the last label was written, on every job
    on a 2-core machine, and after a run interrupted while Ray started, Ray's teardown could crash the process
    (status 139) or fail (status 1) instead of its 130. Everything the run wrote is closed by then (each file is
    written whole and renamed into place, Ray is shut down); the streams and the log handlers are flushed here."""
    status = main()
    if "ray" in sys.modules:
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    sys.exit(status)
