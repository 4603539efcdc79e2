"""Hand photos composed from crops of real tiles, laid out the ways players lay a hand down.

An end-to-end test of reading hands with melds that `mcr synth` did not shape: the tiles are cut from real
photos (tiles whose box overlaps no other box, from the training photos, never the held-out ones), and the layout
is drawn here, independently of `datasets.layouts`, each convention at random (`Conventions`): a chow's
claimed tile at the left end, in its rank place or not turned; a pung's or kong's turned tile anywhere or
none; melds right or left of the standing tiles or in a row in front or behind, in any order, touching
or far apart; added kongs stacked or side by side; concealed kongs in four forms; flowers at either end or
in their own row; a sliver of a stray tile at the photo's edge; the photo turned any way, in perspective.
Each scene keeps its true hand, so a reading can be scored against the truth (`models.measure.melds`). The crops
(`datasets.crops`) are split by source photo into ``dev`` (for choosing constants) and ``test`` (measured only).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass

import cv2
import numpy as np

from datasets.crops import CropBank
from scoring import Hand, Meld, MeldKind
from scoring.tiles import BACK, BONUS, COPIES_PER_FACE, PLAYABLE, Tile

WIDTH = 60  # a tile's width on the composed table (pixels); its depth is `DEPTH`
DEPTH = 80


@dataclass(frozen=True)
class Conventions:
    """How one composed photo lays its hand out; each field drawn at random (`draw`)."""

    chow: str  # "left": the claimed tile turned at the left end | "rank": turned in its rank place | "upright"
    claim: str  # pungs' and melded kongs' turned tile: "shown" | "none"
    melds_at: str  # "right" | "left" | "front" | "behind" (of the standing tiles)
    meld_gap: str  # between melds: "touching" | "narrow" | "wide"
    win_apart: bool
    added: str  # an added kong's fourth tile: "stacked" on the turned tile | "beside" it, turned too
    concealed_kong: str  # "ends_down" | "middle_down" | "all_down" | "all_up"
    flowers_at: str  # "left" | "right" | "row"
    sorted: bool  # the standing tiles sorted by suit and rank
    sliver: bool  # a stray tile cut by the photo's edge beyond the hand's row
    rotation: str  # "upright" | "sideways" | "across" (upside down) | "any"

    @classmethod
    def draw(cls, rng: np.random.Generator) -> Conventions:
        def one(*options: str) -> str:
            return options[int(rng.integers(len(options)))]

        return cls(one("left", "rank", "upright"), one("shown", "none"), one("right", "left", "front", "behind"),
                   one("touching", "narrow", "wide"), bool(rng.random() < 0.5), one("stacked", "beside"),
                   one("ends_down", "middle_down", "all_down", "all_up"), one("left", "right", "row"),
                   bool(rng.random() < 0.7), bool(rng.random() < 0.3), one("upright", "sideways", "across", "any"))

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def random_hand(rng: np.random.Generator) -> Hand:
    """A complete hand of four sets and a pair, 0-4 of the sets melded (chows, pungs, melded, added and
    concealed kongs), 0-3 flowers; no face more than four times."""
    left = Counter({t: COPIES_PER_FACE for t in PLAYABLE})
    suited = [t for t in PLAYABLE if t.is_suited and t.rank <= 7]

    def take(tiles: list[Tile]) -> bool:
        need = Counter(tiles)
        if any(left[t] < n for t, n in need.items()):
            return False
        left.subtract(need)
        return True

    def a_set(kinds: tuple[str, ...]) -> tuple[str, list[Tile]]:
        while True:
            kind = kinds[int(rng.integers(len(kinds)))]
            if kind == "chow":
                first = suited[int(rng.integers(len(suited)))]
                tiles = [PLAYABLE[first.index + k] for k in range(3)]
            else:
                face = PLAYABLE[int(rng.integers(len(PLAYABLE)))]
                tiles = [face] * (4 if "kong" in kind else 3)
            if take(tiles):
                return kind, tiles

    melds = []
    for _ in range(int(rng.choice([0, 1, 2, 3, 4], p=[0.1, 0.25, 0.3, 0.2, 0.15]))):
        kind, tiles = a_set(("chow", "chow", "pung", "kong", "added_kong", "concealed_kong"))
        if kind == "chow":
            melds.append(Meld(MeldKind.CHOW, tuple(tiles), claimed=int(rng.integers(3))))
        elif kind == "pung":
            melds.append(Meld(MeldKind.PUNG, tuple(tiles), source=int(rng.integers(1, 4))))
        else:
            melds.append(Meld(MeldKind.KONG, tuple(tiles), concealed=kind == "concealed_kong",
                              source=None if kind == "concealed_kong" else int(rng.integers(1, 4)),
                              added=kind == "added_kong"))
    standing: list[Tile] = []
    for _ in range(4 - len(melds)):
        standing += a_set(("chow", "chow", "pung"))[1]
    while True:
        pair = PLAYABLE[int(rng.integers(len(PLAYABLE)))]
        if take([pair, pair]):
            standing += [pair, pair]
            break
    win = standing.pop(int(rng.integers(len(standing))))
    flowers = rng.choice(len(BONUS), size=int(rng.choice([0, 1, 2, 3], p=[0.5, 0.2, 0.2, 0.1])), replace=False)
    return Hand(tuple(standing), tuple(melds), win, tuple(BONUS[int(k)] for k in sorted(flowers)))


@dataclass(frozen=True)
class Placed:
    """A tile on the composed table: the class it shows (``back`` face down), its footprint's top-left
    corner (table pixels, y toward the player), turned or not, and whether it belongs to the hand."""

    code: str
    x: float
    y: float
    sideways: bool = False
    in_hand: bool = True

    @property
    def size(self) -> tuple[float, float]:
        return (DEPTH, WIDTH) if self.sideways else (WIDTH, DEPTH)


Shown = tuple[str, bool]  # a tile of a meld as laid: the class shown, turned


def meld_tiles(meld: Meld, conv: Conventions, rng: np.random.Generator) -> tuple[list[Shown], int | None]:
    """A meld's tiles left to right as `conv` lays them, and which of them carries a stacked tile."""
    codes = [t.code for t in meld.tiles]
    if meld.kind is MeldKind.CHOW:
        c = int(meld.claimed or 0)
        if conv.chow == "left":
            return [(codes[c], True)] + [(x, False) for k, x in enumerate(codes) if k != c], None
        return [(x, conv.chow == "rank" and k == c) for k, x in enumerate(codes)], None
    if meld.concealed:
        down = {"ends_down": (0, 3), "middle_down": (1, 2), "all_down": (0, 1, 2, 3), "all_up": ()}[conv.concealed_kong]
        return [(BACK.code if k in down else x, False) for k, x in enumerate(codes)], None
    turned = {1: 0, 2: 1, 3: 2}[meld.source or 1]
    if meld.added:
        if conv.added == "stacked":
            return [(x, k == turned) for k, x in enumerate(codes[:3])], turned
        return [(x, k in (turned, turned + 1)) for k, x in enumerate(codes)], None
    if meld.kind is MeldKind.KONG:
        turned = {1: 0, 2: int(rng.integers(1, 3)), 3: 3}[meld.source or 1]
    return [(x, conv.claim == "shown" and k == turned) for k, x in enumerate(codes)], None


