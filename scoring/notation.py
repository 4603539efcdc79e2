"""Hand notation compatible with ChineseOfficialMahjongHelper: ``[567m,2][999s,3]1122345p55s5p``.

Melds come first in brackets, then the standing tiles; the last tile of the string is the winning
tile. In a bracket the number says, for a chow, which tile was claimed (1-3, default 1); for a pung
or melded kong, from whom (1 left, 2 opposite, 3 right, default 1); 5-7 make a kong added to a pung
claimed from 1-3; a kong without a number is concealed. The comma is optional (``[123m1]``).
Flower and season faces may be written anywhere (``16f``); they are set aside, not standing tiles.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import islice

from scoring.hand import Hand, HandError, Meld, MeldError, MeldKind, TileCountError, check_flower_count
from scoring.held import Held
from scoring.tiles import BY_CODE, Tile, runs, tile

_TOKEN = re.compile(r"\[(?P<meld>[^\]]*)\]|(?P<run>\d+[mpszf]|[ESWNCFP]+)|(?P<digits>\d+)|(?P<bad>.)")
_MELD = re.compile(r"^(?P<tiles>\d+[mpsz]|[ESWNCFP]+),?(?P<n>\d)?$")
_ADDED_KONG_OFFSET = 4


class NotationError(HandError):
    """Text that is not hand notation; the message points at the offending part."""


_KEPT_RUN = 40  # characters: the longest run text kept read (a suit's 36 copies and its letter); a longer one, no
# hand's (a request's text may be megabytes of one run), is read each time, so the kept runs stay small


def _run_tiles(run: str) -> tuple[Tile, ...]:
    """The tiles of a run (``1155m``, ``ESW``), each text read once when it could be a hand's."""
    return _kept_run_tiles(run) if len(run) <= _KEPT_RUN else _read_run(run)


def _read_run(run: str) -> tuple[Tile, ...]:
    if run[-1].isalpha() and run[0].isdigit():
        suit = run[-1]
        return tuple([BY_CODE.get(d + suit) or tile(d + suit) for d in run[:-1]])  # tile() names a bad code
    return tuple([BY_CODE.get(c) or tile(c) for c in run])


# A hand's runs and melds come back in hand after hand: each text is read once (a bad one, raising, is not kept).
_kept_run_tiles = lru_cache(maxsize=1 << 14)(_read_run)


@lru_cache(maxsize=4096)
def _meld(body: str) -> Meld:
    found = _MELD.match(body)
    if not found:
        raise NotationError(f"malformed meld [{body}]: write e.g. [567m,2], [999s,3], [8888p,1] or [SSSS]")
    tiles = _run_tiles(found["tiles"])
    n = int(found["n"]) if found["n"] else None
    if len(tiles) == 4:
        if n is None:
            return Meld(MeldKind.KONG, tiles, concealed=True)
        added = n > _ADDED_KONG_OFFSET
        source = n - _ADDED_KONG_OFFSET if added else n
        if source not in (1, 2, 3):
            raise MeldError(f"kong [{body}]: the number is 1-3 (claimed from) or 5-7 (added, claimed from 1-3)")
        return Meld(MeldKind.KONG, tiles, source=source, added=added)
    if len(tiles) != 3:
        raise MeldError(f"meld [{body}] has {len(tiles)} tiles: a chow or pung has 3, a kong 4")
    if len(set(tiles)) == 1:
        if n is not None and n not in (1, 2, 3):
            raise MeldError(f"pung [{body}]: the number says who it was claimed from, 1-3")
        return Meld(MeldKind.PUNG, tiles, source=n or 1)
    if n is not None and n not in (1, 2, 3):
        raise MeldError(f"chow [{body}]: the number says which tile was claimed, 1-3")
    return Meld(MeldKind.CHOW, tuple(sorted(tiles, key=lambda t: t.index)), claimed=(n or 1) - 1)


def _bad_part(text: str, compact: str, place: int) -> NotationError:
    """The error for the token at ``place`` in ``compact`` (``text`` without spaces), no tile nor meld: ranks
    without a suit, or any other character."""
    found = next(islice(_TOKEN.finditer(compact), place, None))
    if found.lastgroup == "digits":
        return NotationError(
            f"ranks {found[0]} at position {found.start() + 1} of {text!r} have no suit letter (m, p, s or z)"
        )
    return NotationError(f"unexpected {found[0]!r} at position {found.start() + 1} of {text!r}")


