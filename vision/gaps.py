"""Standing tiles with a gap among them: melds laid beside them with no tile turned.

Standing tiles touch (loosely drawn boxes leave up to 0.3 tile widths between them), and a player who turns no
claimed tile sets the melds apart by a gap. Where the layout reads the tiles past such a gap as standing tiles (a
gap costs less than a meld that shows no claim: `vision.readings.APART_STANDING`, `vision.melds.UNTURNED`), the
photo may show melds with nothing turned, or standing tiles a player did not push together: it cannot tell, and
the reading says so, naming the melds those tiles make, for the user to give them if they are.
"""

from __future__ import annotations

from scoring import Meld, MeldKind
from vision.readings import Candidate, Reader

MELD_GAP = 0.4  # tile widths between two standing tiles past which those beyond may be melds laid apart: over the
# 0.3 that loose boxes leave between touching tiles; every dev composed reading with such a gap (18 of 500) missed
# a meld, and none of 195 training hand photos gets the doubt


MAX_PAST = 3  # melds past the gap at most: a gap that leaves one standing tile beside twelve is likelier a loose box


def melds_past_gap(reader: Reader, c: Candidate) -> tuple[tuple[int, ...], float, tuple[Meld, ...]] | None:
    """The standing tiles of ``c`` (and the winning tile, where not set apart: it may be a meld's last, taken as the
    rightmost standing tile) past the widest gap among them (the shorter side first), where it is wider than
    `MELD_GAP` and they make up to `MAX_PAST` chows and pungs laid one after another, with the gap and those melds;
    None where there is no such gap or no such side."""
    standing = c.head[:-1] if c.win_apart else c.head  # a winning tile not set apart may be a meld's last tile
    row = next((r for r in reader.rows if standing and standing[0] in r.tiles), None)
    if row is None or len(standing) < 4 or not set(standing) <= set(row.tiles):
        return None
    places = sorted(row.tiles.index(i) for i in standing)
    if places[-1] - places[0] != len(places) - 1:  # not one stretch of the row
        return None
    gaps = [float(row.gaps[k]) for k in places[:-1]]
    widest = max(range(len(gaps)), key=lambda k: gaps[k])
    if gaps[widest] <= MELD_GAP:
        return None
    split = places[widest] + 1
    for start, stop in sorted([(places[0], split), (split, places[-1] + 1)], key=lambda s: s[1] - s[0]):
        if (stop - start) % 3 or stop - start > 3 * MAX_PAST:
            continue
        found = reader.partition(row, start, stop, None, set(row.tiles))
        melds = tuple(m.meld for m in found[1] if m.meld is not None) if found else ()
        if melds and all(m.kind is not MeldKind.KONG for m in melds) and 3 * len(melds) == stop - start:
            return row.tiles[start:stop], gaps[widest], melds
    return None
