"""Rows of tiles from axis-aligned boxes, at any rotation of the photo.

The detector gives only upright boxes, so the geometry is inferred: the row direction is the dominant
direction between neighbouring tile centres (rows of touching tiles outnumber everything else); tiles
link into a row when they lie on one line close together; each row is refitted on its own (perspective
bends rows a little) and ordered along it. A tile's extent along and across its row is recovered from
its box and the row angle (a rotated rectangle's box), which tells sideways tiles from upright ones,
except near 45° where a box says nothing about orientation and the spacing of centres is used instead.
Rows are ordered along one global direction; whether that is the player's left to right is decided by
the layout reader (`vision.layout`), which tries both.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np

from vision.detections import TileDetections
from vision.geometry import centres_and_sizes

NEIGHBOURS = 2  # nearest neighbours per tile voting for the row direction
ANGLE_TOLERANCE = np.deg2rad(12.0)
WELL_POSED = 0.3  # |cos 2θ| above which a box tells a tile's along/across extents apart
LINK_ALONG = 3.2  # tiles further apart than this many tile widths along a row are not linked
JOIN_ALONG = 5.0  # ... unless both lie on one line with at most this many tile widths between their ends
LINK_ACROSS = 0.5  # ... nor those offset across the row by more than this share of a tile's depth
STACKED = 0.6  # overlap along a row (tile widths) over which one of two tiles lies on the other
STACKED_OFF = 0.3  # ... and the two lie this many tile widths apart across the row
SIDEWAYS_ASPECT = 1.33  # a tile's depth over its width, for the spacing model of sideways tiles


class PlainRow(NamedTuple):
    """A `Row`'s per-tile arrays as plain floats (`Row.plain`)."""

    along: tuple[float, ...]
    unit: tuple[float, ...]
    gaps: tuple[float, ...]
    sideways: tuple[float, ...]


@dataclass(frozen=True, eq=False)
class Row:
    """Tiles in a line, ordered along it. ``tiles`` index the detections; per tile: ``along`` (centre
    position, pixels), ``unit`` (local tile width, pixels); ``gaps[i]`` is the free space between tile
    i and i+1 in tile widths; ``sideways[i]`` the evidence that tile i lies sideways (~0 upright,
    ~0.6 sideways), NaN where the box cannot tell (near 45°)."""

    tiles: tuple[int, ...]
    along: np.ndarray
    across: float  # the row's mean centre position across the global direction (pixels)
    unit: np.ndarray
    gaps: np.ndarray
    sideways: np.ndarray

    @cached_property
    def reversed(self) -> Row:
        """The same row read from the other end; one object per row, so that what is kept per row object (the
        rows beside it: `vision.readings.Reader`) holds for its reversed reading too."""
        return Row(self.tiles[::-1], -self.along[::-1], -self.across, self.unit[::-1], self.gaps[::-1],
                   self.sideways[::-1])

    @cached_property
    def plain(self) -> PlainRow:
        """The per-tile arrays as tuples of plain floats: the layout's arithmetic takes three or four of them at a
        time for every stretch and pair of rows it tries, where numpy's cost per call outweighs the arithmetic."""
        return PlainRow(*(tuple(a.tolist()) for a in (self.along, self.unit, self.gaps, self.sideways)))

    def spacing(self, start: int, stop: int) -> list[float]:
        """Centre distances between consecutive tiles ``start..stop-1``, in local tile widths: on plain floats, as
        a partition asks it of every stretch of three or four tiles it tries."""
        along, unit = self.plain.along, self.plain.unit
        return [(along[k + 1] - along[k]) / ((unit[k] + unit[k + 1]) / 2) for k in range(start, stop - 1)]


def _doubled_angle(vectors: np.ndarray) -> np.ndarray:
    """Each vector's direction as an angle modulo π, doubled so that opposite vectors agree."""
    return (2 * np.arctan2(vectors[:, 1], vectors[:, 0])) % (2 * np.pi)


