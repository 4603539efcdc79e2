"""`mcr waits`: what wins 13 held tiles and what each win is worth, or, for 14, which discard waits best.

``--json`` prints the answer of ``scoring.waits.answer_waits``: for 13 tiles ``{"ready", "shanten",
"waits": [{"tile", "kind", "unseen", "discard", "self_drawn"}]}``, each win the `mcr score --json` object;
for 14 ``{"shanten", "discards": [...]}``, best first. Documented in docs/referee.md.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from api.cli.score import add_seat_arguments, seat_fields


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "waits",
        help="what tiles win a ready hand (听牌) and what each is worth; for 14 tiles, the best discard",
        description="The waits of 13 held tiles (melds in brackets, as in `mcr score`, but no tile set apart "
        "as the winning one): each winning tile, how it finishes the hand, copies unseen, and its value on a "
        "discard and self-drawn; the shanten number when not ready. With 14 tiles, every discard, best first.",
    )
    parser.add_argument("hand", help='13 or 14 tiles in notation, e.g. "[567m,2]567p234p1s99s" or "123456789m23p55s"')
    parser.add_argument("--seen", default="", metavar="TILES",
                        help='tiles already seen: discards, others\' melds (e.g. "1155m E 9p")')
    parser.add_argument("--json", action="store_true", help="print the answer as JSON")
    parser.add_argument("--top", type=int, default=5, help="14 tiles: how many discards to show (default 5)")
    add_seat_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from scoring.waits import answer_waits

    answer = answer_waits({"hand": args.hand, "seen": args.seen, **seat_fields(args)})
    if args.json:
        print(json.dumps(answer, ensure_ascii=False, indent=2))
    elif "discards" in answer:
        print(discards_table(answer, args.top))
    else:
        print(waits_table(answer))
    return 0


def _value(win: dict[str, Any]) -> str:
    return str(win["total"]) if win["is_win"] else f"{win['fan_points']} (under 8)"


def waits_table(answer: dict[str, Any], indent: str = "") -> str:
    """Ready: one line per winning tile (kind, copies unseen, value on a discard and self-drawn); else the
    shanten number."""
    if not answer["ready"]:
        return f"{indent}Not ready: {answer['shanten']} tile(s) from ready (shanten {answer['shanten']})"
    waits = answer["waits"]
    unseen = sum(w["unseen"] for w in waits)
    lines = [f"{indent}Ready 听牌: {len(waits)} winning tile(s), {unseen} cop{'y' if unseen == 1 else 'ies'} unseen",
             f"{indent}  {'tile':<5} {'wait':<16} {'unseen':>6}   {'on a discard':<14} self-drawn"]
    for w in waits:
        lines.append(f"{indent}  {w['tile']:<5} {w['kind'].replace('_', ' '):<16} {w['unseen']:>6}   "
                     f"{_value(w['discard']):<14} {_value(w['self_drawn'])}")
    return "\n".join(lines)


def discards_table(answer: dict[str, Any], top: int) -> str:
    """14 tiles: the best discards first, each with the waits it leaves."""
    lines = ["14 tiles: already a complete hand (score it with mcr score)" if answer["shanten"] < 0
             else f"14 tiles, shanten {answer['shanten']}: discards, best first"]
    for option in answer["discards"][:top]:
        lines += ["", f"Discard {option['tile']}: {option['winning_tiles']} tile(s) left to win on",
                  waits_table(option, indent="  ")]
    return "\n".join(lines)
