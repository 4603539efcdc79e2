"""Where tiles lie on the table, in tile-width units, before any camera: the layouts users photograph.

Plane coordinates: x to the player's right, y toward the player (and the camera). A tile's footprint is
1 wide and ``aspect`` deep, or ``aspect`` wide and 1 deep when it is turned sideways. Layout scenes also
return their groups, the ground truth the layout-grouping logic is tested against (see the README's
"Synthetic scenes" section for the conventions).
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Collection
from typing import Any

import numpy as np

from datasets.hands import Hand, Meld, random_hand
from scoring.tiles import BACK, TILES

LAYOUTS: tuple[str, ...] = ("hand", "loose", "grid", "table", "seat", "palm")
Available = Collection[str]  # the face codes a tile style has


@dataclass(frozen=True)
class Placed:
    """One tile on the table. ``angle`` (degrees) turns loose tiles about their centre."""

    code: str  # the tile's true face
    x: float  # footprint left edge
    y: float  # footprint far edge
    sideways: bool = False
    face_down: bool = False
    angle: float = 0.0
    group: int | None = None  # index into the layout's groups (hand layouts)
    position: int = 0  # order along the row within its group
    stacked: bool = False  # the added tile of an added kong, lying behind the sideways tile
    row: int = 0  # 0 the hand's row, 1 a second row of melds
    layers: int = 1  # tiles stacked here: 2 in an automatic table's raised wall (the top one is seen)

    @property
    def shown(self) -> str:
        """The class the photo shows: the face, or ``back`` when face down."""
        return BACK.code if self.face_down else self.code


@dataclass(frozen=True)
class Group:
    """A run of tiles that belong together in a hand photo."""

    kind: str  # "flowers" | "concealed" | "winning" | "chow" | "pung" | "kong"
    role: str  # "flowers" | "concealed" | "winning" | "meld"
    tiles: tuple[str, ...]
    meld: Meld | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "role": self.role, "tiles": list(self.tiles)}
        if self.meld is not None:
            out |= {k: v for k, v in self.meld.to_json().items() if k != "tiles"}
        return out


@dataclass(frozen=True)
class Layout:
    name: str
    tiles: tuple[Placed, ...]
    aspect: float
    hand: Hand | None = None
    groups: tuple[Group, ...] = ()


class Row:
    """Lays tiles left to right with their near edges on one line (``front``)."""

    def __init__(self, aspect: float, front: float, x: float = 0.0, index: int = 0) -> None:
        self.aspect, self.front, self.x, self.index = aspect, front, x, index
        self.tiles: list[Placed] = []

    def put(self, code: str, group: int, position: int, *, sideways: bool = False, face_down: bool = False,
            gap: float = 0.0) -> None:
        self.x += gap
        depth = 1.0 if sideways else self.aspect
        self.tiles.append(Placed(code, self.x, self.front - depth, sideways, face_down, group=group,
                                 position=position, row=self.index))
        self.x += self.aspect if sideways else 1.0

    def stack_behind_last(self, code: str, group: int, position: int) -> None:
        """The added tile of an added kong: sideways, directly behind the sideways tile just put."""
        last = self.tiles[-1]
        self.tiles.append(Placed(code, last.x, last.y - 1.0, sideways=True, group=group, position=position,
                                 stacked=True, row=self.index))


def _sideways_index(meld: Meld, count: int) -> int:
    """Which of ``count`` shown tiles lies sideways: the claimed chow tile, else the discarder's side."""
    if meld.kind == "chow":
        return meld.claimed or 0
    return {1: 0, 2: 1, 3: count - 1}[meld.source or 1]


def _put_meld(rng: np.random.Generator, row: Row, meld: Meld, group: int) -> None:
    tight = float(rng.uniform(0.0, 0.03))
    if meld.concealed:
        down = {0: (1, 2), 1: (0, 1, 2, 3), 2: (0, 3)}[int(rng.choice(3, p=[0.6, 0.25, 0.15]))]
        for i, code in enumerate(meld.tiles):
            row.put(code, group, i, face_down=i in down, gap=tight if i else 0.0)
        return
    stack = meld.added and rng.random() < 0.7  # else an added kong shows as 4 tiles, one sideways
    shown = meld.tiles[:3] if stack else meld.tiles
    side = _sideways_index(meld, len(shown))
    for i, code in enumerate(shown):
        row.put(code, group, i, sideways=i == side, gap=tight if i else 0.0)
        if stack and i == side:
            row.stack_behind_last(meld.tiles[3], group, 3)


