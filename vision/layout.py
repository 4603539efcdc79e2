"""Detections → rows → groups → Hand: which tiles are standing, which won, which were melded, which
are flowers, with the doubts a referee should check.

Every reading is tried and the most plausible valid one wins: either orientation of the rows, each row
as the standing hand, with or without a second row of melds (or of more standing tiles, when no tile in
either row lies sideways and the rows lie one just behind the other), and every way of splitting the melds off its right end. A hand's tile count
(14, plus one per kong) fixes how many tiles each part holds, so the search is small. Plausibility adds
up the conventions of a photographed hand (see the README, "Scanning a photo"): melds set apart, one
sideways tile per claimed meld, face-down tiles in a concealed kong, no sideways tile among the standing
ones, flowers at the left end, standing tiles sorted from the player's
left, chows in rank order, a complete winning hand.

Rules where the photo cannot say, each reported as an ``assumed`` doubt: the winning tile is the
rightmost standing tile (set apart or not); an upside-down photo is told from the cues above, and with
none of them the photo's own left-to-right reading is kept; a concealed kong shown all face down gets
the first face seen nowhere else; a flower read twice (a set has one of each) whose less sure copy has
no unseen flower as its runner-up is taken as the first flower of its kind read nowhere (the count, not
which flower, scores). Flowers count only in the hand's own rows. Overrides (`Overrides`)
replace the winning tile, the melds or the flower count.

When the tiles as read make no winning hand but have a hand's tile count, the detector's runner-up faces
of the reading's doubtful tiles (one or two of them) are tried, and the most plausible winning reading
that gives up the least confidence is taken, each swap reported as an ``assumed`` doubt: a misread tile
is the likeliest reason a photo of a win reads as no win. With one tile too many, the reading without
one of its unsure tiles (under ``STRAY``) is tried the same way: a box where there is no tile (a sliver
of a tile at the photo's edge, a tile's reflection) is the likeliest reason then; the tile left out is
still listed, last, in no group, with an ``assumed`` doubt. A mended reading is taken over a valid hand
as read only when it is more plausible (a win counts 1, each unit of confidence given up costs
`COST_PER_CONFIDENCE`): a runner-up the detector hardly considered does not turn a hand that is no win
into one (held-out real hands 70 -> 72 of 80, generated scenes unchanged). A hand that is still no win
is scored as read (a false win is a referee's finding).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

import numpy as np

from scoring import Hand, HandError, Meld, MeldKind, is_complete, winning_faces
from scoring.tiles import BACK, PLAYABLE, TILES, Tile
from vision.detections import TileDetections
from vision.rows import SIDEWAYS_ASPECT, Row, find_rows

LOW_CONFIDENCE = 0.5  # tiles read below this confidence are reported as doubts
CLOSE = 0.5  # a runner-up face scored at least this share of the face read makes the tile doubtful too
MAX_DOUBTFUL = 6  # doubtful tiles tried as their runner-up (alone and in pairs) when the hand is no win
STRAY = 0.3  # tiles read under this confidence are tried as stray boxes when a reading has one tile too many
COST_PER_CONFIDENCE = 4.0  # plausibility given up per unit of detector confidence a swap gives up
UNSURE = 0.15  # plausibility margin under which the other direction of the rows is as likely
SPACING_WEIGHT = 4.0  # how much the spacing of a meld's centres counts against its boxes' shapes
SIDEWAYS = 0.3  # sideways evidence (see `vision.rows.Row`) above which a tile counts as turned
SHOWN = 0.1  # ... under which no tile of a meld shows who discarded it (up to SIDEWAYS, the likeliest
# tile is still taken: on generated scenes, where a claimed meld always shows one, it is right more often)
SHOWN_MARGIN = 0.15  # ... and from SHOWN to SIDEWAYS, only when the meld's surest tile is this much above the
# next: boxes loose near 45° scatter every tile's evidence by ~0.2 (a real hand's upright melds read as claimed
# from across or the right; held-out real hands 72 -> 74 of 80, generated scenes 69 -> 68 of 96)
SHOWN_BY_SPACING = 0.15  # near 45°: the share of a sideways tile's push on the spacing under which none shows
APART = 0.2  # a gap (tile widths) above which tiles count as set apart
ADJACENT_ROWS = 2.5  # tile widths between the lines of two rows of standing tiles read as one hand, at most
FLOWER_ROWS = 3.5  # ... and between the hand's row and a row of its flowers (beyond a row of melds, maybe)
SPACED = 0.5  # plausibility given up by two rows read as standing tiles per gap between their tiles wider than
SPACE = 0.4  # ... this (tile widths): loose boxes leave gaps up to ~0.3 between touching tiles
TRIMMED = 0.5  # plausibility given up per face-down tile at a row's end read as not part of the hand
SLIVER = 0.7  # a box under this share of its row's typical tile size (sqrt of area: half a tile's area) is a
# sliver of a tile, cut by the photo's edge, or a tile's side; ending a row, it is left out at no cost
SLIVER_COST = 1.5  # plausibility given up per sliver read as a tile of the hand
MAX_SETS = 4
HAND_TILES = 14


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
class Doubt:
    """Something to check by eye: a tile read with low confidence, an impossible reading, or a rule
    applied where the photo could not say. ``alternatives`` are other faces worth trying."""

    kind: str  # "low_confidence" | "impossible" | "assumed"
    tiles: tuple[int, ...]
    message: str
    alternatives: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "tiles": list(self.tiles), "message": self.message,
                "alternatives": list(self.alternatives)}


@dataclass(frozen=True)
class Overrides:
    """What the user says the photo shows, replacing the layout's reading."""

    win_tile: Tile | None = None
    melds: tuple[Meld, ...] | None = None
    flowers: int | None = None


