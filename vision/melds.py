"""Melds along a row of tiles: which stretches of a row are a chow, a pung or a kong, claimed from whom, and
how plausibly, from the tiles' faces and the row's geometry (`vision.rows.Row`: gaps, sideways tiles).

A claimed meld shows its claimed tile turned sideways (or none, where the player does not turn it): for a
pung or kong its place tells the discarder (left, middle, right); for a chow the turned tile is the claimed
one, in its rank place or at the meld's left end. Face-down tiles make a concealed kong (two ends, two
middles, all four). A tile lying on top of a turned one (or a second turned tile beside it) makes an added
kong. The readings that split a row into melds are weighed in `vision.readings`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from scoring import Meld, MeldKind
from scoring.tiles import BACK, Tile
from vision.detections import TileDetections
from vision.geometry import centres_and_sizes
from vision.rows import SIDEWAYS_ASPECT, Row, find_rows

SPACING_WEIGHT = 4.0  # how much the spacing of a meld's centres counts against its boxes' shapes
SIDEWAYS = 0.3  # sideways evidence (see `vision.rows.Row`) above which a tile counts as turned
UNTURNED = 1.0  # plausibility a meld with no tile turned gives up: tiles that show no claim may as well stand
SHOWN = 0.1  # ... under which no tile of a meld shows who discarded it (up to SIDEWAYS, the likeliest
# tile is still taken: on generated scenes, where a claimed meld always shows one, it is right more often)
SHOWN_MARGIN = 0.15  # ... and from SHOWN to SIDEWAYS, only when the meld's surest tile is this much above the
# next: boxes loose near 45° scatter every tile's evidence by ~0.2, so that without the margin a real hand's
# upright melds read as claimed from across or the right
SHOWN_BY_SPACING = 0.15  # near 45°: the share of a sideways tile's push on the spacing under which none shows
BESIDE_MARGIN = 0.3  # sideways evidence by which a kong's two turned neighbours stand out from its other two
APART = 0.2  # a gap (tile widths) above which tiles count as set apart
SLIVER = 0.7  # a box under this share of its row's typical tile size (sqrt of area: half a tile's area) is a
# sliver of a tile, cut by the photo's edge, or a tile's side; ending a row, it is left out at no cost
MAX_SETS = 4


@dataclass(frozen=True)
class TileGroup:
    """Tiles that belong together in the photo; ``tiles`` index the detections."""

    role: str  # "concealed" | "win" | "meld" | "flowers"
    tiles: tuple[int, ...]
    kind: MeldKind | None = None
    source: int | None = None
    concealed: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"role": self.role, "kind": self.kind.value if self.kind else None, "tiles": list(self.tiles),
                "from": self.source, "concealed": self.concealed}


@dataclass(frozen=True)
class ShownMeld:
    """A meld read from consecutive row positions ``start..stop-1`` (+ a stacked tile)."""

    meld: Meld | None  # None: a concealed kong shown all face down
    group: TileGroup
    quality: float
    sideways_shown: bool = True  # False: no tile lies sideways, who discarded it is assumed


class MeldReader:
    """The melds a set of detections shows along its rows; holds the geometry every reading shares."""

    def __init__(self, detections: TileDetections, same_boxes: MeldReader | None = None,
                 stacked: dict[int, int] | None = None) -> None:
        """``same_boxes``: a reader of the same boxes read as other faces, whose geometry (rows, the
        sideways tile of each stretch of a row, the rows near each row, the slivers, the stacked pairs) this one
        shares instead of working it out again (the mending reads a photo again for each tile it tries as another
        face). ``stacked``: the halves of boxes cut as an added kong's stacked pair (`vision.stacks`), the
        turned tile's index to the added one's: the turned tile lies sideways by the cut's own reckoning."""
        self.det = detections
        self.stacked_on = stacked if stacked is not None else same_boxes.stacked_on if same_boxes else {}
        self.faces = detections.tiles
        self.centres, wh = centres_and_sizes(detections.xyxy)
        self.size = np.sqrt(wh.prod(axis=1))
        if same_boxes is None:
            self.rows = find_rows(detections)
            self.slivers: set[int] = set()
            for row in self.rows:
                if len(row.tiles) >= 3:
                    bound = SLIVER * float(np.median(self.size[list(row.tiles)]))
                    self.slivers.update(i for i in row.tiles if self.size[i] < bound)
        else:
            self.rows, self.slivers = same_boxes.rows, same_boxes.slivers
        self._sideways: dict[tuple[tuple[int, ...], int, int], tuple[int, float]] = \
            {} if same_boxes is None else same_boxes._sideways
        # the rows near each row (`vision.readings.Reader.near`), kept with the rest of the geometry
        self._near: dict[tuple[tuple[int, ...], float, bool, float], list[Row]] = \
            {} if same_boxes is None else same_boxes._near
        # two rows read as one (`vision.readings.Reader.two_rows`), likewise
        self._two_rows: dict[tuple[Row, Row], tuple[Row, int] | None] = {} if same_boxes is None else same_boxes._two_rows

    def _sideways_at(self, row: Row, start: int, stop: int) -> tuple[int | None, float]:
        """`_find_sideways`, remembered: the partitions ask for the same stretches many times."""
        key = (row.tiles, start, stop)
        if key not in self._sideways:
            self._sideways[key] = self._find_sideways(row, start, stop)
        return self._sideways[key]

    def _find_sideways(self, row: Row, start: int, stop: int) -> tuple[int | None, float]:
        """Which tile of ``start..stop-1`` lies sideways (offset from start; None when none shows), and
        how plausible a claimed meld the tiles are for it: up to 1 when one tile clearly lies sideways,
        -1 when the boxes show none. A tile faintly sideways (`SHOWN` to `SIDEWAYS`) shows only when one
        tile of the meld stands out by `SHOWN_MARGIN` (loose boxes make every tile faintly sideways); the
        spacing may still name its neighbour (measured: naming the standout alone loses a rendered scene).
        Near 45° only the spacing of centres can tell (a sideways tile pushes its neighbours away), too
        weakly to rule a meld out."""
        spacing = row.spacing(start, stop)  # plain floats, as the rest (`Row.plain`)
        n = stop - start

        def error(j: int | None) -> float:
            total = 0.0
            for k, distance in enumerate(spacing):
                off = distance - ((SIDEWAYS_ASPECT if k == j else 1.0) + (SIDEWAYS_ASPECT if k + 1 == j else 1.0)) / 2
                total += off * off
            return total

        errors = [error(j) for j in range(n)]
        evidence = row.plain.sideways[start:stop]
        if not any(map(math.isnan, evidence)):  # the boxes decide; the spacing breaks near-ties
            j = max(range(n), key=lambda k: evidence[k] - SPACING_WEIGHT * errors[k])
            quality = min(evidence[j], 0.6) / 0.6 - (UNTURNED if evidence[j] < SIDEWAYS else 0.0)
            top = sorted(evidence, reverse=True)
            margin = top[0] - top[1] if n > 1 else math.inf
            shown = evidence[j] >= SIDEWAYS or (evidence[j] >= SHOWN and margin >= SHOWN_MARGIN)
            return (j if shown else None), quality
        j = min(range(n), key=errors.__getitem__)
        gain = min(max((error(None) - errors[j]) / 0.054, 0.0), 1.0)  # 1: spaced as one sideways tile
        return (j if gain >= SHOWN_BY_SPACING else None), 0.5 * gain

    def _stacked(self, index: int, face: Tile, used: set[int]) -> int | None:
        """A tile of ``face`` lying just behind the sideways tile ``index`` (an added kong), if any;
        ``used``: the tiles of the rows being read, never stacked."""
        for j in range(len(self.det)):
            if j in used or j == index or self.faces[j] is not face:
                continue
            if np.linalg.norm(self.centres[j] - self.centres[index]) < 1.7 * self.size[index]:
                return j
        return None

    def meld(self, row: Row, start: int, stop: int, used: set[int]) -> ShownMeld | None:
        """The meld shown by row positions ``start..stop-1``, or None when they are not one."""
        idx = row.tiles[start:stop]
        faces = [self.faces[i] for i in idx]
        n = len(idx)
        tight = -sum([max(gap - 0.1, 0.0) for gap in row.plain.gaps[start:stop - 1]]) * 2
        if any(f is BACK for f in faces):
            up = {f for f in faces if f is not BACK}
            if n != 4 or len(up) > 1:
                return None
            meld = Meld(MeldKind.KONG, (up.pop(),) * 4, concealed=True) if up else None
            shown = 1.0 if up else 0.0  # four backs in a row may as well be part of the wall
            return ShownMeld(meld, TileGroup("meld", idx, MeldKind.KONG, None, True), shown + tight)
        if any(not f.is_playable for f in faces):
            return None
        j, quality = self._sideways_at(row, start, stop)
        quality += tight
        shown = j is not None
        if len(set(faces)) == 1:
            beside = _turned_pair(row.sideways[start:stop]) if n == 4 else None
            if beside is not None:  # the first of the two turned tiles is the claimed one
                j, shown = beside, True
                quality = min(float(row.sideways[start + j:start + j + 2].min()), 0.6) / 0.6 + tight
            source = {0: 1, 1: 2, n - 1: 3}.get(j, 2) if shown else 1  # none shown: the left, as `Meld`
            if beside is not None:
                source = j + 1
            if n == 4:  # two tiles turned side by side: a pung's turned tile with the added one beside it
                turned = row.sideways[start:stop]
                added = beside is not None or \
                    shown and any(0 <= k < n and turned[k] >= SIDEWAYS for k in (j - 1, j + 1))
                meld = Meld(MeldKind.KONG, tuple(faces), source=source, added=added)
                return ShownMeld(meld, TileGroup("meld", idx, MeldKind.KONG, source), quality, shown)
            cut = next((k for k, i in enumerate(idx) if (on := self.stacked_on.get(i)) is not None
                        and on not in used and self.faces[on] is faces[0]), None)
            if cut is not None:  # the turned half of a box cut as a stacked pair: sideways (a turned tile's quality, 1)
                j, source, quality, stacked = cut, cut + 1, 1.0 + tight, self.stacked_on[idx[cut]]
            else:
                stacked = self._stacked(idx[j], faces[0], used) if shown else None
            if stacked is not None:
                meld = Meld(MeldKind.KONG, (faces[0],) * 4, source=source, added=True)
                return ShownMeld(meld, TileGroup("meld", (*idx, stacked), MeldKind.KONG, source), quality)
            meld = Meld(MeldKind.PUNG, tuple(faces), source=source)
            return ShownMeld(meld, TileGroup("meld", idx, MeldKind.PUNG, source), quality, shown)
        if n != 3 or not all(f.is_suited and f.kind == faces[0].kind for f in faces):
            return None
        ranks = [f.rank for f in faces]
        order = sorted(range(3), key=lambda k: ranks[k])
        if [ranks[k] - ranks[order[0]] for k in order] != [0, 1, 2]:
            return None
        if ranks == sorted(ranks):
            claimed = j
        elif ranks == sorted(ranks, reverse=True):
            claimed, quality = (2 - j if shown else None), quality - 0.5  # chows are laid in rank order
        elif shown and j == 0 and ranks[1] < ranks[2]:  # the claimed tile turned at the left end, the rest in order
            claimed = order.index(0)
        elif shown and j == 2 and ranks[0] > ranks[1]:  # ... read from the other end
            claimed, quality = order.index(2), quality - 0.5
        else:
            return None
        meld = Meld(MeldKind.CHOW, tuple(sorted(faces, key=lambda f: f.index)), source=1, claimed=claimed)
        return ShownMeld(meld, TileGroup("meld", idx, MeldKind.CHOW, 1), quality, shown)

    def partition(self, row: Row, start: int, stop: int, count: int | None,
                  used: set[int]) -> tuple[float, tuple[ShownMeld, ...]] | None:
        """The best split of row positions ``start..stop-1`` into melds (exactly ``count`` of them, or
        any number), each set apart from the one before; None when there is none."""
        best: dict[tuple[int, int], tuple[float, tuple[ShownMeld, ...]]] = {(start, 0): (0.0, ())}
        for i in range(start, stop):
            for m in range(MAX_SETS):
                if (i, m) not in best:
                    continue
                total, melds = best[(i, m)]
                for size in (3, 4):
                    if i + size > stop:
                        continue
                    found = self.meld(row, i, i + size, used)
                    if found is None:
                        continue
                    spaced = apart(float(row.gaps[i - 1])) if i > start else 0.0
                    value = (total + found.quality + spaced, (*melds, found))
                    key = (i + size, m + 1)
                    if key not in best or value[0] > best[key][0]:
                        best[key] = value
        ends = [(m, v) for (i, m), v in best.items() if i == stop and (count is None or m == count)]
        if not ends:
            return None
        return max(ends, key=lambda e: e[1][0])[1]