def _read(text: str) -> tuple[list[Meld], list[Tile], list[Tile]]:
    """The melds, standing tiles and flower faces written in ``text``, in the order written. The tokens' texts
    come from one ``findall`` (no match objects); a bad token is found again for its place in the error."""
    melds: list[Meld] = []
    standing: list[Tile] = []
    bonus: list[Tile] = []
    compact = text.replace(" ", "")
    for place, (meld, run, digits, bad) in enumerate(_TOKEN.findall(compact)):
        if run:
            (bonus if run[-1] == "f" else standing).extend(_run_tiles(run))
        elif digits or bad:
            raise _bad_part(text, compact, place)
        else:  # a bracket, maybe empty
            if standing:
                raise NotationError(f"meld [{meld}] after standing tiles: write the melds first")
            melds.append(_meld(meld))
    return melds, standing, bonus


def parse_hand(text: str, flowers: int | None = None) -> Hand:
    """Read hand notation; ``flowers`` (a count) overrides the flower faces written in the text.

    >>> parse_hand("[567m,2][999s,3]11234p55s5p").win_tile.code
    '5p'
    """
    melds, standing, bonus = _read(text)
    if not standing:
        raise TileCountError(f"no standing tiles in {text!r}: the last tile written is the winning tile")
    count = len(bonus) if flowers is None else check_flower_count(flowers)
    return Hand(tuple(standing[:-1]), tuple(melds), standing[-1], tuple(bonus), count)


def parse_held(text: str, flowers: int | None = None) -> Held:
    """Read the notation of 13 or 14 held tiles (no tile is set apart as the winning one).

    >>> parse_held("[567m,2][999s,3]11234p55s").before_discard
    False
    """
    melds, standing, bonus = _read(text)
    count = len(bonus) if flowers is None else check_flower_count(flowers)
    return Held(tuple(standing), tuple(melds), tuple(bonus), count)


NO_MELDS = "none"  # what `parse_melds` reads as a hand with no melds: brackets cannot write an empty list


def parse_melds(text: str) -> tuple[Meld, ...]:
    """Melds alone, each in brackets as in hand notation (``[567m,2][EEEE]``), or ``none``: what a photo's reading
    of its melds is corrected with (a concealed kong shown face down, a claim the photo does not show, tiles read
    as melds that stand).

    >>> [m.kind.value for m in parse_melds("[567m,2][EEEE]")]
    ['chow', 'kong']
    >>> parse_melds("none")
    ()
    """
    if text.strip().lower() == NO_MELDS:
        return ()
    melds, standing, bonus = _read(text)
    if standing or bonus or not melds:
        raise NotationError(f"{text!r}: write melds only, each in brackets (e.g. [567m,2][EEEE]), or "
                            f"{NO_MELDS} for a hand with no melds")
    return tuple(melds)


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Tiles written as runs, without melds (``1155m E 9p``): the tiles a player has seen.

    >>> len(parse_tiles("1155m E 9p"))
    6
    """
    melds, standing, bonus = _read(text)
    if melds or bonus:
        raise NotationError(f"{text!r}: list playable tiles only, without brackets or flowers")
    return tuple(standing)


def _runs(tiles: tuple[Tile, ...]) -> str:
    """Write tiles compactly: ranks grouped before their suit letter (flowers' too), honours as letters."""
    return runs([t.code for t in tiles])


def _format_meld(m: Meld) -> str:
    body = _runs(m.tiles)
    if m.kind is MeldKind.CHOW:
        return f"[{body},{(m.claimed or 0) + 1}]"
    if m.concealed:
        return f"[{body}]"
    return f"[{body},{(m.source or 1) + (_ADDED_KONG_OFFSET if m.added else 0)}]"


def format_melds(melds: tuple[Meld, ...] | list[Meld]) -> str:
    """Write melds as `parse_melds` reads them (``mcr scan --melds``): ``none`` for none."""
    return "".join(_format_meld(m) for m in melds) or NO_MELDS


def format_hand(hand: Hand) -> str:
    """Write a hand in notation; flower faces come first, so the last tile is still the winning tile.

    A flower count without faces cannot be written: pass it to ``parse_hand`` instead.

    >>> format_hand(parse_hand("[123m1]EEE456p789s1p1p"))
    '[123m,1]1456p789sEEE1p'
    """
    if not hand.melds:  # the flowers and the standing tiles in one run of codes: no suit letter joins the two
        return runs([t.code for t in hand.flowers + hand.concealed]) + hand.win_tile.code
    return "".join([_runs(hand.flowers), format_melds(hand.melds), _runs(hand.concealed), hand.win_tile.code])