def row_direction(centres: np.ndarray) -> float:
    """The dominant direction (radians, modulo π) between tiles and their nearest neighbours."""
    n = len(centres)
    if n < 2:
        return 0.0
    dist = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(dist, np.inf)
    k = min(NEIGHBOURS, n - 1)
    nearest = np.argsort(dist, axis=1)[:, :k]
    vectors = (centres[nearest] - centres[:, None]).reshape(-1, 2)
    angles = _doubled_angle(vectors)
    diff = np.abs((angles[:, None] - angles[None] + np.pi) % (2 * np.pi) - np.pi)
    support = np.exp(-((diff / (2 * ANGLE_TOLERANCE)) ** 2)).sum(axis=1)
    best = angles[int(support.argmax())]
    close = np.abs((angles - best + np.pi) % (2 * np.pi) - np.pi) < 2 * ANGLE_TOLERANCE
    mean = np.arctan2(np.sin(angles[close]).sum(), np.cos(angles[close]).sum())
    return float(mean / 2) % np.pi


def extents(wh: np.ndarray, angle: float) -> tuple[np.ndarray, np.ndarray, bool]:
    """Each tile's extent along and across a row at ``angle``, from its box (width, height); the flag
    says whether the box can tell them apart (not near 45°)."""
    c, s = abs(np.cos(angle)), abs(np.sin(angle))
    det = c * c - s * s
    if abs(det) < WELL_POSED:
        size = np.sqrt(wh[:, 0] * wh[:, 1])
        return size, size, False
    along = (wh[:, 0] * c - wh[:, 1] * s) / det
    across = (wh[:, 1] * c - wh[:, 0] * s) / det
    floor = 0.2 * np.sqrt(wh[:, 0] * wh[:, 1])
    return np.maximum(along, floor), np.maximum(across, floor), True


def _components(links: np.ndarray) -> list[list[int]]:
    seen = np.zeros(len(links), bool)
    groups = []
    for start in range(len(links)):
        if seen[start]:
            continue
        stack, group = [start], []
        seen[start] = True
        while stack:
            i = stack.pop()
            group.append(i)
            for j in np.flatnonzero(links[i] & ~seen):
                seen[j] = True
                stack.append(int(j))
        groups.append(group)
    return groups


def _fit_row(members: list[int], centres: np.ndarray, wh: np.ndarray, direction: np.ndarray,
             width: float) -> Row:
    """One row refitted on its own centres and ordered along ``direction``."""
    pts = centres[members]
    local = direction
    if len(members) >= 3:
        _, _, vt = np.linalg.svd(pts - pts.mean(axis=0), full_matrices=False)
        local = vt[0] if vt[0] @ direction >= 0 else -vt[0]
    angle = float(np.arctan2(local[1], local[0]))
    along = pts @ local
    order = np.argsort(along, kind="stable")
    members = [members[i] for i in order]
    along = along[order]
    box = wh[members]
    a, b, posed = extents(box, angle)
    size = np.sqrt(box[:, 0] * box[:, 1])
    unit = width * size / np.median(np.sqrt(wh[:, 0] * wh[:, 1]))
    if posed:
        sideways = _detrended(np.log(a / b), along / width)
        extent = np.where(sideways > 0.3, unit * SIDEWAYS_ASPECT, unit)
    else:
        sideways = np.full(len(members), np.nan)
        extent = unit
    gaps = (np.diff(along) - (extent[:-1] + extent[1:]) / 2) / ((unit[:-1] + unit[1:]) / 2)
    normal = np.array([-direction[1], direction[0]])
    return Row(tuple(members), along, float((pts @ normal).mean()), unit, gaps, sideways)


