"""`mcr match`: a referee's score sheet for a 16-hand match, kept in the SQLite ledger (``api.ledger_store``).

Each action changes or shows one match (``--match ID``, default the one started last) in the ledger file
(``--db PATH``, default under the user's data folder). Players are named by name or by number 1-4 (their
order at ``new``: their seats E S W N in the first hand).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from api.cli.score import CONDITION_HELP, flower_count, add_condition_arguments


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("match", help="keep a match's score sheet: wins, draws, false wins, penalties, "
                                   "standings", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", type=Path, help="the ledger file (default: matches.sqlite3 in the user's data "
                        "folder, e.g. ~/.local/share/mcr-lens)")
    common.add_argument("--match", "-m", type=int, metavar="ID", help="the match (default: the one started last)")
    actions = parser.add_subparsers(title="actions", dest="action", metavar="ACTION", required=True)

    def action(name: str, text: str, run: Any) -> argparse.ArgumentParser:
        sub = actions.add_parser(name, help=text, description=text, parents=[common])
        sub.set_defaults(run=run)
        return sub

    new = action("new", "start a match: four players, in their first seats E S W N", _new)
    new.add_argument("players", nargs=4, metavar="PLAYER")
    new.add_argument("--name", default="", help="what to call the match (e.g. a table and round)")
    action("list", "list the matches in the ledger", _list)
    show = action("show", "show the sheet: every entry, the totals, the standings", _show)
    show.add_argument("--json", action="store_true", help="print the sheet as JSON")
    win = action("win", "a win of the current hand: by points typed or by its tiles, scored", _win)
    win.add_argument("winner", help="name or number 1-4")
    win.add_argument("--from", dest="discarder", metavar="PLAYER", help="who discarded the winning tile "
                     "(default: self-drawn)")
    value = win.add_mutually_exclusive_group(required=True)
    value.add_argument("--points", type=int, help="the hand's value, flowers included")
    value.add_argument("--hand", metavar="NOTATION", help="the winning hand, scored in its seat and round")
    win.add_argument("--flowers", type=flower_count, help="with --hand: flowers drawn (0-8)")
    add_condition_arguments(win)
    action("draw", "the current hand ends without a winner", _draw)
    false_win = action("false-win", "a false win (错和): the caller pays 10 to each other player", _false_win)
    false_win.add_argument("player")
    penalty = action("penalty", "a referee's penalty: points taken from a player", _penalty)
    penalty.add_argument("player")
    penalty.add_argument("points", type=int)
    penalty.add_argument("--reason", required=True, help="why, as the sheet will say")
    action("undo", "take back the last entry", _undo)
    export = action("export", "write the sheet as JSON or CSV (to import again)", _export)
    export.add_argument("--format", choices=("json", "csv"), default="json")
    export.add_argument("--output", "-o", type=Path, help="the file (default: standard output)")
    load = action("import", "add a match from an exported JSON or CSV file", _import)
    load.add_argument("file", type=Path)
    load.add_argument("--name", help="the match's name (default: the file's, or its file name)")


def _ledger(args: argparse.Namespace):
    from api.ledger_store import Ledger

    return Ledger(args.db)


def _match_id(args: argparse.Namespace, ledger: Any) -> int:
    return args.match if args.match is not None else ledger.latest()


def _player(match: Any, text: str) -> int:
    """A player by number 1-4 or by name (any case)."""
    from api.cli import CliError

    if text.isdigit() and 1 <= int(text) <= 4:
        return int(text) - 1
    names = [p.casefold() for p in match.players]
    if text.strip().casefold() in names:
        return names.index(text.strip().casefold())
    raise CliError(f"{text!r} is not a player: give a name ({', '.join(match.players)}) or a number 1-4")


def _changed(args: argparse.Namespace, make: Any) -> int:
    """Add the entry ``make(match)`` builds to the chosen match, then show the sheet."""
    ledger = _ledger(args)
    match_id = _match_id(args, ledger)
    print(sheet_text(match_id, ledger.add(match_id, make)))
    return 0


def _new(args: argparse.Namespace) -> int:
    from scoring.match import Match

    ledger = _ledger(args)
    match = Match(tuple(args.players), name=args.name)
    print(sheet_text(ledger.create(match), match))
    return 0


def _list(args: argparse.Namespace) -> int:
    for s in _ledger(args).summaries():
        print(f"{s.id:>4}  {s.created}  {s.name or '(no name)'}: {', '.join(s.players)} ({s.entries} entries)")
    return 0


def _show(args: argparse.Namespace) -> int:
    from scoring.match_files import sheet_json

    ledger = _ledger(args)
    match_id = _match_id(args, ledger)
    match = ledger.load(match_id)
    print(json.dumps({"id": match_id, **sheet_json(match)}, ensure_ascii=False, indent=2) if args.json
          else sheet_text(match_id, match))
    return 0


def _win(args: argparse.Namespace) -> int:
    from scoring.match import win_entry

    def make(match: Any) -> Any:
        winner = _player(match, args.winner)
        discarder = _player(match, args.discarder) if args.discarder else None
        if args.hand is None:
            return win_entry(match, winner, discarder, value=args.points)
        conditions = tuple(name for name in CONDITION_HELP if getattr(args, name))
        return win_entry(match, winner, discarder, hand=args.hand, flowers=args.flowers, conditions=conditions)

    return _changed(args, make)


def _draw(args: argparse.Namespace) -> int:
    from scoring.match import Entry, EntryKind

    return _changed(args, lambda match: Entry(EntryKind.DRAW))


def _false_win(args: argparse.Namespace) -> int:
    from scoring.match import Entry, EntryKind

    return _changed(args, lambda match: Entry(EntryKind.FALSE_WIN, _player(match, args.player)))


def _penalty(args: argparse.Namespace) -> int:
    from scoring.match import Entry, EntryKind

    return _changed(args, lambda match: Entry(EntryKind.PENALTY, _player(match, args.player), value=args.points,
                                              reason=args.reason))


def _undo(args: argparse.Namespace) -> int:
    ledger = _ledger(args)
    match_id = _match_id(args, ledger)
    print(sheet_text(match_id, ledger.undo(match_id)))
    return 0


def _export(args: argparse.Namespace) -> int:
    from scoring.match_files import match_to_csv, sheet_json

    ledger = _ledger(args)
    match = ledger.load(_match_id(args, ledger))
    text = match_to_csv(match) if args.format == "csv" else json.dumps(sheet_json(match), ensure_ascii=False,
                                                                         indent=2) + "\n"
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, encoding="utf-8")
        print(f"wrote {args.output}", file=sys.stderr)
    return 0


def _import(args: argparse.Namespace) -> int:
    from scoring.match_files import match_from_csv, match_from_json

    text = args.file.read_text(encoding="utf-8")
    if args.file.suffix.lower() == ".csv":
        match = match_from_csv(text, args.name or args.file.stem)
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{args.file} is not JSON ({exc.msg}, line {exc.lineno}); a CSV file ends in .csv") from None
        match = match_from_json(data, args.name)
    print(sheet_text(_ledger(args).create(match), match))
    return 0


def describe(entry: dict[str, Any], players: list[str]) -> str:
    """An entry in words: ``Ann wins 12 on Cy's discard (typed hand)``."""
    who = players[entry["player"]] if entry["player"] is not None else ""
    if entry["kind"] == "draw":
        return "draw"
    if entry["kind"] == "false_win":
        return f"{who}: false win"
    if entry["kind"] == "penalty":
        return f"{who}: penalty {entry['value']} ({entry['reason']})"
    how = "self-drawn" if entry["discarder"] is None else f"on {players[entry['discarder']]}'s discard"
    source = {"points": "points typed", "typed": "typed hand", "scan": "scanned hand"}[entry["source"]]
    return f"{who} wins {entry['value']} {how} ({source})"