def _gap(kind: str, rng: np.random.Generator) -> float:
    """A gap in tile widths."""
    low, high = {"touching": (0.0, 0.06), "narrow": (0.15, 0.5), "wide": (1.0, 3.0), "apart": (0.35, 1.0),
                 "set": (0.5, 1.5)}[kind]
    return float(rng.uniform(low, high)) * WIDTH


def _row(segments: list[tuple[float, list[Shown], int | None]], x: float, bottom: float,
         rng: np.random.Generator) -> list[Placed]:
    """Tiles of a row whose footprints end at ``bottom``: segments of (gap before, tiles, stacked index);
    tiles of a segment touch, up to a hair's gap."""
    placed = []
    for gap, tiles, stacked in segments:
        x += gap
        for k, (code, sideways) in enumerate(tiles):
            w, d = (DEPTH, WIDTH) if sideways else (WIDTH, DEPTH)
            placed.append(Placed(code, x, bottom - d, sideways))
            if stacked == k:
                placed.append(Placed(code, x, bottom - d - WIDTH * 0.62, True))
            x += w + float(rng.uniform(0, 0.05)) * WIDTH
    return placed


def lay_out(hand: Hand, conv: Conventions, rng: np.random.Generator) -> list[Placed]:
    """Where each tile of ``hand`` lies on the table (and a stray tile beyond the row, with ``sliver``)."""
    standing = [t.code for t in hand.concealed]
    if not conv.sorted:
        standing = [standing[k] for k in rng.permutation(len(standing))]
    head: list[tuple[float, list[Shown], int | None]] = [(0.0, [(c, False) for c in standing], None),
                                                         (_gap("apart" if conv.win_apart else "touching", rng),
                                                          [(hand.win_tile.code, False)], None)]
    order = rng.permutation(len(hand.melds))
    melds = [meld_tiles(hand.melds[k], conv, rng) for k in order]
    meld_row = [(_gap(conv.meld_gap, rng) if k else 0.0, tiles, stacked) for k, (tiles, stacked) in enumerate(melds)]
    flowers: list[tuple[float, list[Shown], int | None]] = \
        [(0.0, [(t.code, False) for t in hand.flowers], None)] if hand.flowers else []
    main = list(head)
    if melds and conv.melds_at == "right":
        main += [(_gap("set", rng), *meld_row[0][1:])] + meld_row[1:]
    elif melds and conv.melds_at == "left":
        main = meld_row + [(_gap("set", rng), *main[0][1:])] + main[1:]
    if flowers and conv.flowers_at == "left":
        main = flowers + [(_gap("set", rng), *main[0][1:])] + main[1:]
    elif flowers and conv.flowers_at == "right":
        main += [(_gap("set", rng), *flowers[0][1:])]
    placed = _row(main, 0.0, 0.0, rng)
    spare = ["front", "behind"]
    if melds and conv.melds_at in spare:
        spare.remove(conv.melds_at)
        placed += _row(meld_row, float(rng.uniform(-1, 3)) * WIDTH, _second_row(conv.melds_at, rng), rng)
    if flowers and conv.flowers_at == "row":
        side = spare[int(rng.integers(len(spare)))]
        placed += _row(flowers, float(rng.uniform(-1, 4)) * WIDTH, _second_row(side, rng), rng)
    if conv.sliver:
        last = max((p for p in placed if p.y + p.size[1] > -1), key=lambda p: p.x + p.size[0])
        stray = PLAYABLE[int(rng.integers(len(PLAYABLE)))].code
        placed.append(Placed(stray, last.x + last.size[0] + float(rng.uniform(0.05, 0.3)) * WIDTH, -DEPTH, False, False))
    return placed