def _detrended(ratio: np.ndarray, position: np.ndarray) -> np.ndarray:
    """``ratio`` minus its robust linear trend along the row: perspective turns the tiles' across axis
    a little more at one end of a row than at the other, and upright tiles are the majority."""
    residual = ratio - np.median(ratio)
    if len(ratio) < 4:
        return residual
    inliers = np.ones(len(ratio), bool)
    for _ in range(3):
        slope, intercept = np.polyfit(position[inliers], ratio[inliers], 1)
        residual = ratio - (slope * position + intercept)
        keep = np.abs(residual) < 0.2
        if keep.sum() < 3 or (keep == inliers).all():
            break
        inliers = keep
    return residual


def find_rows(detections: TileDetections) -> list[Row]:
    """The rows of tiles in a photo (a lone tile is a row of one), each ordered along one global
    direction; longest first."""
    if len(detections) == 0:
        return []
    centres, wh = centres_and_sizes(detections.xyxy)
    angle = row_direction(centres)
    direction = np.array([np.cos(angle), np.sin(angle)])
    normal = np.array([-direction[1], direction[0]])
    a, b, posed = extents(wh, angle)
    u, v = centres @ direction, centres @ normal
    width = float(np.median(a)) if posed else _median_spacing(u, v, float(np.median(a)))
    depth = float(np.median(b)) if posed else width
    links = (np.abs(u[:, None] - u[None]) < LINK_ALONG * width) & (np.abs(v[:, None] - v[None]) < LINK_ACROSS * depth)
    rows = []
    for group in _collinear(_components(links), u, v, width, depth):
        row = _fit_row(sorted(group), centres, wh, direction, width)
        stacked = _stacked(row, centres, normal)
        if stacked:
            rows += [_fit_row([i], centres, wh, direction, width) for i in stacked]
            row = _fit_row([i for i in row.tiles if i not in stacked], centres, wh, direction, width)
        rows.append(row)
    return sorted(rows, key=lambda r: -len(r.tiles))


def _collinear(groups: list[list[int]], u: np.ndarray, v: np.ndarray, width: float, depth: float) -> list[list[int]]:
    """Groups of linked tiles joined where they lie on one line with a gap of at most `JOIN_ALONG` tile widths
    between them: melds laid far apart, or far from the standing tiles, are still one row of the hand."""
    groups = [list(g) for g in groups]
    joined = True
    while joined:
        joined = False
        for a in range(len(groups)):
            for b in range(a + 1, len(groups)):
                first, second = groups[a], groups[b]
                if min(len(first), len(second)) < 2 or abs(np.median(v[first]) - np.median(v[second])) > LINK_ACROSS * depth:
                    continue
                gap = max(u[second].min() - u[first].max(), u[first].min() - u[second].max())
                if 0 < gap <= JOIN_ALONG * width:
                    groups[a] = first + second
                    del groups[b]
                    joined = True
                    break
            if joined:
                break
    return groups


def _stacked(row: Row, centres: np.ndarray, normal: np.ndarray) -> list[int]:
    """Tiles lying on top of a neighbour in the row (an added kong's fourth tile on the turned one): of two
    tiles overlapping by more than `STACKED` of a tile's width along the row, the one further off its line, when
    the two lie `STACKED_OFF` apart across the row (two boxes drawn on one tile lie on one line: `vision.overlaps`)."""
    across = centres[list(row.tiles)] @ normal
    off = np.abs(across - row.across)
    pairs = [k for k in np.flatnonzero(row.gaps < -STACKED) if abs(across[k] - across[k + 1]) > STACKED_OFF * row.unit[k]]
    return sorted({row.tiles[k if off[k] > off[k + 1] else k + 1] for k in pairs})


def _median_spacing(u: np.ndarray, v: np.ndarray, size: float) -> float:
    """The typical centre distance of tiles side by side in a row (a tile's width), when boxes near
    45° cannot give it: the median along-row distance to the nearest tile on the same line."""
    du = np.abs(u[:, None] - u[None])
    same_line = np.abs(v[:, None] - v[None]) < 0.5 * size
    du = np.where(same_line & (du > 0.3 * size), du, np.inf)
    nearest = du.min(axis=1)
    nearest = nearest[np.isfinite(nearest)]
    return float(np.median(nearest)) if len(nearest) else size