@dataclass(frozen=True)
class LayoutReading:
    """The hand read from a photo (None when no valid reading exists), its groups and doubts, and the
    detections they index: those given, with any tile read as its runner-up face swapped in. ``guessed``:
    the hand leans on a guess that another look at the photo may settle (a tile read as its runner-up face,
    a box left out as a stray, a claimed meld with no tile sideways to show its discarder), where the other
    assumptions (the winning tile's place, a face-down kong's face) no look can."""

    hand: Hand | None
    groups: tuple[TileGroup, ...]
    doubts: tuple[Doubt, ...]
    detections: TileDetections
    guessed: bool = False


@dataclass(frozen=True)
class _Meld:
    """A meld read from consecutive row positions ``start..stop-1`` (+ a stacked tile)."""

    meld: Meld | None  # None: a concealed kong shown all face down
    group: TileGroup
    quality: float
    sideways_shown: bool = True  # False: no tile lies sideways, who discarded it is assumed


@dataclass(frozen=True)
class _Candidate:
    plausibility: float
    flowers: tuple[int, ...]
    head: tuple[int, ...]  # standing tiles then the winning tile, left to right
    melds: tuple[_Meld, ...]
    win_apart: bool
    flipped: bool  # read against the photo's own left to right


@dataclass(frozen=True)
class _Best:
    """A reader's best reading: the candidate, its hand (None: ``problem`` says why), whether it is a
    complete winning hand, its plausibility, and whether the rows' other direction was as likely."""

    candidate: _Candidate
    hand: Hand | None
    problem: str | None
    complete: bool
    value: float
    unsure: bool


