"""Whole readings of a photo's rows as a hand: which row holds the standing tiles, which the melds (at either
end of it or in a row in front or behind), which the flowers; each reading weighed by how plausibly a player
laid it out so, the most plausible valid hand kept (`Reader.best`).

Plausibility adds up the conventions of a photographed hand (docs/scanning.md): melds set apart, one
sideways tile per claimed meld, face-down tiles in a concealed kong, no sideways tile among the standing
ones, standing tiles sorted from the player's left, chows in rank order, the winning tile set apart at the
right end, a complete winning hand. Either direction of the rows is tried: which end is the player's left
is what these cues tell.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from statistics import median

import numpy as np

from scoring import Hand, HandError, Meld, MeldKind, is_complete
from scoring.tiles import BACK, PLAYABLE, Tile
from vision.detections import TileDetections
from vision.melds import APART, MAX_SETS, SIDEWAYS, MeldReader, ShownMeld, TileGroup, apart
from vision.rows import Row

STRAY = 0.3  # tiles read under this confidence are tried as stray boxes when a reading has one tile too many
UNSURE = 0.15  # plausibility margin under which the other direction of the rows is as likely
ADJACENT_ROWS = 2.5  # tile widths between the lines of two rows of standing tiles read as one hand, at most
FLOWER_ROWS = 3.0  # ... and between the hand's row and a row of its flowers: a tile's depth (1.33 widths) and a
# gap of up to about another depth
FLOWERS_LEFT = 0.5  # plausibility given flowers at the row's left end (taken from it at the right): the common way
LEFT_MELDS = 0.1  # plausibility given up by melds left of the standing tiles: with no other cue, the common way
SPACED = 0.5  # plausibility given up by two rows read as standing tiles per gap between their tiles wider than
SPACE = 0.4  # ... this (tile widths): loose boxes leave gaps up to ~0.3 between touching tiles
TRIMMED = 0.5  # plausibility given up per face-down tile at a row's end read as not part of the hand
SLIVER_COST = 1.5  # plausibility given up per sliver read as a tile of the hand
APART_STANDING = 3.0  # plausibility given up per tile width of gap between standing tiles (over loose boxes' 0.3):
# standing tiles touch, a gap among them is likelier a meld's edge
ORDER_BETWEEN_ENDS = 8  # standing tiles (the winning one with them) from which the order is judged between the ends
SIDE_ROWS = 5.0  # tile widths between the lines of the standing tiles' row and a row of their melds, at most: a second
# row lies a tile's depth and a gap off the hand's line (1.7-2.7 widths in the dev composed scenes); further off, a row
# is on the table (another player's), and reading every far row beside every other one made photos of stray boxes slow
LEFT_OUT = 0.1  # plausibility given up per tile read surely (`STRAY`) in a row beside the hand's (`FLOWER_ROWS`)
# that a reading leaves out: a player's tiles lie together, and a row of them left out (a row of melds, the
# flowers' row with the pair) is likelier the hand's than the table's
HAND_TILES = 14


@dataclass(frozen=True)
class Candidate:
    """One reading of the photo as a hand's parts (tiles index the detections), and how plausible it is."""

    plausibility: float
    flowers: tuple[int, ...]
    head: tuple[int, ...]  # standing tiles then the winning tile, left to right
    melds: tuple[ShownMeld, ...]
    win_apart: bool
    flipped: bool  # read against the photo's own left to right


@dataclass(frozen=True)
class Best:
    """A reader's best reading: the candidate, its hand (None: ``problem`` says why), whether it is a
    complete winning hand, its plausibility, and whether the rows' other direction was as likely."""

    candidate: Candidate
    hand: Hand | None
    problem: str | None
    complete: bool
    value: float
    unsure: bool


