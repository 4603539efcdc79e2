"""Mending a reading that is no win: a misread tile is the likeliest reason a photo of a win reads as no win.

With a hand's tile count, the detector's runner-up faces of the reading's doubtful tiles (one or two of them)
are tried, and the most plausible winning reading that gives up the least confidence is taken. With one tile
too many, the reading without one of its unsure tiles (under `vision.readings.STRAY`) is tried the same way: a
box where there is no tile (a sliver of a tile at the photo's edge, a tile's reflection) is the likeliest
reason then, beside a doubtful tile read as its runner-up (a kong's tile misread makes a tile too many of it).
Such a box beside a pung of its face makes the count fit as a kong: a complete reading whose kong shows no tile
turned and ends its row with an unsure tile is tried without that tile too.
Where no reading is a valid hand and the best leaves tiles out (a misread tile in a row of melds keeps the row
from being read as melds), the photo's least sure tiles are tried as their runner-up instead, one at a time;
where the standing tiles come up one or two short, flowers read with a tile of the hand as their runner-up are
tried as that tile (a 1m the reader took for a season drawn in red counts with the flowers). A mended reading is
taken over a valid hand as read only when it is more plausible (a win counts 1, each unit of confidence given up
costs `COST_PER_CONFIDENCE`): a runner-up the detector hardly considered does not turn a hand that is no win into
one. A flower read twice (a set has one of each) whose less sure copy
has no unseen flower as its runner-up is taken as the first flower of its kind read nowhere (the count, not
which flower, scores).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, islice

import numpy as np

from scoring import HandError, MeldKind
from scoring.tiles import BACK, TILES, Tile
from vision.detections import TileDetections
from vision.melds import APART
from vision.readings import HAND_TILES, STRAY, Best, Candidate, Reader, is_flower

LOW_CONFIDENCE = 0.5  # tiles read below this confidence are reported as doubts
CLOSE = 0.5  # a runner-up face scored at least this share of the face read makes the tile doubtful too
MAX_DOUBTFUL = 6  # doubtful tiles tried as their runner-up (alone and in pairs) when the hand is no win
COST_PER_CONFIDENCE = 4.0  # plausibility given up per unit of detector confidence a swap gives up


def doubtful(det: TileDetections) -> list[int]:
    """Tiles whose runner-up face is a fair reading too (read unsurely, or a close second), least
    sure first."""
    has = det.runner_up >= 0
    close = has & ((det.confidence < LOW_CONFIDENCE) | (det.runner_up_confidence >= CLOSE * det.confidence))
    return sorted(np.flatnonzero(close).tolist(), key=lambda i: float(det.confidence[i] - det.runner_up_confidence[i]))


@dataclass(frozen=True)
class Mended:
    """The best reading and how it was mended: tiles read as their runner-up face (``swapped``, indices
    into the reader's detections), or a tile of the detections left out as a stray box (``stray``)."""

    reader: Reader
    found: Best
    swapped: tuple[int, ...] = ()
    stray: int | None = None
    guessed: tuple[int, ...] = ()  # of ``swapped``: flowers read twice, the copy taken as an unseen flower
    among_flowers: tuple[int, ...] = ()  # of ``swapped``: tiles among the flowers at a row's end taken as one


def unseen_flowers(detections: TileDetections, flowers: Sequence[int]) -> tuple[TileDetections, set[int]]:
    """The detections with a runner-up for each less sure copy of a flower read twice (or more) whose
    own runner-up is no flower the reading lacks: the first flower of its kind (flowers 1f-4f or
    seasons 5f-8f) no tile of ``flowers`` was read as, scored 0. Each flower is in a set once, so one
    copy is surely another flower, and which unseen one it is changes no score (each counts one point);
    the rows given such a runner-up are returned too."""
    faces = [detections.tiles[i] for i in flowers]
    guesses: dict[int, int] = {}
    for face in {f for f in faces if faces.count(f) > 1}:
        copies = sorted((i for i in flowers if detections.tiles[i] == face), key=lambda i: -float(detections.confidence[i]))
        for i in copies[1:]:
            second = detections.runner_ups[i]
            if second is not None and second.is_bonus and second not in faces:
                continue  # its runner-up is a flower the reading lacks: tried as it is
            unseen = [t for t in TILES if t.kind == face.kind and t not in faces and t.index not in guesses.values()]
            if unseen:
                guesses[i] = unseen[0].index
    if not guesses:
        return detections, set()
    return detections.with_guesses(guesses), set(guesses)


def among_flowers(reader: Reader) -> list[int]:
    """Tiles of the hand's faces lying among the flowers at a row's end: in the stretch of tiles that ends the
    row, touching up to the first gap that sets tiles apart (`vision.melds.APART`), with a flower in it and
    standing tiles beyond. Players set their flowers apart at an end of the hand; a flower the reader took for a
    tile of the hand (a season read as 1s) lies there."""
    found = []
    for row in reader.rows:
        for ends in (range(len(row.tiles)), range(len(row.tiles) - 1, -1, -1)):
            stretch = []
            for k in ends:
                stretch.append(row.tiles[k])
                step = k if ends.step > 0 else k - 1
                if not 0 <= step < len(row.gaps) or row.gaps[step] > APART:
                    break
            if len(stretch) < len(row.tiles) and any(reader.faces[i].is_bonus for i in stretch):
                found += [i for i in stretch if not reader.faces[i].is_bonus]
    return found


def in_flower_rows(reader: Reader, c: Candidate) -> list[int]:
    """Tiles of the hand's faces in rows of their own that ``c`` leaves out and that hold flowers: rows where
    every tile is a flower or read as a tile with a flower as its runner-up, or with more flowers than other
    tiles. A flower the reader took for a tile (a season read as 1s) in the flowers' row beside the hand."""
    used = {*c.head, *c.flowers, *(i for m in c.melds for i in m.group.tiles)}
    found = []
    for row in reader.rows:
        if used & set(row.tiles):
            continue
        bonus = [i for i in row.tiles if reader.faces[i].is_bonus]
        others = [i for i in row.tiles if not reader.faces[i].is_bonus]
        second = [i for i in others if is_flower(reader.det.runner_ups[i])]
        if others and (len(second) == len(others) or len(bonus) > len(others)):
            found += others
    return found


def _flower_rows_read(reader: Reader, found: Best) -> Mended | None:
    """The reading with the tiles of `in_flower_rows` read as flowers (their runner-up flower, else one no
    tile is), when it holds them as the hand's flowers and is as plausible and as complete; else None."""
    tiles = in_flower_rows(reader, found.candidate)
    if not tiles:
        return None
    own = [i for i in tiles if is_flower(reader.det.runner_ups[i])]
    detections, given = _as_flowers(reader.det, [i for i in tiles if i not in own],
                                    [*reader.faces, *(reader.det.runner_ups[i] for i in own)])
    swapped = tuple(sorted([*own, *given]))
    other = Reader(detections.with_runner_up(list(swapped)), reader)
    flowered = other.best()
    if set(swapped) <= set(flowered.candidate.flowers) and flowered.complete >= found.complete \
            and flowered.value >= found.value:
        return Mended(other, flowered, swapped, among_flowers=swapped)
    return None


def _as_flowers(detections: TileDetections, tiles: Sequence[int],
                seen: Sequence[Tile]) -> tuple[TileDetections, list[int]]:
    """The detections with each of ``tiles`` given a flower none of ``seen`` is as its runner-up, scored 0
    (which flower changes no score: each counts one point), while there are such flowers; and the tiles given one."""
    unseen = [t for t in TILES if t.is_bonus and t not in seen]
    given = list(tiles[:len(unseen)])
    return detections.with_guesses({i: flower.index for i, flower in zip(given, unseen, strict=False)}), given


def best_reading(detections: TileDetections, stacked: dict[int, int] | None = None) -> Mended:
    """The best reading of the tiles as read (a tile in the flowers' own row read as a flower, `in_flower_rows`,
    where the reading is as plausible so). When it is no winning hand: with a hand's tile count, the
    best winning reading with one or two doubtful tiles read as their runner-up; with one tile too
    many, the best winning reading without one unsure tile (a box where there is no tile) or with a
    doubtful tile read as its runner-up (a flower read as a tile; a kong's tile misread, which leaves the kong's other
    three one tile too many) or a tile lying among the flowers read as a flower no tile is
    (`among_flowers`: a flower read as a tile of the hand). A flower read as
    one the hand already has counts as doubtful whatever its margin (each flower is in a set once). A
    valid hand as read competes with the mended readings (listed first, it wins a tie). With tiles missing from
    the best reading, or no reading at all, the photo's least sure tiles are tried as their runner-up (`_swapped`).
    ``stacked``: boxes cut as stacked pairs (`vision.melds.MeldReader`)."""
    reader = Reader(detections, stacked=stacked)
    try:
        found = reader.best()
    except HandError:  # no reading at all: a misread tile may break every split of the rows into a hand's parts
        mended = _swapped(reader, anywhere=True)
        if mended is None:
            raise
        return mended
    flowered = _flower_rows_read(reader, found)
    if flowered is not None:
        reader, found, detections = flowered.reader, flowered.found, flowered.reader.det
        if found.complete:
            return flowered
    c = found.candidate
    expected = HAND_TILES - 3 * len(c.melds)
    if len(c.head) not in (expected, expected + 1):  # tiles missing (a valid hand has its count): a row left out
        return _swapped(reader, anywhere=False) or _tiles_read_as_flowers(reader, c, expected) or Mended(reader, found)
    if found.complete:
        return _without_a_faint_kong_tile(reader, found) or Mended(reader, found)
    # a tile outside the reading cannot complete the hand: only the reading's own tiles are tried
    shown = {*c.head, *c.flowers, *(i for m in c.melds for i in m.group.tiles)}
    options = [(found.value, Mended(reader, found))] if found.hand is not None else []
    unsure_faces = [i for i in doubtful(detections) if i in shown][:MAX_DOUBTFUL]
    detections, guessed = unseen_flowers(detections, c.flowers)
    seen = [reader.faces[i] for i in c.flowers]  # a flower read as another one in the hand: its runner-up
    unsure_faces += [i for i in c.flowers if seen.count(reader.faces[i]) > 1 and i not in unsure_faces
                 and is_flower(detections.runner_ups[i])]
    # each doubtful tile as its runner-up; with one tile too many, a flower read as a tile or a kong's tile misread
    # (the kong's other three are then one too many), with a hand's count two of them at once as well
    swaps: list[tuple[int, ...]] = [(i,) for i in unsure_faces]
    beside: list[int] = []
    if len(c.head) == expected + 1:
        unsure = sorted((i for i in shown if detections.confidence[i] < STRAY), key=lambda i: float(detections.confidence[i]))
        options += [o for i in unsure[:MAX_DOUBTFUL] if (o := _stray_option(detections, i)) is not None]
        beside = [i for i in among_flowers(reader) if i in c.head and i not in unsure_faces]  # a flower among them
        detections, beside = _as_flowers(detections, beside, reader.faces)
        swaps += [(i,) for i in beside]
    else:
        swaps += combinations(unsure_faces, 2)
    for swap in swaps:
        option = _swap_option(Reader(detections.with_runner_up(list(swap)), reader), swap,
                              guessed=tuple(i for i in swap if i in guessed),
                              among_flowers=tuple(i for i in swap if i in beside))
        if option is not None:
            options.append(option)
    if not options:
        return Mended(reader, found)
    return max(options, key=lambda o: o[0])[1]


def _without_a_faint_kong_tile(reader: Reader, found: Best) -> Mended | None:
    """The complete reading without one of the face-up tiles read under `vision.readings.STRAY` that make a kong
    with no tile turned in ``found`` and end a row, where it is complete too and more plausible, less the confidence
    given up (`COST_PER_CONFIDENCE`): a box where there is no tile ending the row (a sliver cut by the photo's edge,
    a tile's side) beside a pung of its face makes the pung a kong, and the count still fits; else None. Inside a
    row such a faint tile is as often a kong's own (a melded kong laid touching the next meld)."""
    det = reader.det
    ends = {i for row in reader.rows for i in (row.tiles[0], row.tiles[-1])}
    faint = [i for m in found.candidate.melds if m.meld is not None and m.meld.kind is MeldKind.KONG
             and not m.sideways_shown for i in m.group.tiles
             if det.confidence[i] < STRAY and reader.faces[i] is not BACK and i in ends]
    better = [o for i in faint if (o := _stray_option(det, i)) is not None and o[0] > found.value]
    return max(better, key=lambda o: o[0])[1] if better else None


def _stray_option(detections: TileDetections, i: int) -> tuple[float, Mended] | None:
    """The detections read without box ``i`` (a box where there is no tile), when they read a complete winning hand:
    its plausibility less the confidence given up (`COST_PER_CONFIDENCE`), and the mended reading."""
    other = Reader(detections[np.arange(len(detections)) != i])
    corrected = complete_reading(other)
    if corrected is None:
        return None
    return corrected.value - COST_PER_CONFIDENCE * float(detections.confidence[i]), Mended(other, corrected, stray=i)


def _swapped(reader: Reader, anywhere: bool) -> Mended | None:
    """The best winning reading with one of the photo's least sure tiles (by the margin of their face over its
    runner-up) read as its runner-up, for a photo no reading of which is a valid hand: a misread tile in a row of
    melds (a kong's 4s read 6s) keeps the row from being read as melds, so the reading leaves it out and its own
    tiles are not where to look. The hand is read again for `MAX_DOUBTFUL` tiles at most: unless ``anywhere`` (no
    reading at all was found), the least sure of those whose runner-up makes their row melds end to end, where
    their face did not (a cheap check; a photo of stray boxes has many unsure tiles). None when no swap makes a win."""
    det = reader.det
    unsure = sorted((i for i in np.flatnonzero(det.runner_up >= 0).tolist() if reader.faces[i].is_playable),
                    key=lambda i: float(det.confidence[i] - det.runner_up_confidence[i]))
    readers = ((i, Reader(det.with_runner_up([i]), reader)) for i in unsure)
    if not anywhere:
        readers = ((i, other) for i, other in readers if _makes_melds(reader, other, i))
    options = [o for i, other in islice(readers, MAX_DOUBTFUL) if (o := _swap_option(other, (i,))) is not None]
    return max(options, key=lambda o: o[0])[1] if options else None


def _tiles_read_as_flowers(reader: Reader, c: Candidate, expected: int) -> Mended | None:
    """The best winning reading with one or two of the flowers of ``c`` read as the tile of the hand that is their
    runner-up, as many as the standing tiles lack: a tile the reader took for a flower (a 1m for a season drawn in
    red) is counted with the flowers, and the standing tiles come up short by it. None when no such swap makes a
    win."""
    short = expected - len(c.head)
    if not 0 < short <= 2:
        return None
    det = reader.det
    tiles = [i for i in c.flowers if (second := det.runner_ups[i]) is not None and second.is_playable]
    options = [o for swap in combinations(tiles, short)
               if (o := _swap_option(Reader(det.with_runner_up(list(swap)), reader), swap)) is not None]
    return max(options, key=lambda o: o[0])[1] if options else None


def _swap_option(other: Reader, swap: tuple[int, ...], **marks: tuple[int, ...]) -> tuple[float, Mended] | None:
    """``other`` (a reader with the tiles of ``swap`` read as their runner-up), when it reads a complete winning
    hand: its plausibility less what the swap gives up of the reader's confidence (`COST_PER_CONFIDENCE`), and the
    mended reading (``marks``: which of the swapped tiles were flowers guessed or lying among the flowers)."""
    corrected = complete_reading(other)
    if corrected is None:
        return None
    det = other.det  # swapped: the confidence given up is the face read first's (now runner-up) over the taken one's
    given_up = sum(float(det.runner_up_confidence[i] - det.confidence[i]) for i in swap)
    return corrected.value - COST_PER_CONFIDENCE * given_up, Mended(other, corrected, swap, **marks)


def _makes_melds(reader: Reader, other: Reader, i: int) -> bool:
    """Whether tile ``i``'s row is melds end to end as ``other`` reads its faces and not as ``reader`` does."""
    row = next((r for r in reader.rows if i in r.tiles), None)  # a tile stacked on another lies in none
    if row is None:
        return False
    whole = (0, len(row.tiles), None, set(row.tiles))
    return reader.partition(row, *whole) is None and other.partition(row, *whole) is not None


def complete_reading(reader: Reader) -> Best | None:
    """The reader's best reading with a hand's tile count, if it is a complete winning hand."""
    try:
        found = reader.best(strict_only=True)  # a complete hand has a hand's tile count
    except HandError:
        return None
    return found if found.complete else None