def _touching(rng: np.random.Generator) -> float:
    """The gap between neighbouring tiles of a group: touching or nearly."""
    return float(rng.uniform(0.0, 0.04))


def _hand(rng: np.random.Generator, available: Available) -> Hand:
    """A random hand drawn only with faces the style has (styles lack at most a few)."""
    for _ in range(200):
        hand = random_hand(rng)
        if all(c in available for c in (*hand.all_tiles(), *hand.flowers)):
            return hand
    raise ValueError("this tile style lacks too many faces to draw a hand")


def hand_layout(rng: np.random.Generator, aspect: float, available: Available) -> Layout:
    """A winning hand in a row: flowers at the left, concealed tiles, the winning tile, then melds."""
    hand = _hand(rng, available)
    groups: list[Group] = []
    row = Row(aspect, front=aspect)
    if hand.flowers:
        groups.append(Group("flowers", "flowers", hand.flowers))
        for i, code in enumerate(hand.flowers):
            row.put(code, 0, i, gap=_touching(rng) if i else 0.0)
        row.x += float(rng.uniform(0.3, 1.2))
    concealed = list(hand.concealed)
    if rng.random() < 0.15:  # not every player sorts the hand
        concealed = [concealed[i] for i in rng.permutation(len(concealed))]
    groups.append(Group("concealed", "concealed", tuple(concealed)))
    for i, code in enumerate(concealed):
        row.put(code, len(groups) - 1, i, gap=_touching(rng) if i else 0.0)
    groups.append(Group("winning", "winning", (hand.win_tile,)))
    apart = 0.0 if rng.random() < 0.35 else float(rng.uniform(0.15, 0.7))
    row.put(hand.win_tile, len(groups) - 1, 0, gap=apart if concealed else 0.0)
    tiles = row.tiles
    if hand.melds:
        second_row = rng.random() < 0.3
        if second_row:  # melds in a row of their own, in front of or behind the hand
            offset = float(rng.uniform(0.3, 0.8)) + aspect
            # in front, leave room for a tile stacked behind a sideways one
            front = aspect + offset + 1.0 if rng.random() < 0.5 else aspect - offset
            meld_row = Row(aspect, front, x=float(rng.uniform(-1.0, 3.0)), index=1)
        else:
            meld_row = row
            meld_row.x += float(rng.uniform(0.4, 1.4))
        for j, meld in enumerate(hand.melds):
            groups.append(Group(meld.kind, "meld", meld.tiles, meld))
            if j:
                meld_row.x += float(rng.uniform(0.25, 0.9))
            _put_meld(rng, meld_row, meld, len(groups) - 1)
        if second_row:
            tiles = tiles + meld_row.tiles
    return Layout("hand", tuple(tiles), aspect, hand, tuple(groups))


def _random_codes(rng: np.random.Generator, n: int, back_share: float, available: Available) -> list[str]:
    faces = [t.code for t in TILES if t.code in available]
    return [BACK.code if rng.random() < back_share else faces[int(rng.integers(len(faces)))] for _ in range(n)]


def _placed(code: str, x: float, y: float, angle: float = 0.0) -> Placed:
    """A loose tile; ``back`` means face down (its face is unknown, so its code stays ``back``)."""
    return Placed(code, x, y, face_down=code == BACK.code, angle=angle)


def loose_layout(rng: np.random.Generator, aspect: float, available: Available) -> Layout:
    """Tiles scattered on the table at any angle, not overlapping."""
    n = int(rng.integers(3, 26))
    spread = np.sqrt(n) * 2.4
    centres: list[tuple[float, float]] = []
    tiles: list[Placed] = []
    for code in _random_codes(rng, n, 0.06, available):
        for _ in range(30):
            cx, cy = rng.uniform(0, spread, size=2)
            if all((cx - ox) ** 2 + (cy - oy) ** 2 > (aspect * 1.25) ** 2 for ox, oy in centres):
                centres.append((cx, cy))
                tiles.append(_placed(code, cx - 0.5, cy - aspect / 2, float(rng.uniform(-180, 180))))
                break
    return Layout("loose", tuple(tiles), aspect)