class _Reader:
    """Reads one set of detections; holds what every candidate reading shares."""

    def __init__(self, detections: TileDetections, same_boxes: _Reader | None = None) -> None:
        """``same_boxes``: a reader of the same boxes read as other faces, whose geometry (rows, the
        sideways tile of each stretch of a row) this one shares instead of working it out again."""
        self.det = detections
        self.faces = detections.tiles
        xyxy = detections.xyxy.astype(np.float64)
        self.centres = (xyxy[:, :2] + xyxy[:, 2:]) / 2
        self.size = np.sqrt(np.prod(np.maximum(xyxy[:, 2:] - xyxy[:, :2], 1.0), axis=1))
        self.rows = find_rows(detections) if same_boxes is None else same_boxes.rows
        self.slivers = {i for row in self.rows if len(row.tiles) >= 3 for i in row.tiles
                        if self.size[i] < SLIVER * float(np.median(self.size[list(row.tiles)]))}
        self._sideways: dict[tuple[tuple[int, ...], int, int], tuple[int, float]] = \
            {} if same_boxes is None else same_boxes._sideways

    # --- melds -------------------------------------------------------------------------------------

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
        spacing = row.spacing(start, stop)
        n = stop - start

        def error(j: int | None) -> float:
            width = np.where(np.arange(n) == j, SIDEWAYS_ASPECT, 1.0)
            return float(((spacing - (width[:-1] + width[1:]) / 2) ** 2).sum())

        errors = np.array([error(j) for j in range(n)])
        evidence = row.sideways[start:stop]
        if not np.isnan(evidence).any():  # the boxes decide; the spacing breaks near-ties
            j = int((evidence - SPACING_WEIGHT * errors).argmax())
            quality = min(float(evidence[j]), 0.6) / 0.6 - (1.0 if evidence[j] < SIDEWAYS else 0.0)
            top = np.sort(evidence)[::-1]
            margin = top[0] - top[1] if len(top) > 1 else np.inf
            shown = evidence[j] >= SIDEWAYS or (evidence[j] >= SHOWN and margin >= SHOWN_MARGIN)
            return (j if shown else None), quality
        j = int(errors.argmin())
        gain = float(np.clip((error(None) - errors[j]) / 0.054, 0, 1))  # 1: spaced as one sideways tile
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

    def meld(self, row: Row, start: int, stop: int, used: set[int]) -> _Meld | None:
        """The meld shown by row positions ``start..stop-1``, or None when they are not one."""
        idx = row.tiles[start:stop]
        faces = [self.faces[i] for i in idx]
        n = len(idx)
        inner = row.gaps[start:stop - 1]
        tight = -float(np.clip(inner - 0.1, 0, None).sum()) * 2
        if any(f is BACK for f in faces):
            up = {f for f in faces if f is not BACK}
            if n != 4 or len(up) > 1:
                return None
            meld = Meld(MeldKind.KONG, (up.pop(),) * 4, concealed=True) if up else None
            shown = 1.0 if up else 0.0  # four backs in a row may as well be part of the wall
            return _Meld(meld, TileGroup("meld", idx, MeldKind.KONG, None, True), shown + tight)
        if any(not f.is_playable for f in faces):
            return None
        j, quality = self._sideways_at(row, start, stop)
        quality += tight
        shown = j is not None
        if len(set(faces)) == 1:
            source = {0: 1, 1: 2, n - 1: 3}.get(j, 2) if shown else 1  # none shown: the left, as `Meld`
            if n == 4:
                meld = Meld(MeldKind.KONG, tuple(faces), source=source)
                return _Meld(meld, TileGroup("meld", idx, MeldKind.KONG, source), quality, shown)
            stacked = self._stacked(idx[j], faces[0], used) if shown else None
            if stacked is not None:
                meld = Meld(MeldKind.KONG, (faces[0],) * 4, source=source, added=True)
                return _Meld(meld, TileGroup("meld", (*idx, stacked), MeldKind.KONG, source), quality)
            meld = Meld(MeldKind.PUNG, tuple(faces), source=source)
            return _Meld(meld, TileGroup("meld", idx, MeldKind.PUNG, source), quality, shown)
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
        return _Meld(meld, TileGroup("meld", idx, MeldKind.CHOW, 1), quality, shown)

    def partition(self, row: Row, start: int, stop: int, count: int | None,
                  used: set[int]) -> tuple[float, tuple[_Meld, ...]] | None:
        """The best split of row positions ``start..stop-1`` into melds (exactly ``count`` of them, or
        any number), each set apart from the one before; None when there is none."""
        best: dict[tuple[int, int], tuple[float, tuple[_Meld, ...]]] = {(start, 0): (0.0, ())}
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
                    apart = _apart(float(row.gaps[i - 1])) if i > start else 0.0
                    value = (total + found.quality + apart, (*melds, found))
                    key = (i + size, m + 1)
                    if key not in best or value[0] > best[key][0]:
                        best[key] = value
        ends = [(m, v) for (i, m), v in best.items() if i == stop and (count is None or m == count)]
        if not ends:
            return None
        return max(ends, key=lambda e: e[1][0])[1]

    # --- whole readings ----------------------------------------------------------------------------

    def candidates(self, strict: bool) -> Iterator[_Candidate]:
        """Every reading of the photo as a hand's parts (a valid hand or not)."""
        for flip in (False, True):
            oriented = [r.reversed() if flip else r for r in self.rows]
            flower_rows = tuple(r for r in oriented if len(r.tiles) < len(self.det) and
                                all(self.faces[i].is_bonus for i in r.tiles))
            rows = [r for r in oriented if r not in flower_rows]
            for main in rows:
                for side in (None, *[r for r in rows if r is not main]):
                    yield from self._readings(main, side, flip, strict, flower_rows)
                    ends = self._end_strays(main)
                    if ends:  # the rack's edge, the wall or a sliver of a tile ending the row, not the hand
                        cost = sum(0.0 if main.tiles[k] in self.slivers else TRIMMED for k in ends)
                        trimmed = self._readings(_without(main, ends), side, flip, strict, flower_rows)
                        yield from (replace(c, plausibility=c.plausibility - cost) for c in trimmed)
                    if side is not None and _upright(main) and _upright(side) and _adjacent(main, side) and \
                            all(self.faces[i].is_playable for i in side.tiles):
                        # standing tiles laid in two rows (no sideways tile shows a meld), one behind the other;
                        # standing tiles touch, so each gap in the rows counts against it (melds are set apart)
                        spaced = int((side.gaps > SPACE).sum() + (main.gaps > SPACE).sum())
                        joined = self._readings(_joined(side, main), None, flip, strict, flower_rows)
                        yield from (replace(c, plausibility=c.plausibility - SPACED * spaced) for c in joined)

    def _end_strays(self, row: Row) -> list[int]:
        """Positions at either end of a row that may not be the hand's: face-down tiles of a row with face-up
        ones, and slivers of tiles (`SLIVER`)."""
        ends = set(self._end_backs(row))
        for positions in (range(len(row.tiles)), range(len(row.tiles) - 1, -1, -1)):
            for k in positions:
                if row.tiles[k] not in self.slivers:
                    break
                ends.add(k)
        return sorted(ends)

    def _end_backs(self, row: Row) -> list[int]:
        """Positions of the face-down tiles at either end of a row that has face-up tiles too."""
        up = [k for k, i in enumerate(row.tiles) if self.faces[i] is not BACK]
        if not up:
            return []
        return [k for k in range(len(row.tiles)) if k < up[0] or k > up[-1]]

    def _readings(self, main: Row, side: Row | None, flip: bool, strict: bool,
                  flower_rows: tuple[Row, ...] = ()) -> Iterator[_Candidate]:
        """Readings with ``main`` holding the standing tiles (and maybe melds at either end) and ``side``
        only melds; ``flower_rows``: rows of flowers alone (those beside ``main`` are the hand's). Strict readings have the tile count of a hand; others are off by some."""
        bonus = [k for k, i in enumerate(main.tiles) if self.faces[i].is_bonus]
        side_melds: tuple[_Meld, ...] = ()
        value = 0.0
        rows = set(main.tiles) | set(side.tiles if side else ())  # a stacked tile lies in neither
        if side is not None:
            if any(self.faces[i].is_bonus for i in side.tiles):
                return
            found = self.partition(side, 0, len(side.tiles), None, rows)
            if found is None:
                return
            value, side_melds = found
        rest = _without(main, bonus) if bonus else main
        if bonus:
            left, right = bonus[0] == 0, bonus[-1] == len(main.tiles) - 1
            value += 0.5 if left and not right else (-0.5 if right and not left else 0.0)
        if flip:
            value -= 0.05  # with no cue either way, keep the photo's own left to right
        near = [r for r in flower_rows if _adjacent(main, r, FLOWER_ROWS)  # the hand's own, not discards
                and max(self.det.confidence[i] for i in r.tiles) >= STRAY]  # nor tiles of a heap misread
        flowers = (*tuple(main.tiles[k] for k in bonus), *(i for r in near for i in r.tiles))
        n = len(rest.tiles)
        for k in range(MAX_SETS - len(side_melds) + 1):
            expected = HAND_TILES - 3 * (k + len(side_melds))
            for tail in range(3 * k, 4 * k + 1):
                head_len = n - tail
                if head_len < 1 or (strict and head_len != expected):
                    continue
                for left in (False, True) if k else (False,):  # the melds right or left of the standing tiles
                    start = tail if left else 0
                    head = rest.tiles[start:start + head_len]
                    if any(self.faces[i] is BACK for i in head):
                        continue
                    total = value - 2.0 * abs(head_len - expected)
                    melds: tuple[_Meld, ...] = ()
                    if k:
                        if left and float(rest.gaps[tail - 1]) <= APART:
                            continue  # melds left of the standing tiles are read only when set apart from them
                        found = self.partition(rest, 0, tail, k, rows) if left else \
                            self.partition(rest, head_len, n, k, rows)
                        if found is None:
                            continue
                        total += found[0] + _apart(float(rest.gaps[tail - 1 if left else head_len - 1]))
                        melds = found[1]
                    standing = _without(rest, range(tail)) if left else rest
                    total += self._head_value(standing, head_len)
                    total -= SLIVER_COST * sum(i in self.slivers for i in (*head, *(t for m in melds for t in m.group.tiles)))
                    win_apart = head_len >= 2 and float(standing.gaps[head_len - 2]) > APART
                    yield _Candidate(total, flowers, head, (*melds, *side_melds), win_apart, flip)

    def _head_value(self, row: Row, head_len: int) -> float:
        """Plausibility of row positions ``0..head_len-1`` as standing tiles then the winning tile."""
        head = row.tiles[:head_len]
        value = 0.0
        turned = row.sideways[:head_len]
        if not np.isnan(turned).any():
            value -= 3.0 * float(np.clip(turned - SIDEWAYS, 0, None).sum())
        value -= float(np.clip(row.gaps[:head_len - 2] - 0.3, 0, None).sum())
        order = np.array([self.faces[i].index for i in head[:-1]])
        if len(order) > 1:
            steps = np.diff(order)  # sorted from the left: a cue only when clearly so
            moves = max(int((steps != 0).sum()), 1)
            sortedness = float((steps > 0).sum() - (steps < 0).sum()) / moves
            value += 0.6 * np.sign(sortedness) * max(abs(sortedness) - 0.5, 0.0) / 0.5
        if head_len >= 3:  # the winning tile set apart tells the right end from the left
            last, first = float(row.gaps[head_len - 2]), float(row.gaps[0])
            if max(last, first) > APART:
                value += float(np.clip(last - first, -0.5, 0.5))
        return value

    def best(self, strict_only: bool = False) -> _Best:
        """The most plausible reading: the best valid hand (a complete one counts 1 more); else the
        best reading with its problem, readings with a hand's tile count first (only those, if
        ``strict_only``)."""
        invalid: list[tuple[float, _Candidate, str]] = []
        for strict in (True,) if strict_only else (True, False):
            valid: list[tuple[float, _Candidate, Hand, bool]] = []
            for c in self.candidates(strict):
                try:
                    hand = self.hand(c)
                except HandError as exc:
                    invalid.append((c.plausibility, c, str(exc)))
                    continue
                complete = is_complete(hand)
                valid.append((c.plausibility + (1.0 if complete else 0.0), c, hand, complete))
            if valid:
                value, c, hand, complete = max(valid, key=lambda v: v[0])
                other = [v for v in valid if v[1].flipped != c.flipped]
                rival = max(other, key=lambda v: v[0]) if other else None
                unsure = rival is not None and value - rival[0] < UNSURE and rival[2] != hand
                return _Best(c, hand, None, complete, value, unsure)
            if invalid:
                value, c, problem = max(invalid, key=lambda v: v[0])
                return _Best(c, None, problem, False, value, False)
        raise HandError("the tiles found do not lie in rows that could hold a hand")

    def hand(self, c: _Candidate) -> Hand:
        """The candidate as a hand; a concealed kong shown all face down gets the first face seen
        nowhere in the photo (a second such kong the next)."""
        unseen = (t for t in PLAYABLE if t not in set(self.faces))
        melds = tuple(m.meld or Meld(MeldKind.KONG, (next(unseen),) * 4, concealed=True) for m in c.melds)
        faces = [self.faces[i] for i in c.head]
        return Hand(tuple(faces[:-1]), melds, faces[-1], tuple(self.faces[i] for i in c.flowers))