def _second_row(side: str, rng: np.random.Generator) -> float:
    """The bottom edge of a second row in front of (toward the player) or behind the hand's row."""
    gap = float(rng.uniform(0.3, 1.0)) * DEPTH
    return DEPTH + gap if side == "front" else -DEPTH - gap


@dataclass(frozen=True)
class ComposedScene:
    """A composed photo (BGR), the hand it shows, the classes of the hand's tiles as shown (``back`` for
    a face-down one), and the conventions it was laid out in (``sliver`` False where none fit the frame);
    ``boxes``: each tile's box in the photo (n x 4, xyxy, the hand's tiles then any sliver, clipped to the
    photo) with its class in ``classes``, what a perfect detector would give."""

    image: np.ndarray
    hand: Hand
    shown: tuple[str, ...]
    conventions: Conventions
    boxes: np.ndarray
    classes: tuple[str, ...]


TABLES = ((40, 110, 45), (120, 80, 30), (60, 95, 140), (110, 110, 110), (45, 45, 50), (150, 160, 170))  # BGR


def compose(bank: CropBank, seed: int) -> ComposedScene:
    """The scene of one seed: a random hand, laid out in random conventions, photographed."""
    rng = np.random.default_rng(seed)
    hand, conv = random_hand(rng), Conventions.draw(rng)
    placed = lay_out(hand, conv, rng)
    state = rng.bit_generator.state
    image, corners = _photographed(placed, conv, bank, rng)
    if conv.sliver:
        image, fits, shift = _cut_sliver(image, corners, rng)
        corners = [c - shift for c in corners]
        if not fits:  # the same photo without the stray tile
            placed, rng.bit_generator.state = placed[:-1], state
            image, corners = _photographed(placed, conv, bank, rng)
        conv = Conventions(**{**conv.to_json(), "sliver": fits})
    shown = tuple(p.code for p in placed if p.in_hand)
    height, width = image.shape[:2]
    boxes = np.array([[*c.min(axis=0), *c.max(axis=0)] for c in corners], np.float32)
    boxes = np.clip(boxes, 0, [width, height, width, height])
    seen = (boxes[:, 2] - boxes[:, 0] > 1) & (boxes[:, 3] - boxes[:, 1] > 1)
    return ComposedScene(image, hand, shown, conv, boxes[seen], tuple(p.code for p, s in zip(placed, seen) if s))


def _photographed(placed: list[Placed], conv: Conventions, bank: CropBank,
                  rng: np.random.Generator) -> tuple[np.ndarray, list[np.ndarray]]:
    """The photo of the tiles and each tile's footprint corners in it."""
    table, offset = _table(placed, bank, rng)
    image, warp = _photograph(table, conv, rng)
    return image, [_corners(p, offset, warp) for p in placed]