class Reader(MeldReader):
    """Reads one set of detections as a hand: every reading, and the most plausible."""

    def __init__(self, detections: TileDetections, same_boxes: MeldReader | None = None,
                 stacked: dict[int, int] | None = None) -> None:
        super().__init__(detections, same_boxes, stacked)
        # per tile, as plain lists: every reading of every pair of rows asks them again
        self.bonus = [face.is_bonus for face in self.faces]
        self.sure_up = [face is not BACK and c >= STRAY for face, c in zip(self.faces, detections.confidence.tolist(),
                                                                              strict=True)]

    def candidates(self, strict: bool) -> Iterator[Candidate]:
        """Every reading of the photo as a hand's parts (a valid hand or not)."""
        for flip in (False, True):
            oriented = [r.reversed if flip else r for r in self.rows]
            flower_rows = tuple(r for r in oriented if len(r.tiles) < len(self.det) and
                                all(self.bonus[i] for i in r.tiles))
            rows = [r for r in oriented if r not in flower_rows]
            for main in rows:
                # the rack's edge, the wall or a sliver of a tile ending the row, not the hand
                ends = self._end_strays(main)
                trimmed = _without(main, ends) if ends else None
                cost = sum(0.0 if main.tiles[k] in self.slivers else TRIMMED for k in ends)
                for side in (None, *[r for r in self.near(main, flip, SIDE_ROWS) if r is not main and r in rows]):
                    yield from self._readings(main, side, flip, strict, flower_rows)
                    if trimmed is not None:
                        yield from (replace(c, plausibility=c.plausibility - cost)
                                    for c in self._readings(trimmed, side, flip, strict, flower_rows))
                    both = self.two_rows(side, main) if side is not None else None
                    if both is not None and all(self.faces[i].is_playable for i in side.tiles):
                        joined, spaced = both
                        yield from (replace(c, plausibility=c.plausibility - SPACED * spaced)
                                    for c in self._readings(joined, None, flip, strict, flower_rows))

    def two_rows(self, side: Row, main: Row) -> tuple[Row, int] | None:
        """``side`` then ``main`` read as one row of standing tiles laid in two rows, one behind the other (no
        sideways tile shows a meld: `_upright`, `_adjacent`), and the gaps in them (standing tiles touch, so each gap
        wider than `SPACE` counts against it: melds are set apart); None where the boxes rule it out. Kept with the
        geometry: each reading of the photo asks it of every pair of rows."""
        key = (side, main)
        if key not in self._two_rows:
            self._two_rows[key] = None
            if _upright(main) and _upright(side) and _adjacent(main, side):
                self._two_rows[key] = _joined(side, main), int((side.gaps > SPACE).sum() + (main.gaps > SPACE).sum())
        return self._two_rows[key]

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
                  flower_rows: tuple[Row, ...] = ()) -> Iterator[Candidate]:
        """Readings with ``main`` holding the standing tiles (and maybe melds at either end) and ``side``
        only melds; ``flower_rows``: rows of flowers alone (those beside ``main`` are the hand's). Strict readings have the tile count of a hand; others are off by some."""
        bonus = [k for k, i in enumerate(main.tiles) if self.bonus[i]]
        side_melds: tuple[ShownMeld, ...] = ()
        value = 0.0
        rows = set(main.tiles) | set(side.tiles if side else ())  # a stacked tile lies in neither
        if side is not None:
            if any(self.bonus[i] for i in side.tiles):
                return
            found = self.partition(side, 0, len(side.tiles), None, rows)
            if found is None:
                return
            value, side_melds = found
        rest = _without(main, bonus) if bonus else main
        if bonus:
            left, right = bonus[0] == 0, bonus[-1] == len(main.tiles) - 1
            value += FLOWERS_LEFT if left and not right else (-FLOWERS_LEFT if right and not left else 0.0)
        if flip:
            value -= 0.05  # with no cue either way, keep the photo's own left to right
        own = {self.faces[main.tiles[k]] for k in bonus}  # a set has one of each flower: a second is another's
        near = [r for r in flower_rows if r in self.near(main, flip, FLOWER_ROWS)  # the hand's own, not discards
                and self._flowers_sure(r)  # nor tiles of a heap misread
                and not own & {self.faces[i] for i in r.tiles}]
        flowers = (*tuple(main.tiles[k] for k in bonus), *(i for r in near for i in r.tiles))
        beside = self._left_out(main, side, near, flip)
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
                    total = value - 2.0 * abs(head_len - expected) - (LEFT_MELDS if left else 0.0)
                    melds: tuple[ShownMeld, ...] = ()
                    if k:
                        if left and float(rest.gaps[tail - 1]) <= APART:
                            continue  # melds left of the standing tiles are read only when set apart from them
                        found = self.partition(rest, 0, tail, k, rows) if left else \
                            self.partition(rest, head_len, n, k, rows)
                        if found is None:
                            continue
                        total += found[0] + apart(float(rest.gaps[tail - 1 if left else head_len - 1]))
                        melds = found[1]
                    standing = _without(rest, range(tail)) if left else rest
                    total += self._head_value(standing, head_len)
                    total -= SLIVER_COST * sum(i in self.slivers for i in (*head, *(t for m in melds for t in m.group.tiles)))
                    win_apart = head_len >= 2 and float(standing.gaps[head_len - 2]) > APART
                    total -= LEFT_OUT * len(beside.difference(*(m.group.tiles for m in (*melds, *side_melds))))
                    yield Candidate(total, flowers, head, consistent((*melds, *side_melds)), win_apart, flip)

    def _flowers_sure(self, row: Row) -> bool:
        """Whether a row of flowers holds one read surely (`STRAY`, by `_flower_confidence`)."""
        return max(self._flower_confidence(i) for i in row.tiles) >= STRAY

    def _flower_confidence(self, i: int) -> float:
        """How sure the reading is that tile ``i`` is a flower or a season: its face's confidence, and its
        runner-up's too where that is another flower (which flower it is changes no score, and the flowers of a
        set drawn in its own hand split their confidence between them)."""
        shared = is_flower(self.det.runner_ups[i])
        return float(self.det.confidence[i]) + (float(self.det.runner_up_confidence[i]) if shared else 0.0)

    def unsure_flowers(self, c: Candidate) -> list[Row]:
        """Rows of flowers alone beside the standing tiles of reading ``c`` (`FLOWER_ROWS`) that it leaves out, none
        of their tiles read surely (`_flowers_sure`): a set's own flowers read unsurely, or flowers lying on the
        table; only the player can say which."""
        head = set(c.head)
        taken = {*c.flowers, *head, *(i for m in c.melds for i in m.group.tiles)}
        found: list[Row] = []
        for main in (r.reversed if c.flipped else r for r in self.rows if head & set(r.tiles)):
            found += [r for r in self.near(main, c.flipped, FLOWER_ROWS) if r not in found and not taken & set(r.tiles)
                      and all(self.bonus[i] for i in r.tiles) and not self._flowers_sure(r)]
        return found

    def _left_out(self, main: Row, side: Row | None, near: Sequence[Row], flip: bool) -> set[int]:
        """Tiles read surely (face up, `STRAY` or more) in rows beside ``main`` (read ``flip``-ped, as it is)
        that a reading of ``main``, ``side`` and the flower rows ``near`` leaves out (a tile stacked on a meld's
        may be among them: the reading's melds tell)."""
        used = {*main.tiles, *(side.tiles if side else ()), *(i for r in near for i in r.tiles)}
        sure = self.sure_up
        return {i for r in self.near(main, flip, FLOWER_ROWS) if used.isdisjoint(r.tiles) for i in r.tiles if sure[i]}

    def near(self, main: Row, flip: bool, reach: float) -> list[Row]:
        """The photo's rows, read ``flip``-ped as ``main`` is, whose line lies within ``reach`` tile widths of
        ``main``'s (``main`` among them), kept with the geometry by ``main``'s tiles and line: a row read without
        an end tile or joined to another is made again for each reading, with the same tiles, and every reading
        of ``main`` beside each other row asks (on a table strewn with tiles, dozens of rows)."""
        key = (main.tiles, main.across, flip, reach)
        kept = self._near.get(key)
        if kept is None:
            kept = self._near[key] = [r for r in (r.reversed if flip else r for r in self.rows)
                                      if _adjacent(main, r, reach)]
        return kept

    def _head_value(self, row: Row, head_len: int) -> float:
        """Plausibility of row positions ``0..head_len-1`` as standing tiles then the winning tile."""
        head = row.tiles[:head_len]
        value = 0.0
        turned = row.sideways[:head_len]
        if not np.isnan(turned).any():
            value -= 3.0 * float(np.clip(turned - SIDEWAYS, 0, None).sum())
        value -= APART_STANDING * float(np.clip(row.gaps[:head_len - 2] - 0.3, 0, None).sum())
        # the order of the standing tiles between the row's two end tiles where enough are left to tell one
        # (`ORDER_BETWEEN_ENDS`): the winning tile not set apart ends the row unsorted, and read from the other end it
        # begins it, which would blunt a clear order either way
        inner = head[1:-1] if head_len >= ORDER_BETWEEN_ENDS else head[:-1]
        order = np.array([self.faces[i].index for i in inner])
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

    def best(self, strict_only: bool = False) -> Best:
        """The most plausible reading: the best valid hand (a complete one counts 1 more); else the
        best reading with its problem, readings with a hand's tile count first (only those, if
        ``strict_only``)."""
        invalid: list[tuple[float, Candidate, str]] = []
        for strict in (True,) if strict_only else (True, False):
            valid: list[tuple[float, Candidate, Hand, bool]] = []
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
                return Best(c, hand, None, complete, value, unsure)
            if invalid:
                value, c, problem = max(invalid, key=lambda v: v[0])
                return Best(c, None, problem, False, value, False)
        raise HandError("the tiles found do not lie in rows that could hold a hand")

    def hand(self, c: Candidate) -> Hand:
        """The candidate as a hand; a concealed kong shown all face down gets the first face seen
        nowhere in the photo (a second such kong the next)."""
        unseen = (t for t in PLAYABLE if t not in set(self.faces))
        melds = tuple(m.meld or Meld(MeldKind.KONG, (next(unseen),) * 4, concealed=True) for m in c.melds)
        faces = [self.faces[i] for i in c.head]
        return Hand(tuple(faces[:-1]), melds, faces[-1], tuple(self.faces[i] for i in c.flowers))