def in_concealed_kongs(detections: TileDetections, rows: list[Row]) -> set[int]:
    """The face-down tiles that make a concealed kong with two face-up tiles of one face in their row: the two
    middles of ``X back back X`` or the two ends of ``back X X back``, the four touching (`APART`). A back a reading
    found faintly (one turn of the photo alone) is a tile there, where a tile's side or a patch of felt that looks
    like one lies at a row's end or off it."""
    faces = detections.tiles
    found: set[int] = set()
    for row in rows:
        for k in range(len(row.tiles) - 3):
            four = [faces[i] for i in row.tiles[k:k + 4]]
            if (row.gaps[k:k + 3] > APART).any():
                continue
            up = [f for f in four if f is not BACK]
            if len(up) != 2 or up[0] != up[1]:
                continue
            if four[0] is not BACK and four[3] is not BACK or four[1] is not BACK and four[2] is not BACK:
                found.update(i for i, f in zip(row.tiles[k:k + 4], four, strict=True) if f is BACK)
    return found


def _turned_pair(evidence: np.ndarray) -> int | None:
    """The first of two neighbours of a kong that lie sideways where the other two stand (an added kong laid
    beside its turned tile), told by the two standing out from the others by `BESIDE_MARGIN`: in a short row the
    pair pulls the row's typical evidence up, so that each may stay under `SIDEWAYS`; None when no pair does."""
    if np.isnan(evidence).any():
        return None
    k = int(np.argmax(np.minimum(evidence[:-1], evidence[1:])))
    pair, others = evidence[k:k + 2], np.delete(evidence, [k, k + 1])
    return k if pair.min() >= SHOWN and pair.min() - others.max() >= BESIDE_MARGIN else None


def apart(gap: float) -> float:
    """How well a gap (tile widths) sets a meld apart: rewarded up to a tile, penalised when tight."""
    return min(gap, 1.0) - APART if gap >= APART else 4.0 * (gap - APART)