def _groups(c: _Candidate) -> tuple[TileGroup, ...]:
    groups = [TileGroup("flowers", c.flowers)] if c.flowers else []
    groups.append(TileGroup("concealed", c.head[:-1], concealed=True))
    groups.append(TileGroup("win", c.head[-1:]))
    return (*groups, *(m.group for m in c.melds))


def _complete(build: Callable[[], Hand]) -> bool:
    """Whether ``build`` gives a valid, complete hand."""
    try:
        return is_complete(build())
    except HandError:
        return False


def _completing(standing: Sequence[Tile], melds: tuple[Meld, ...]) -> tuple[str, ...]:
    """The codes of the faces that complete the standing tiles beside the melds (`scoring.winning_faces`)."""
    return tuple(face.code for face in winning_faces(standing, melds))


def _impossible(reader: _Reader, c: _Candidate, problem: str) -> Doubt:
    """Why the reading cannot be a hand, which tiles to check, and faces that would make it one."""
    faces = [reader.faces[i] for i in c.head]
    melds = tuple(m.meld for m in c.melds if m.meld is not None)
    flowers = tuple(reader.faces[i] for i in c.flowers)
    expected = HAND_TILES - 3 * len(c.melds)
    if len(c.head) == expected - 1:  # a tile missed: which faces would complete the hand
        alternatives = _completing(faces, melds)
        return Doubt("impossible", c.head, f"{problem}; one tile seems missing (hidden or not found)",
                     alternatives)
    if len(c.head) == expected + 1:  # one too many: the tiles without which the hand is complete

        def without(k: int) -> Hand:
            rest = faces[:k] + faces[k + 1:]
            return Hand(tuple(rest[:-1]), melds, rest[-1], flowers)

        extra = tuple(i for k, i in enumerate(c.head) if _complete(lambda k=k: without(k)))
        return Doubt("impossible", extra or c.head, f"{problem}; one tile too many", ())
    counts: dict[Tile, list[int]] = {}
    for i in c.head:
        counts.setdefault(reader.faces[i], []).append(i)
    for m in c.melds:
        for i in m.group.tiles:
            counts.setdefault(reader.faces[i], []).append(i)
    over = [ids for face, ids in counts.items() if face.is_playable and len(ids) > 4]
    if over:
        copies = over[0]
        weakest = min(copies, key=lambda i: float(reader.det.confidence[i]))
        if weakest in c.head:
            k = c.head.index(weakest)
            alternatives = _completing(faces[:k] + faces[k + 1:], melds)
        else:
            alternatives = ()
        return Doubt("impossible", tuple(copies), f"{problem}; the least sure copy may be another face",
                     alternatives)
    return Doubt("impossible", c.head, problem, ())