def sheet_text(match_id: int, match: Any) -> str:
    """The sheet as a referee reads it: the entries with what each paid, the totals, the next hand, the standings."""
    from scoring.match_files import sheet_json

    sheet = sheet_json(match)
    players = sheet["players"]
    width = max(6, *(len(p) + 1 for p in players))
    head = "".join(f"{p:>{width}}" for p in players)
    lines = [f"Match {match_id}{' ' + repr(sheet['name']) if sheet['name'] else ''}: {sheet['hands_played']} of 16 "
             f"hands played", f"  {'#':>3} {'hand':>4} {'':2} {'entry':<44}{head}"]
    for row in sheet["rows"]:
        deltas = "".join(f"{d:>+{width}}" for d in row["deltas"])
        lines.append(f"  {row['number']:>3} {row['hand_number']:>4} {row['prevalent_wind']:2} "
                     f"{describe(row, players)[:44]:<44}{deltas}")
    totals = sheet["rows"][-1]["totals"] if sheet["rows"] else [0] * 4
    lines.append(f"  {'totals':<55}" + "".join(f"{t:>{width}}" for t in totals))
    upcoming = sheet["next_hand"]
    if upcoming:
        seats = ", ".join(f"{p} {w}" for p, w in zip(players, upcoming["seat_winds"]))
        lines.append(f"Next: hand {upcoming['number']}, {upcoming['prevalent_wind']} round; seats: {seats}")
    final = "Final standings" if sheet["over"] else "Standings so far"
    places = "  ".join(f"{s['rank']}. {s['name']} {s['score']:+d} ({s['table_points']:g})" for s in sheet["standings"])
    lines.append(f"{final} (table points): {places}")
    return "\n".join(lines)