def grid_layout(rng: np.random.Generator, aspect: float, available: Available) -> Layout:
    """Rows of touching tiles, as in a tray or a sorted set laid out for a photo."""
    rows, cols = int(rng.integers(1, 7)), int(rng.integers(3, 12))
    gap_x, gap_y = float(rng.uniform(0, 0.1)), float(rng.uniform(0.05, 0.6))
    codes = _random_codes(rng, rows * cols, 0.03, available)
    tiles = tuple(_placed(codes[r * cols + c], c * (1 + gap_x), r * (aspect + gap_y))
                  for r in range(rows) for c in range(cols))
    return Layout("grid", tiles, aspect)


def table_layout(rng: np.random.Generator, aspect: float, available: Available) -> Layout:
    """A game in progress: a wall of face-down tiles, a few discards, and a hand in a row."""
    hand = hand_layout(rng, aspect, available)
    far = min(p.y for p in hand.tiles) - 0.8  # clear of the hand and its meld rows
    wall_y = far - aspect * float(rng.uniform(2.5, 4.0))
    wall_x = float(rng.uniform(-2.0, 2.0))
    wall = [Placed(BACK.code, wall_x + i * 1.0, wall_y, face_down=True) for i in range(int(rng.integers(6, 17)))]
    discards = [_placed(code, 2.0 + (i % 6) * 1.05, wall_y + aspect * (1.3 + 1.1 * (i // 6)))
                for i, code in enumerate(_random_codes(rng, int(rng.integers(0, 13)), 0.0, available))]
    discards = [p for p in discards if p.y + aspect < far]
    return Layout("table", (*wall, *discards, *hand.tiles), aspect, hand.hand, hand.groups)


def seat_layout(rng: np.random.Generator, aspect: float, available: Available) -> Layout:
    """A hand of 13–17 tiles (a winning hand, its flowers and melds in one row) on an automatic table, as
    photographed from the player's seat: in front of it the table's raised wall, 17 stacks of two face-down
    tiles, and discards beyond; the camera low (`datasets.scenes`)."""
    for _ in range(50):
        hand = hand_layout(rng, aspect, available)
        if 13 <= len(hand.tiles) <= 17 and len({p.row for p in hand.tiles}) == 1:
            break
    far = min(p.y for p in hand.tiles) - float(rng.uniform(0.3, 1.0))
    stacks = int(rng.integers(9, 18))  # a wall partly dealt from
    x0 = float(rng.uniform(-1.0, 3.0))
    wall = [Placed(BACK.code, x0 + i * 1.0, far - aspect, face_down=True, layers=2) for i in range(stacks)]
    discards = [_placed(code, 1.0 + (i % 6) * 1.05, far - aspect * (2.6 + 1.1 * (i // 6)))
                for i, code in enumerate(_random_codes(rng, int(rng.integers(0, 13)), 0.0, available))]
    return Layout("seat", (*discards, *wall, *hand.tiles), aspect, hand.hand, hand.groups)


def palm_layout(rng: np.random.Generator, aspect: float, available: Available) -> Layout:
    """One to five tiles held in a palm: side by side or loosely turned (the palm itself is the background,
    `datasets.backgrounds.palm`)."""
    codes = _random_codes(rng, int(rng.integers(1, 6)), 0.05, available)
    if rng.random() < 0.5:  # in a row, as shown to the camera
        return Layout("palm", tuple(_placed(c, i * (1 + _touching(rng)), 0.0) for i, c in enumerate(codes)), aspect)
    tiles = [_placed(c, i * 1.3, float(rng.uniform(-0.3, 0.3)), float(rng.uniform(-12, 12)))
             for i, c in enumerate(codes)]
    return Layout("palm", tuple(tiles), aspect)


BUILDERS = {"hand": hand_layout, "loose": loose_layout, "grid": grid_layout, "table": table_layout,
            "seat": seat_layout, "palm": palm_layout}


def make_layout(name: str, rng: np.random.Generator, available: Available) -> Layout:
    """A random layout of kind ``name`` using only faces in ``available``."""
    aspect = float(rng.uniform(1.25, 1.45))
    return BUILDERS[name](rng, aspect, available)