def _doubtful(det: TileDetections) -> list[int]:
    """Tiles whose runner-up face is a fair reading too (read unsurely, or a close second), least
    sure first."""
    has = det.runner_up >= 0
    close = has & ((det.confidence < LOW_CONFIDENCE) | (det.runner_up_confidence >= CLOSE * det.confidence))
    return sorted(np.flatnonzero(close).tolist(), key=lambda i: float(det.confidence[i] - det.runner_up_confidence[i]))


@dataclass(frozen=True)
class _Mended:
    """The best reading and how it was mended: tiles read as their runner-up face (``swapped``, indices
    into the reader's detections), or a tile of the detections left out as a stray box (``stray``)."""

    reader: _Reader
    found: _Best
    swapped: tuple[int, ...] = ()
    stray: int | None = None
    guessed: tuple[int, ...] = ()  # of ``swapped``: flowers read twice, the copy taken as an unseen flower


def _unseen_flowers(detections: TileDetections, flowers: Sequence[int]) -> tuple[TileDetections, set[int]]:
    """The detections with a runner-up for each less sure copy of a flower read twice (or more) whose
    own runner-up is no flower the reading lacks: the first flower of its kind (flowers 1f-4f or
    seasons 5f-8f) no tile of ``flowers`` was read as, scored 0. Each flower is in a set once, so one
    copy is surely another flower, and which unseen one it is changes no score (each counts one point);
    the rows given such a runner-up are returned too."""
    faces = [detections.tiles[i] for i in flowers]
    guessed: set[int] = set()
    runner_up, runner_up_confidence = detections.runner_up.copy(), detections.runner_up_confidence.copy()
    for face in {f for f in faces if faces.count(f) > 1}:
        copies = sorted((i for i in flowers if detections.tiles[i] == face), key=lambda i: -float(detections.confidence[i]))
        for i in copies[1:]:
            second = TILES[runner_up[i]] if runner_up[i] >= 0 else None
            if second is not None and second.is_bonus and second not in faces:
                continue  # its runner-up is a flower the reading lacks: tried as it is
            unseen = [t for t in TILES if t.kind == face.kind and t not in faces
                      and t.index not in runner_up[list(guessed)].tolist()]
            if unseen:
                runner_up[i], runner_up_confidence[i] = unseen[0].index, 0.0
                guessed.add(i)
    if not guessed:
        return detections, guessed
    return TileDetections(detections.xyxy, detections.confidence, detections.class_id, runner_up,
                          runner_up_confidence), guessed


