"""The tile vocabulary, defined once: codes, names, kinds, ranks and the 43 model classes.

Every other module (scorer, detector, generator, API) takes tiles from here, so a code means the same
thing in a hand notation, a label file, a model output and a JSON answer. The model's class index is
the tile's position in ``TILES``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum


class Kind(str, Enum):
    """What family a tile belongs to; suited kinds carry the notation suffix as their value."""

    CHARACTERS = "m"
    DOTS = "p"
    BAMBOO = "s"
    WIND = "wind"
    DRAGON = "dragon"
    FLOWER = "flower"
    SEASON = "season"
    BACK = "back"

    @property
    def is_suit(self) -> bool:
        return self in (Kind.CHARACTERS, Kind.DOTS, Kind.BAMBOO)


@dataclass(frozen=True)
class Tile:
    """One tile face. ``index`` is its model class id; the 34 playable faces come first (0–33)."""

    index: int
    code: str
    kind: Kind
    rank: int  # 1–9 in a suit, 1–4 for winds (E S W N), dragons (C F P) and flowers/seasons, 0 for back
    en: str
    zh: str

    @property
    def is_suited(self) -> bool:
        return self.kind.is_suit

    @property
    def is_honor(self) -> bool:
        return self.kind in (Kind.WIND, Kind.DRAGON)

    @property
    def is_terminal(self) -> bool:
        return self.is_suited and self.rank in (1, 9)

    @property
    def is_terminal_or_honor(self) -> bool:
        return self.is_terminal or self.is_honor

    @property
    def is_bonus(self) -> bool:
        """Flowers and seasons: set aside when drawn, worth a point each, never part of the hand."""
        return self.kind in (Kind.FLOWER, Kind.SEASON)

    @property
    def is_playable(self) -> bool:
        """One of the 34 faces that make up hands (4 copies each in a set)."""
        return self.index < PLAYABLE_COUNT

    def __hash__(self) -> int:
        return self.index  # one face, one index: counting tiles (a hand's checks, a Counter) hashes them often

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Tile({self.code})"


_SUIT_NAMES = {
    Kind.CHARACTERS: ("Characters", "万"),
    Kind.DOTS: ("Dots", "筒"),
    Kind.BAMBOO: ("Bamboo", "条"),
}
_ZH_NUMERALS = "一二三四五六七八九"
_HONORS = (
    ("E", Kind.WIND, 1, "East Wind", "东"),
    ("S", Kind.WIND, 2, "South Wind", "南"),
    ("W", Kind.WIND, 3, "West Wind", "西"),
    ("N", Kind.WIND, 4, "North Wind", "北"),
    ("C", Kind.DRAGON, 1, "Red Dragon", "中"),
    ("F", Kind.DRAGON, 2, "Green Dragon", "发"),
    ("P", Kind.DRAGON, 3, "White Dragon", "白"),
)
_BONUS = (
    (Kind.FLOWER, "Plum", "梅"),
    (Kind.FLOWER, "Orchid", "兰"),
    (Kind.FLOWER, "Chrysanthemum", "菊"),
    (Kind.FLOWER, "Bamboo", "竹"),
    (Kind.SEASON, "Spring", "春"),
    (Kind.SEASON, "Summer", "夏"),
    (Kind.SEASON, "Autumn", "秋"),
    (Kind.SEASON, "Winter", "冬"),
)


def _build() -> tuple[Tile, ...]:
    rows: list[tuple[str, Kind, int, str, str]] = []
    for kind, (en, zh) in _SUIT_NAMES.items():
        rows += [(f"{r}{kind.value}", kind, r, f"{r} {en}", f"{_ZH_NUMERALS[r - 1]}{zh}") for r in range(1, 10)]
    rows += list(_HONORS)
    for i, (kind, en, zh) in enumerate(_BONUS):
        rank = i % 4 + 1
        rows.append((f"{i + 1}f", kind, rank, f"{en} ({kind.value})", zh))
    rows.append(("back", Kind.BACK, 0, "Face-down tile", "暗牌"))
    return tuple(Tile(i, *row) for i, row in enumerate(rows))


TILES: tuple[Tile, ...] = _build()
"""All 43 faces in model class order: 1m–9m, 1p–9p, 1s–9s, E S W N, C F P, 1f–8f, back."""
PLAYABLE_COUNT = 34
PLAYABLE: tuple[Tile, ...] = TILES[:PLAYABLE_COUNT]
BONUS: tuple[Tile, ...] = tuple(t for t in TILES if t.is_bonus)
BACK: Tile = TILES[-1]
CLASS_NAMES: tuple[str, ...] = tuple(t.code for t in TILES)
COPIES_PER_FACE = 4

# Every code ``tile`` reads, with ChineseOfficialMahjongHelper's honour digits: 1z–4z winds E S W N, 5z–7z
# dragons C F P.
BY_CODE: dict[str, Tile] = {t.code: t for t in TILES} | {f"{i + 1}z": TILES[27 + i] for i in range(7)}


class TileError(ValueError):
    """A string that is not a tile code; the message names it and says what codes exist."""


def tile(code: str) -> Tile:
    """The tile for a code (``"5p"``, ``"E"``, ``"3f"``, ``"back"``, or ``"1z"``–``"7z"``).

    >>> tile("7z").en
    'White Dragon'
    """
    found = BY_CODE.get(code)
    if found is None:
        raise TileError(
            f"unknown tile {code!r}: use 1m-9m, 1p-9p, 1s-9s, E S W N, C F P (or 1z-7z), 1f-8f or back"
        )
    return found


def full_set() -> list[Tile]:
    """The 144 physical tiles of an MCR set: 4 of each playable face and one of each flower/season."""
    return [t for t in PLAYABLE for _ in range(COPIES_PER_FACE)] + list(BONUS)


_RUN_GOES_ON = re.compile(r"([mpsf])(?=\d\1)")  # a suit letter the next code repeats


def runs(codes: list[str]) -> str:
    """Tile codes written compactly, as hands are written: ranks grouped before their suit letter (``123m``, flowers'
    too), honours as letters. The codes one after another, less each suit letter the next code repeats: one C pass.

    >>> runs(["1m", "2m", "E", "5p", "5p"])
    '12mE55p'
    """
    return _RUN_GOES_ON.sub("", "".join(codes))
