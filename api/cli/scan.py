"""`mcr scan`: read a photo of a winning hand, group its tiles and score it.

Prints the tiles read, the grouping, the hand notation, anything doubtful and the full score (as
`mcr score`). ``--json`` prints the scan contract (README, "Scanning a photo") with ``image``, ``width``
and ``height``; ``--annotate OUT.jpg`` draws the boxes, codes, groups and fans on the photo. A photo
that gives no valid hand still prints what was read and why, and exits with status 1.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from api.cli.score import add_situation_arguments, situation_fields, table
from vision.detector_options import add_model_arguments, detector_from


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("scan", help="read and score the hand in a photo", description=__doc__,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("image", metavar="PHOTO", help="photo of the hand (JPEG, PNG, ...)")
    parser.add_argument("--json", action="store_true", help="print the scan as JSON")
    parser.add_argument("--annotate", type=Path, metavar="OUT.jpg", help="write the annotated photo here")
    parser.add_argument("--win-tile", metavar="T", help="the winning tile, when the photo does not show it")
    parser.add_argument("--melds", metavar="M", help="every meld of the hand, in brackets as in `mcr score` (e.g. "
                        "'[EEEE][567m,2]'), in place of those read: a kong shown face down, a claim the photo "
                        "does not show; 'none' where tiles read as melds stand")
    add_model_arguments(parser, views=False)
    add_situation_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from scoring import Situation, parse_melds
    from scoring.tiles import tile
    from vision.imagefile import load_photo
    from vision.scan import SCAN_SIDE, ScanOverrides, scan_photo

    fields = situation_fields(args)
    situation = Situation.from_json(fields)
    overrides = ScanOverrides(win_tile=tile(args.win_tile) if args.win_tile else None, flowers=fields.get("flowers"),
                              melds=parse_melds(args.melds) if args.melds else None)
    photo = load_photo(args.image, SCAN_SIDE)  # a bad path fails before the model loads
    result = scan_photo(photo, detector_from(args, conf=0.25), situation, overrides, all_sides=args.all_sides)
    if args.annotate:
        from vision.annotate import annotate, save_image

        save_image(args.annotate, annotate(photo.full_size(), result))
    data = {"image": args.image, "width": photo.width, "height": photo.height, **result.to_json()}
    print(json.dumps(data, ensure_ascii=False) if args.json else report(data))
    return 0 if result.hand is not None else 1


def report(data: dict[str, Any]) -> str:
    """The readable scan: tiles, groups, doubts, then the score table."""
    tiles = data["tiles"]
    lines = [f"{data['image']}: {data['width']}x{data['height']}, {len(tiles)} tiles read"]
    hand = data["hand"]
    if hand is not None:
        for group in hand["groups"]:
            name = group["kind"] or ""
            source = {1: " from the left", 2: " from opposite", 3: " from the right"}.get(group["from"], "")
            hidden = " (concealed)" if group["concealed"] and group["role"] == "meld" else ""
            faces = " ".join(tiles[i]["code"] for i in group["tiles"])
            lines.append(f"  {group['role']:<9} {name:<5} {faces}{source}{hidden}")
        lines.append(f"hand: {hand['notation']}")
    for doubt in data["doubts"]:
        also = f" (maybe: {' '.join(doubt['alternatives'])})" if doubt["alternatives"] else ""
        lines.append(f"check: {doubt['message']}{also}")
    if data["score"] is not None:
        lines += ["", table(data["score"])]
    elif hand is None:
        lines.append("no valid hand could be read from this photo: nothing scored")
    return "\n".join(lines)