def _best_reading(detections: TileDetections) -> _Mended:
    """The best reading of the tiles as read. When it is no winning hand: with a hand's tile count, the
    best winning reading with one or two doubtful tiles read as their runner-up; with one tile too
    many, the best winning reading without one unsure tile (a box where there is no tile) or with a
    doubtful tile read as its runner-up flower (a flower read as a tile of the hand). A flower read as
    one the hand already has counts as doubtful whatever its margin (each flower is in a set once). A
    valid hand as read competes with the mended readings (listed first, it wins a tie)."""
    reader = _Reader(detections)
    found = reader.best()
    c = found.candidate
    expected = HAND_TILES - 3 * len(c.melds)
    if found.complete or len(c.head) not in (expected, expected + 1):
        return _Mended(reader, found)  # complete, or a tile missing: nothing to mend
    # a tile outside the reading cannot complete the hand: only the reading's own tiles are tried
    shown = {*c.head, *c.flowers, *(i for m in c.melds for i in m.group.tiles)}
    options = [(found.value, _Mended(reader, found))] if found.hand is not None else []
    doubtful = [i for i in _doubtful(detections) if i in shown][:MAX_DOUBTFUL]
    detections, guessed = _unseen_flowers(detections, c.flowers)
    seen = [reader.faces[i] for i in c.flowers]  # a flower read as another one in the hand: its runner-up
    doubtful += [i for i in c.flowers if seen.count(reader.faces[i]) > 1 and i not in doubtful
                 and detections.runner_up[i] >= 0 and TILES[detections.runner_up[i]].is_bonus]
    if len(c.head) == expected + 1:
        unsure = sorted((i for i in shown if detections.confidence[i] < STRAY), key=lambda i: float(detections.confidence[i]))
        for i in unsure[:MAX_DOUBTFUL]:
            other = _Reader(detections[np.arange(len(detections)) != i])
            corrected = _complete_reading(other)
            if corrected is not None:
                given_up = float(detections.confidence[i])
                options.append((corrected.value - COST_PER_CONFIDENCE * given_up, _Mended(other, corrected, stray=i)))
        swaps = [(i,) for i in doubtful if TILES[detections.runner_up[i]].is_bonus]  # a flower read as a tile
    else:
        swaps = [(i,) for i in doubtful] + list(combinations(doubtful, 2))
    for swap in swaps:
        other = _Reader(detections.with_runner_up(list(swap)), reader)
        corrected = _complete_reading(other)
        if corrected is not None:
            given_up = sum(float(detections.confidence[i] - detections.runner_up_confidence[i]) for i in swap)
            options.append((corrected.value - COST_PER_CONFIDENCE * given_up,
                            _Mended(other, corrected, swap, guessed=tuple(i for i in swap if i in guessed))))
    if not options:
        return _Mended(reader, found)
    return max(options, key=lambda o: o[0])[1]