def consistent(melds: tuple[ShownMeld, ...]) -> tuple[ShownMeld, ...]:
    """The melds as one player lays them: where a claimed pung or kong shows its turned tile, this player turns
    the claimed tile, so a kong of four face-up tiles with none turned is a concealed kong shown face up."""
    if not any(m.sideways_shown and m.meld is not None and m.meld.kind is not MeldKind.CHOW and not m.meld.concealed
               and not m.meld.added for m in melds):  # an added kong shows its turned tile whoever lays it
        return melds
    return tuple(_concealed(m) if not m.sideways_shown and m.meld is not None and m.meld.kind is MeldKind.KONG
                 and not m.meld.added else m for m in melds)


def _concealed(m: ShownMeld) -> ShownMeld:
    """A kong read as claimed with nothing turned, read as concealed instead."""
    meld = Meld(MeldKind.KONG, m.meld.tiles, concealed=True) if m.meld is not None else None
    return ShownMeld(meld, replace(m.group, source=None, concealed=True), m.quality)


def groups_of(c: Candidate) -> tuple[TileGroup, ...]:
    groups = [TileGroup("flowers", c.flowers)] if c.flowers else []
    groups.append(TileGroup("concealed", c.head[:-1], concealed=True))
    groups.append(TileGroup("win", c.head[-1:]))
    return (*groups, *(m.group for m in c.melds))


def is_flower(face: Tile | None) -> bool:
    """Whether a face read (a runner-up may be none) is a flower or a season."""
    return face is not None and face.is_bonus


def _upright(row: Row) -> bool:
    """Whether the boxes show every tile of the row upright (not near 45°, where they cannot tell)."""
    return all(evidence < SIDEWAYS for evidence in row.plain.sideways)  # NaN (near 45°) is under nothing


def _adjacent(first: Row, second: Row, reach: float = ADJACENT_ROWS) -> bool:
    """Whether two rows lie one just behind the other (a hand's standing tiles in two rows), not apart
    on the table (a discard, another player's tiles); ``reach``: tile widths between their lines, at most."""
    width = median((*first.plain.unit, *second.plain.unit))
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
