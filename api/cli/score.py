"""`mcr score`: score a hand given in notation, or a stream of JSON requests with ``--jsonl``.

The ``--jsonl`` contract (one request object per input line, one answer object per output line, in
order, a bad line answered with ``{"ok": false, "error": ...}`` while the stream goes on) is public
and documented in the README's Scoring section.
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from typing import Any

WIND_CODES = ("E", "S", "W", "N")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "score",
        help="score a hand under MCR: fans, total, payouts",
        description="Score a finished hand under the Mahjong Competition Rules. Hand notation: melds in "
        "brackets ([567m,2] chow, [999s,3] pung, [8888p,1] kong, [SSSS] concealed kong, [1111s,6] added kong), "
        "then the standing tiles; the last tile is the winning tile.",
    )
    parser.add_argument("hand", nargs="?", help='hand notation, e.g. "[567m,2][567s,3]567p234p1s1s"')
    parser.add_argument("--jsonl", action="store_true",
                        help="read one JSON request per line on stdin; an \"id\" field is echoed in its answer")
    parser.add_argument("--workers", type=worker_count, default=1,
                        help="with --jsonl: processes that answer (default 1); the answers stay in order, each "
                        "written as soon as those before it are")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    add_situation_arguments(parser)
    parser.set_defaults(run=run)


def add_seat_arguments(parser: argparse.ArgumentParser) -> None:
    """The seat, round and discarder, and the flowers: what `mcr waits` shares with `mcr score` and `mcr scan`;
    `seat_fields` reads them back."""
    parser.add_argument("--seat", choices=WIND_CODES, default="E", help="the winner's seat wind (default E)")
    parser.add_argument("--round", choices=WIND_CODES, default="E", help="the prevalent wind (default E)")
    parser.add_argument("--discarder", choices=WIND_CODES, help="who discarded the winning tile (default: left)")
    parser.add_argument("--flowers", type=flower_count, help="number of flowers and seasons drawn (0-8)")


def add_situation_arguments(parser: argparse.ArgumentParser) -> None:
    """The win-condition flags, shared with `mcr scan`; `situation_fields` reads them back."""
    parser.add_argument("--self-drawn", action="store_true", help="won by drawing the tile (default: a discard)")
    add_seat_arguments(parser)
    add_condition_arguments(parser)


CONDITION_HELP = {
    "last_of_kind": "the winning tile was the last of its kind",
    "kong_replacement": "out with a kong's replacement tile",
    "robbing_kong": "won by robbing a kong",
    "last_wall_tile": "won on the last tile of the wall",
}


def add_condition_arguments(parser: argparse.ArgumentParser) -> None:
    """``--last-of-kind``, ``--kong-replacement``, ``--robbing-kong``, ``--last-wall-tile``."""
    for name, text in CONDITION_HELP.items():
        parser.add_argument(f"--{name.replace('_', '-')}", action="store_true", help=text)


def flower_count(text: str) -> int:
    """`--flowers`: a set holds 8 flowers and seasons, so 0-8; anything else is a usage error."""
    if not text.isdigit() or int(text) > 8:
        raise argparse.ArgumentTypeError(f"{text!r} is not a flower count (0-8)")
    return int(text)


def worker_count(text: str) -> int:
    """`--workers`: a positive number of processes."""
    if not text.isdigit() or not 1 <= int(text) <= 64:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of workers (1-64)")
    return int(text)


def seat_fields(args: argparse.Namespace) -> dict[str, Any]:
    """The request fields set by the flags of `add_seat_arguments` (a default discarder left out)."""
    fields: dict[str, Any] = {"seat_wind": args.seat, "prevalent_wind": args.round}
    if args.discarder is not None:
        fields["discarder"] = args.discarder
    if args.flowers is not None:
        fields["flowers"] = args.flowers
    return fields


def situation_fields(args: argparse.Namespace) -> dict[str, Any]:
    """The request fields (`scoring.request`) set by the flags of `add_situation_arguments`."""
    return {"win": "self_drawn" if args.self_drawn else "discard",
            **{name: getattr(args, name) for name in CONDITION_HELP}, **seat_fields(args)}


def run(args: argparse.Namespace) -> int:
    from api.cli import CliError
    from scoring.request import answer_request

    if args.workers != 1 and not args.jsonl:
        raise CliError("--workers is for a stream of requests: give it with --jsonl")
    if args.jsonl:
        if args.hand:
            raise CliError("give either a hand or --jsonl, not both")
        from api.cli.jsonl import stream

        return stream(sys.stdin, sys.stdout, args.workers)
    if not args.hand:
        raise CliError('give a hand in notation, e.g. mcr score "[567m,2][567s,3]567p234p1s1s", or --jsonl')
    request = {"hand": args.hand, **situation_fields(args)}
    answer = answer_request(request, raise_errors=True)
    print(json.dumps(answer, ensure_ascii=False, indent=2) if args.json else table(answer))
    return 0


def _reading_line(reading: dict[str, Any]) -> str:
    """The chosen reading: its sets, the claimed ones (or a pung finished by a discard) marked."""
    sets = " ".join(f"{s['tiles']}{'' if s['concealed'] else '*'}" for s in reading["sets"])
    return f"Reading ({reading['form'].replace('_', ' ')}): {sets}   (* = melded)"


def _pad(text: str, width: int) -> str:
    """Left-align text whose Chinese characters take two terminal columns each."""
    wide = sum(1 for c in text if unicodedata.east_asian_width(c) in "WF")
    return text + " " * max(0, width - len(text) - wide)


def table(answer: dict[str, Any]) -> str:
    """The readable form: the fans with English and Chinese names and points, the total, the payouts."""
    situation = answer["situation"]
    how = "self-drawn" if situation["win"] == "self_drawn" else "won on a discard"
    lines = [f"{answer['hand']}   ({how}, seat {situation['seat_wind']}, round {situation['prevalent_wind']})", ""]
    if answer["error"] == "not_a_win":
        lines.append("Not a complete hand: a false win.")
    for fan in answer["fans"]:
        count = f" x{fan['count']}" if fan["count"] > 1 else ""
        points = fan["points"] * fan["count"]
        lines.append(f"  {fan['en'] + count:<36} {_pad(fan['zh'], 10)}{points:>4}   {'; '.join(fan['evidence'])}")
    if answer["fans"]:
        lines.append(f"  {'fans (without flowers)':<36} {'':<10}{answer['fan_points']:>4}")
        lines.append(f"  {'total':<36} {'':<10}{answer['total']:>4}")
    if answer["reading"]:
        lines.append("\n" + _reading_line(answer["reading"]))
    if answer["error"] == "under_8":
        lines.append(f"\nOnly {answer['fan_points']} point(s) without flowers: under 8, a false win.")
    verdict = "Payouts" if answer["is_win"] else "False win: the caller pays 10 to each other player"
    lines.append(f"\n{verdict}: " + "  ".join(f"{seat} {amount:+d}" for seat, amount in answer["payouts"].items()))
    return "\n".join(lines)