def _complete_reading(reader: _Reader) -> _Best | None:
    """The reader's best reading with a hand's tile count, if it is a complete winning hand."""
    try:
        found = reader.best(strict_only=True)  # a complete hand has a hand's tile count
    except HandError:
        return None
    return found if found.complete else None


def read_hand(detections: TileDetections, overrides: Overrides | None = None) -> LayoutReading:
    """The hand shown by the detected tiles, its groups and doubts; never raises for a bad photo."""
    overrides = overrides or Overrides()
    if len(detections) == 0:
        return LayoutReading(None, (), (Doubt("impossible", (), "no tiles found in the photo"),), detections)
    try:
        mended = _best_reading(detections)
    except HandError as exc:
        return LayoutReading(None, (), (Doubt("impossible", tuple(range(len(detections))), str(exc)),), detections)
    reader, found, swapped = mended.reader, mended.found, mended.swapped
    c, hand = found.candidate, found.hand
    groups = _groups(c)
    doubts: list[Doubt] = []
    listed = reader.det
    if mended.stray is not None:  # still listed, last, in no group
        listed = TileDetections.concat([reader.det, detections[mended.stray]])
        stray = detections.tiles[mended.stray]
        doubts.append(Doubt("assumed", (len(reader.det),), f"one tile too many: left out the {stray.code} read "
                            f"with confidence {detections.confidence[mended.stray]:.2f} as a box where there is no "
                            "tile (the others make a winning hand)", (stray.code,)))
    for i in swapped:
        read_as = f"read as {detections.tiles[i].code} ({detections.confidence[i]:.2f})"
        if i in mended.guessed:
            doubts.append(Doubt("assumed", (i,), f"{read_as} as a surer tile was, and a set has one of each "
                                f"flower: took {reader.faces[i].code}, a flower no tile was read as (which one changes no "
                                "score: check the flowers)", (detections.tiles[i].code,)))
        else:
            doubts.append(Doubt("assumed", (i,), f"{read_as}, the tiles make no winning hand: took the runner-up "
                                f"{reader.faces[i].code} ({reader.det.confidence[i]:.2f})", (detections.tiles[i].code,)))
    if hand is None:
        doubts.append(_impossible(reader, c, found.problem or "not a hand"))
    else:
        if found.unsure:
            doubts.append(Doubt("assumed", c.head, "nothing shows the player's left (no flowers, melds, sorted "
                                "tiles or winning tile set apart): read as photographed, left to right"))
        if not c.win_apart and overrides.win_tile is None:
            doubts.append(Doubt("assumed", c.head[-1:], "the winning tile is not set apart: took the rightmost "
                                "standing tile (override the winning tile if it was another)"))
        for m in c.melds:
            if not m.sideways_shown:
                doubts.append(Doubt("assumed", m.group.tiles, "no tile of this meld lies sideways: took it as "
                                    "claimed from the left (a chow: its lowest tile); give the melds to correct it"))
            if m.meld is None:
                face = hand.melds[c.melds.index(m)].first.code
                doubts.append(Doubt("assumed", m.group.tiles, f"a concealed kong lies all face down: took {face}; "
                                    "give the melds to correct it", tuple(t.code for t in PLAYABLE)))
        try:
            hand = _overridden(hand, overrides)
        except HandError as exc:
            doubts.append(Doubt("impossible", (), f"the overrides do not fit the tiles read: {exc}"))
            hand = None
    doubts.extend(_low_confidence(reader, c, hand, set(swapped)))
    guessed = bool(swapped) or mended.stray is not None or not all(m.sideways_shown for m in c.melds)
    return LayoutReading(hand, groups, tuple(doubts), listed, guessed)


