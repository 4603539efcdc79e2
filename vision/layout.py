"""Detections → rows → melds → readings → Hand: which tiles are standing, which won, which were melded, which
are flowers, with the doubts a referee should check. The stages, each its own module: `vision.rows` (tiles
in lines), `vision.melds` (melds along a row), `vision.readings` (whole readings, the most plausible kept),
`vision.mending` (a misread tile or a stray box mended when the reading is no win); this module assembles the
reading and its doubts and applies the user's overrides.

Rules where the photo cannot say, each reported as an ``assumed`` doubt: the winning tile is the rightmost
standing tile (set apart or not); an upside-down photo is told from the layout's cues, and with none of them
the photo's own left-to-right reading is kept; a concealed kong shown all face down gets the first face seen
nowhere else (`vision.scan` then takes one that scores as most possible faces do: `vision.facedown`); a meld
with no tile turned is taken as claimed from the left. Flowers count only in the hand's own rows and a row of
flowers beside them. Overrides (`Overrides`) replace the winning tile, the melds or the
flower count. A hand that is still no win is scored as read (a false win is a referee's finding).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from scoring import Hand, HandError, Meld, MeldKind, format_melds, is_complete, winning_faces
from scoring.tiles import BACK, PLAYABLE, Tile
from vision.detections import TileDetections
from vision.gaps import melds_past_gap
from vision.melds import TileGroup
from vision.mending import CLOSE, LOW_CONFIDENCE, Mended, best_reading, doubtful
from vision.readings import HAND_TILES, SIDE_ROWS, Candidate, Reader, groups_of
from vision.rows import find_rows
from vision.stacks import split_pairs

__all__ = ["CLOSE", "LOW_CONFIDENCE", "Doubt", "LayoutReading", "Overrides", "TileGroup", "read_hand"]

FACE_DOWN = "a concealed kong lies all face down"  # how its doubt begins (`face_down_doubt`)
WIN_NOT_APART = "the winning tile is not set apart"  # how the doubt on a winning tile taken by its place begins
MELDS_PAST_GAP = "a gap among the standing tiles"  # how the doubt on tiles past it that make melds begins
FLOWERS_UNSURE = "flowers beside the hand read unsurely"  # how the doubt on a row of them left out begins
STACKED_GAIN = 1.0  # plausibility a reading with a box cut into a stacked pair (`vision.stacks`) must gain over a
# complete reading without: the pair shows its meld's turned tile (a meld's quality about +1, against -1 with none
# turned), where a tile's box that is merely larger than its neighbours' (a tilted photo, the photo's edge) gains
# a reading little; near 45° the uncut pair's long box already passes for a turned tile, and the cut gains about 1


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
    face_down: tuple[tuple[int, tuple[int, ...]], ...] = ()  # concealed kongs shown all face down: the meld's index
    # in ``hand.melds`` and its tiles in ``detections``
    plausibility: float = float("-inf")  # the reading's (`vision.readings.Best.value`), complete ones 1 more


def read_hand(detections: TileDetections, overrides: Overrides | None = None) -> LayoutReading:
    """The hand shown by the detected tiles, its groups and doubts; never raises for a bad photo."""
    overrides = overrides or Overrides()
    if len(detections) == 0:
        return LayoutReading(None, (), (Doubt("impossible", (), "no tiles found in the photo"),), detections)
    try:
        mended = best_reading(detections)
    except HandError as exc:
        return LayoutReading(None, (), (Doubt("impossible", tuple(range(len(detections))), str(exc)),), detections)
    doubts: list[Doubt] = []
    face_down: list[tuple[int, tuple[int, ...]]] = []
    stacked = _stacked_pairs(detections, mended)
    if stacked is not None:
        detections, mended, pairs = stacked
        doubts += [Doubt("assumed", pair, "one box read as two tiles: an added kong's fourth tile stacked on its "
                         "turned tile (give the melds if it was a pung)") for pair in pairs]
    reader, found, swapped = mended.reader, mended.found, mended.swapped
    c, hand = found.candidate, found.hand
    groups = groups_of(c)
    listed = reader.det
    spare: tuple[Tile, ...] = ()  # a tile of the photo left out of the hand, which the melds given may hold
    if mended.stray is not None:  # still listed, last, in no group
        listed = TileDetections.concat([reader.det, detections[mended.stray]])
        stray = detections.tiles[mended.stray]
        spare = (stray,)
        doubts.append(Doubt("assumed", (len(reader.det),), f"one tile too many: left out the {stray.code} read "
                            f"with confidence {detections.confidence[mended.stray]:.2f} as a box where there is no "
                            f"tile (the others make a winning hand{_as_kong(hand, stray)})", (stray.code,)))
    for i in swapped:
        read_as = f"read as {detections.tiles[i].code} ({detections.confidence[i]:.2f})"
        if i in mended.among_flowers:
            doubts.append(Doubt("assumed", (i,), f"{read_as}, lies among the flowers (set apart at the hand's end or "
                                f"in their own row): took it as {reader.faces[i].code}, a flower (which one changes no "
                                "score: check the flowers)", (detections.tiles[i].code,)))
        elif i in mended.guessed:
            doubts.append(Doubt("assumed", (i,), f"{read_as} as a surer tile was, and a set has one of each "
                                f"flower: took {reader.faces[i].code}, a flower no tile was read as (which one changes no "
                                "score: check the flowers)", (detections.tiles[i].code,)))
        else:
            doubts.append(Doubt("assumed", (i,), f"{read_as}, the tiles make no winning hand: took the runner-up "
                                f"{reader.faces[i].code} ({reader.det.confidence[i]:.2f})", (detections.tiles[i].code,)))
    if hand is None:
        doubts.append(_impossible(reader, c, found.problem or "not a hand"))
        unsure: tuple[int, ...] = ()
    else:
        if found.unsure:
            doubts.append(Doubt("assumed", c.head, "nothing shows the player's left (no flowers, melds, sorted "
                                "tiles or winning tile set apart): read as photographed, left to right"))
        if not c.win_apart and overrides.win_tile is None:
            doubts.append(Doubt("assumed", c.head[-1:], f"{WIN_NOT_APART}: took the rightmost standing tile "
                                "(override the winning tile if it was another)"))
        past = melds_past_gap(reader, c) if overrides.melds is None else None
        if past is not None:
            tiles, gap, melds = past
            doubts.append(Doubt("assumed", tiles, f"{MELDS_PAST_GAP} ({gap:.1f} tile widths): took the {len(tiles)} "
                                f"tiles past it as standing; they make {format_melds(melds)} with no tile turned (if "
                                f"they are melds, give the melds: {format_melds((*hand.melds, *melds))})"))
        unsure = tuple(i for r in reader.unsure_flowers(c) for i in r.tiles) if overrides.flowers is None else ()
        if unsure:
            read = ", ".join(f"{reader.faces[i].code} {float(reader.det.confidence[i]):.2f}" for i in unsure)
            doubts.append(Doubt("low_confidence", unsure, f"{FLOWERS_UNSURE} ({read}): not counted; if they are the "
                                f"player's, give the flowers drawn ({len(c.flowers) + len(unsure)})"))
        meld_doubts = []  # what the melds given answer
        for k, m in enumerate(c.melds):  # the hand's melds are the candidate's, in its order
            if not m.sideways_shown:
                kong = m.meld is not None and m.meld.kind is MeldKind.KONG
                # a chow or pung may be standing tiles: without it the hand still counts
                others = "" if kong else f" (if its tiles stand: {format_melds(hand.melds[:k] + hand.melds[k + 1:])})"
                meld_doubts.append(Doubt("assumed", m.group.tiles, "no tile of this meld lies sideways: took it as "
                                         "claimed from the left (a chow: its lowest tile" + ("; or a concealed kong "
                                         "shown face up" if kong else "") + f"); give the melds to correct it{others}"))
            elif m.meld is not None and m.meld.concealed and all(reader.faces[i] is not BACK for i in m.group.tiles):
                meld_doubts.append(Doubt("assumed", m.group.tiles, "a kong of four tiles face up, none turned: took "
                                         "it as concealed, for another meld shows its claimed tile turned; give the "
                                         "melds if it was claimed"))
            if m.meld is None:
                face_down.append((k, m.group.tiles))
                meld_doubts.append(face_down_doubt(m.group.tiles, hand.melds[k].first))
        try:
            hand = _overridden(hand, overrides, [k for k, _ in face_down], spare)
        except HandError as exc:
            doubts.append(Doubt("impossible", (), f"the overrides do not fit the tiles read: {exc}"))
            hand = None
        if overrides.melds is None:
            doubts.extend(meld_doubts)
        else:
            face_down = []
    doubts.extend(_low_confidence(reader, c, hand, {*swapped, *unsure}))
    guessed = bool(swapped) or mended.stray is not None or not all(m.sideways_shown for m in c.melds)
    return LayoutReading(hand, groups, tuple(doubts), listed, guessed, tuple(face_down), found.value)


def face_down_doubt(tiles: tuple[int, ...], face: Tile, alike: tuple[int, tuple[Tile, ...]] | None = None) -> Doubt:
    """The doubt on a concealed kong shown all face down (``tiles``), read as ``face``; ``alike``: how many of the
    faces it may have score as that one does, and those faces (its alternatives; without, every playable face)."""
    why = f" ({alike[0]} of the {len(alike[1])} faces it may have score as it does)" if alike else ""
    faces = alike[1] if alike else PLAYABLE
    return Doubt("assumed", tiles, f"{FACE_DOWN}: took {face.code}{why}; give the melds to correct it",
                 tuple(t.code for t in faces if t is not face))


def _low_confidence(reader: Reader, c: Candidate, hand: Hand | None, taken: set[int]) -> list[Doubt]:
    """Doubts for the tiles read with low confidence or a close runner-up face (not those already
    swapped for it): the runner-up first, then, for a standing or winning tile of a valid hand, the
    other faces that would also complete it. Where the hand is valid, those it leaves out (a tile's side, the
    rack, the table's tiles: a third of the doubts on the development photos, most under 0.3) make one doubt."""
    det = reader.det
    doubts = []
    unsure = set(np.flatnonzero(det.confidence < LOW_CONFIDENCE).tolist()) | set(doubtful(det))
    outside = sorted(unsure - taken - {i for g in groups_of(c) for i in g.tiles}) if hand is not None else []
    if outside:
        read = ", ".join(f"{reader.faces[i].code} {float(det.confidence[i]):.2f}" for i in outside)
        boxes = f"{len(outside)} boxes" if len(outside) > 1 else "a box"
        doubts.append(Doubt("low_confidence", tuple(outside), f"{boxes} read unsurely, left out of the hand ({read})"))
    for i in sorted(unsure - taken - set(outside)):
        second = det.runner_ups[i]
        alternatives: tuple[str, ...] = (second.code,) if second else ()
        if hand is not None and i in c.head:
            others = [reader.faces[j] for j in c.head if j != i]
            completing = (a for a in _completing(others, hand.melds) if a != reader.faces[i].code)
            alternatives = tuple(dict.fromkeys((*alternatives, *completing)))
        read = f"{reader.faces[i].code} read with confidence {float(det.confidence[i]):.2f}"
        also = f", runner-up {second} ({float(det.runner_up_confidence[i]):.2f})" if second else ""
        doubts.append(Doubt("low_confidence", (i,), read + also, alternatives))
    return doubts


def _stacked_pairs(detections: TileDetections, mended: Mended,
                   ) -> tuple[TileDetections, Mended, tuple[tuple[int, int], ...]] | None:
    """The detections with boxes that may each cover an added kong's stacked pair read as two tiles
    (`vision.stacks`), their best reading and the pairs (the turned tile, the added one), when that reading is a
    valid hand holding every such pair in one kong and either complete (`STACKED_GAIN` more plausible, when
    ``mended`` is complete too) or, where ``mended`` is no win either, `STACKED_GAIN` more plausible: a tile misread
    elsewhere leaves both readings no win, and the pair is read all the same; of the splits offered (boxes of the
    hand's rows and of those beside them, `_beside_the_hand`), the most plausible so taken; else None."""
    # the reading's rows are the detections' own unless it left a stray box out
    rows = mended.reader.rows if mended.stray is None else find_rows(detections)
    taken = []
    within = _beside_the_hand(mended) if mended.stray is None else None
    for cut_detections, pairs in split_pairs(detections, rows, within):
        try:
            other = best_reading(cut_detections, dict(pairs))
        except HandError:
            continue
        melds = [set(m.group.tiles) for m in other.found.candidate.melds]
        held = other.stray is None and all(any(set(pair) <= m for m in melds) for pair in pairs)
        gains = other.found.value >= mended.found.value + STACKED_GAIN
        if held and other.found.hand is not None and \
                (other.found.complete and (gains or not mended.found.complete) or gains and not mended.found.complete):
            taken.append((other.found.value, cut_detections, other, pairs))
    if not taken:
        return None
    _, cut_detections, other, pairs = max(taken, key=lambda t: t[0])
    return cut_detections, other, pairs


def _beside_the_hand(mended: Mended) -> set[int]:
    """The tiles of the rows where the reading's hand may have its melds: the standing tiles' rows and the rows within
    `vision.readings.SIDE_ROWS` of them. A photo of the whole table shows the other players' melds too, pungs of boxes
    large enough for a stacked pair among them; each cut is a whole reading of the photo, and theirs are not the
    hand's."""
    reader, head = mended.reader, set(mended.found.candidate.head)
    return {i for main in reader.rows if head & set(main.tiles) for row in reader.near(main, False, SIDE_ROWS)
            for i in row.tiles}


def _as_kong(hand: Hand | None, stray: Tile) -> str:
    """What to give if the tile left out of ``hand`` is one: where a claimed pung of its face lies among the melds,
    the melds with that pung a kong (a faint fourth tile beside a pung, left out, made it one)."""
    if hand is None:
        return ""
    pungs = [k for k, m in enumerate(hand.melds) if m.kind is MeldKind.PUNG and m.first == stray]
    if not pungs:
        return ""
    melds = list(hand.melds)
    melds[pungs[0]] = Meld(MeldKind.KONG, (stray,) * 4, source=melds[pungs[0]].source)
    return f"; if it is a tile, give the melds: {format_melds(melds)}"


def _overridden(hand: Hand, overrides: Overrides, face_down: Sequence[int] = (), spare: Sequence[Tile] = ()) -> Hand:
    """The hand with the user's winning tile, melds and flower count in place of what was read; the tiles of
    the melds ``face_down`` (concealed kongs shown all face down) may be any face the user gives, and the melds
    may hold the ``spare`` tiles (read in the photo, left out of the hand as no tile) where the hand lacks them."""
    if overrides.melds is not None:
        pool = list(hand.concealed) + [t for k, m in enumerate(hand.melds) if k not in face_down for t in m.tiles]
        pool.append(hand.win_tile)
        unused = list(spare)
        backs = 4 * len(face_down)
        for t in (t for m in overrides.melds for t in m.tiles):
            if t in pool:
                pool.remove(t)
            elif t in unused:  # a tile read but left out: the user says it is one
                unused.remove(t)
            elif backs:
                backs -= 1
            else:
                raise HandError(f"the melds given hold a {t.code} the photo does not show")
        if backs:
            raise HandError(f"the melds given leave {backs} of the face-down tiles out")
        win = hand.win_tile if hand.win_tile in pool else pool[-1]
        pool.remove(win)
        hand = Hand(tuple(pool), overrides.melds, win, hand.flowers, hand.flower_count)
    if overrides.win_tile is not None:
        hand = hand.won_on(overrides.win_tile)
    if overrides.flowers is not None:
        hand = hand.with_flower_count(overrides.flowers)
    return hand


def _complete(build: Callable[[], Hand]) -> bool:
    """Whether ``build`` gives a valid, complete hand."""
    try:
        return is_complete(build())
    except HandError:
        return False


def _completing(standing: Sequence[Tile], melds: tuple[Meld, ...]) -> tuple[str, ...]:
    """The codes of the faces that complete the standing tiles beside the melds (`scoring.winning_faces`)."""
    return tuple(face.code for face in winning_faces(standing, melds))


def _impossible(reader: Reader, c: Candidate, problem: str) -> Doubt:
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