def _table(placed: list[Placed], bank: CropBank, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The table seen from straight above with the tiles on it, and the table pixel of plane point 0."""
    x0 = min(p.x for p in placed) - 2 * DEPTH
    y0 = min(p.y for p in placed) - 2 * DEPTH
    x1 = max(p.x + p.size[0] for p in placed) + 2 * DEPTH
    y1 = max(p.y + p.size[1] for p in placed) + 2 * DEPTH
    height, width = int(y1 - y0), int(x1 - x0)
    colour = np.array(TABLES[int(rng.integers(len(TABLES)))], np.float32) * rng.uniform(0.8, 1.2)
    shade = np.linspace(rng.uniform(0.85, 1.0), rng.uniform(1.0, 1.15), width, dtype=np.float32)[None, :, None]
    table = colour[None, None] * shade + rng.normal(0, 4, (height, width, 3)).astype(np.float32)
    back = bank.pick(BACK.code, rng)  # one set: every face-down tile shows the same back
    for p in placed:
        crop = back if p.code == BACK.code else bank.pick(p.code, rng)
        if p.sideways:
            crop = cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE if rng.random() < 0.5 else cv2.ROTATE_90_COUNTERCLOCKWISE)
        w, h = int(round(p.size[0])), int(round(p.size[1]))
        tile = cv2.resize(crop, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32) * rng.uniform(0.92, 1.08)
        x, y = int(round(p.x - x0)), int(round(p.y - y0))
        table[y:y + h, x:x + w] = tile
    return np.clip(table, 0, 255).astype(np.uint8), np.array([-x0, -y0])


ROTATIONS = {"upright": (0.0,), "sideways": (90.0, -90.0), "across": (180.0,)}


def _photograph(table: np.ndarray, conv: Conventions, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The table turned as ``conv.rotation`` says, seen in perspective from the near side, at a phone
    photo's size; and the homography from table pixels to photo pixels."""
    height, width = table.shape[:2]
    tilt = float(rng.uniform(0.0, 0.3))  # the far edge this much narrower than the near one
    src = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    squeeze = 1 - tilt / 2
    dst = np.float32([[tilt * width / 2, (1 - squeeze) * height], [width * (1 - tilt / 2), (1 - squeeze) * height],
                      [width, height], [0, height]])
    if conv.rotation == "any":
        angle = float(rng.uniform(0, 360))
    else:
        options = ROTATIONS[conv.rotation]
        angle = options[int(rng.integers(len(options)))] + float(rng.uniform(-12, 12))
    turn = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0)
    dst = cv2.transform(dst[None], turn)[0]
    dst -= dst.min(axis=0)
    scale = float(rng.uniform(1000, 1800)) / float(dst.max())
    dst *= scale
    warp = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    size = (int(np.ceil(dst[:, 0].max())), int(np.ceil(dst[:, 1].max())))
    image = cv2.warpPerspective(table, warp, size, flags=cv2.INTER_LINEAR)
    inside = cv2.warpPerspective(np.ones(table.shape[:2], np.uint8), warp, size, flags=cv2.INTER_NEAREST)
    around = np.median(table[:8].reshape(-1, 3), axis=0) + rng.normal(0, 4, (*image.shape[:2], 3))
    image = np.where(inside[..., None] > 0, image, np.clip(around, 0, 255).astype(np.uint8))
    return image, warp


def _corners(p: Placed, offset: np.ndarray, warp: np.ndarray) -> np.ndarray:
    """A tile's footprint corners in photo pixels."""
    w, h = p.size
    square = np.float32([[p.x, p.y], [p.x + w, p.y], [p.x + w, p.y + h], [p.x, p.y + h]]) + offset.astype(np.float32)
    return cv2.perspectiveTransform(square[None], warp)[0]


def _cut_sliver(image: np.ndarray, corners: list[np.ndarray],
                rng: np.random.Generator) -> tuple[np.ndarray, bool, np.ndarray]:
    """The photo cut at the side beyond the stray tile (the last one) so that 15-40 % of its box shows,
    when that cut spares every tile of the hand (else the photo as it was), and where the cut photo's
    corner lies in the uncut one."""
    stray, hand = corners[-1], np.concatenate(corners[:-1])
    lo, hi = stray.min(axis=0), stray.max(axis=0)
    reach = hand.min(axis=0), hand.max(axis=0)
    share = float(rng.uniform(0.15, 0.4))
    centre = stray.mean(axis=0) - hand.mean(axis=0)
    axis = int(np.abs(centre).argmax())
    if centre[axis] > 0:
        cut = int(lo[axis] + share * (hi[axis] - lo[axis]))
        if cut <= reach[1][axis] + 2:
            return image, False, np.zeros(2)
        return (image[:, :cut] if axis == 0 else image[:cut]), True, np.zeros(2)
    cut = int(hi[axis] - share * (hi[axis] - lo[axis]))
    if cut >= reach[0][axis] - 2:
        return image, False, np.zeros(2)
    shift = np.array([cut, 0] if axis == 0 else [0, cut], np.float64)
    return (image[:, cut:] if axis == 0 else image[cut:]), True, shift