def _low_confidence(reader: _Reader, c: _Candidate, hand: Hand | None, taken: set[int]) -> list[Doubt]:
    """Doubts for the tiles read with low confidence or a close runner-up face (not those already
    swapped for it): the runner-up first, then, for a standing or winning tile of a valid hand, the
    other faces that would also complete it."""
    det = reader.det
    doubts = []
    unsure = set(np.flatnonzero(det.confidence < LOW_CONFIDENCE).tolist()) | set(_doubtful(det))
    for i in sorted(unsure - taken):
        second = TILES[det.runner_up[i]].code if det.runner_up[i] >= 0 else None
        alternatives: tuple[str, ...] = (second,) if second else ()
        if hand is not None and i in c.head:
            others = [reader.faces[j] for j in c.head if j != i]
            completing = (a for a in _completing(others, hand.melds) if a != reader.faces[i].code)
            alternatives = tuple(dict.fromkeys((*alternatives, *completing)))
        read = f"{reader.faces[i].code} read with confidence {float(det.confidence[i]):.2f}"
        also = f", runner-up {second} ({float(det.runner_up_confidence[i]):.2f})" if second else ""
        doubts.append(Doubt("low_confidence", (i,), read + also, alternatives))
    return doubts


def _overridden(hand: Hand, overrides: Overrides) -> Hand:
    """The hand with the user's winning tile, melds and flower count in place of what was read."""
    if overrides.melds is not None:
        pool = list(hand.concealed) + [t for m in hand.melds for t in m.tiles] + [hand.win_tile]
        for t in (t for m in overrides.melds for t in m.tiles):
            if t in pool:
                pool.remove(t)
            else:
                raise HandError(f"the melds given hold a {t.code} the photo does not show")
        win = hand.win_tile if hand.win_tile in pool else pool[-1]
        pool.remove(win)
        hand = Hand(tuple(pool), overrides.melds, win, hand.flowers, hand.flower_count)
    if overrides.win_tile is not None and overrides.win_tile is not hand.win_tile:
        standing = list(hand.concealed)
        if overrides.win_tile not in standing:
            raise HandError(f"the winning tile {overrides.win_tile.code} is not among the standing tiles read")
        standing.remove(overrides.win_tile)
        hand = replace(hand, concealed=(*standing, hand.win_tile), win_tile=overrides.win_tile)
    if overrides.flowers is not None:
        flowers = hand.flowers if len(hand.flowers) <= overrides.flowers else ()
        hand = replace(hand, flowers=flowers, flower_count=overrides.flowers)
    return hand


def _apart(gap: float) -> float:
    """How well a gap (tile widths) sets a meld apart: rewarded up to a tile, penalised when tight."""
    return min(gap, 1.0) - APART if gap >= APART else 4.0 * (gap - APART)


def _upright(row: Row) -> bool:
    """Whether the boxes show every tile of the row upright (not near 45°, where they cannot tell)."""
    return not np.isnan(row.sideways).any() and bool((row.sideways < SIDEWAYS).all())


def _adjacent(first: Row, second: Row, reach: float = ADJACENT_ROWS) -> bool:
    """Whether two rows lie one just behind the other (a hand's standing tiles in two rows), not apart
    on the table (a discard, another player's tiles); ``reach``: tile widths between their lines, at most."""
    width = float(np.median(np.concatenate([first.unit, second.unit])))
    return abs(first.across - second.across) < reach * width


def _joined(first: Row, second: Row) -> Row:
    """Two rows read as one, ``first`` then ``second``, with a wide gap between them."""
    return Row(first.tiles + second.tiles, np.concatenate([first.along, second.along]), first.across,
               np.concatenate([first.unit, second.unit]), np.concatenate([first.gaps, [1.0], second.gaps]),
               np.concatenate([first.sideways, second.sideways]))


def _without(row: Row, drop: Sequence[int]) -> Row:
    """The row without some of its tiles (flowers); where one was taken out, the gap counts as wide."""
    keep = [k for k in range(len(row.tiles)) if k not in set(drop)]
    gaps = np.array([row.gaps[a] if b == a + 1 else 1.0 for a, b in zip(keep[:-1], keep[1:], strict=True)])
    return Row(tuple(row.tiles[k] for k in keep), row.along[keep], row.across, row.unit[keep], gaps,
               row.sideways[keep])
