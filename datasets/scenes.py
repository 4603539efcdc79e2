"""One synthetic photo: tiles laid out on the table plane, seen by a phone, with exact labels.

Each scene is a pure function of (seed, index): its random generator is seeded with both, so the output
does not depend on how scenes are shared among worker processes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from datasets import camera, faces, props, tilebody
from datasets.backgrounds import background
from datasets.faces import ALTERNATE, code_of, strokes
from datasets.layouts import LAYOUTS, Layout, make_layout
from datasets.occluders import occlude
from scoring.tiles import tile

PAD = 4  # plane pixels around the content
TRAY_DEPTH = 0.35  # a tray's visible side, as a share of a tile's
SHAPES = ((1.0, 1.0), (1.0, 0.75), (0.75, 1.0))  # photo width, height as shares of the long side
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in photo pixels
RESTYLE_STREAM = 1  # the third seed of the generator that decides whether and how a scene's faces are redrawn
ART_STREAM = 2  # the third seed of the generator that picks each tile's drawing (a red five or the plain one)
ALTERNATE_SHARE = 1 / 3  # share of a face's tiles drawn another way when the style has one (riichi sets: 1 red
# five in 4, drawn more often so that the models see enough of them)


@dataclass(frozen=True)
class Label:
    """A YOLO box in photo pixels around a visible tile face."""

    cls: int
    box: Box  # x0, y0, x1, y1


@dataclass(frozen=True)
class Scene:
    image: np.ndarray  # BGR uint8
    labels: tuple[Label, ...]
    quality: int  # the JPEG quality to save with
    style: str
    layout: str
    ground_truth: dict[str, Any] | None  # the layout side file (scenes with a hand)
    coverage: np.ndarray  # float mask, 1 where a tile is seen (for checks; not saved)


class Renderer:
    """Renders scenes from a fixed choice of styles and layouts; faces are loaded once per process."""

    def __init__(self, styles: tuple[str, ...], layouts: tuple[str, ...] = LAYOUTS, size: int = 640,
                 restyle: float = 0.0) -> None:
        unknown = [s for s in styles if s not in faces.BY_NAME] + [name for name in layouts if name not in LAYOUTS]
        if unknown:
            raise ValueError(f"unknown style or layout: {', '.join(unknown)}")
        if not styles or not layouts:
            raise ValueError("no tile style or layout to draw from")
        if not 0.0 <= restyle <= 1.0:
            raise ValueError(f"restyle is a share of scenes, 0 to 1 (got {restyle})")
        self.styles, self.layouts, self.size, self.restyle = styles, layouts, size, restyle
        self._faces = {name: faces.BY_NAME[name].faces() for name in styles}
        self._strokes = {name: restyle > 0 and strokes.drawn_in_strokes(f) for name, f in self._faces.items()}

    def scene(self, seed: int, index: int) -> Scene:
        rng = np.random.default_rng([seed, index])
        style = self.styles[int(rng.integers(len(self.styles)))]
        style_faces = self._faces[style]
        layout = make_layout(self.layouts[int(rng.integers(len(self.layouts)))], rng,
                             frozenset(k for k in style_faces if ALTERNATE not in k))
        art = _art(layout, style_faces, np.random.default_rng([seed, index, ART_STREAM]))
        shown = {k: f for k, f in style_faces.items() if k in set(art)}
        redraw = np.random.default_rng([seed, index, RESTYLE_STREAM])  # its own stream: the rest of the scene
        if redraw.random() < self.restyle and self._strokes[style]:  # is the same whatever ``restyle``
            shown = strokes.restyled(shown, redraw)
        look = _look(rng, layout.name)
        elevation = float(rng.uniform(*look.elevation))
        body = tilebody.Body.random(rng, elevation)
        shape = SHAPES[int(rng.integers(len(SHAPES)))]
        size = (round(self.size * shape[0]), round(self.size * shape[1]))

        corners = [tilebody.footprint(p, layout.aspect, body.ccw) for p in layout.tiles]
        allc = np.vstack(corners)
        x0, y0 = allc.min(axis=0)
        x1, y1 = allc.max(axis=0)
        y1 += body.thickness * max(p.layers for p in layout.tiles)
        tray = None
        if layout.name in ("hand", "grid") and look.surface == "table" and rng.random() < 0.35:  # on a tray
            tray = props.tray_extent(rng, (x0, y0, x1, y1))
            x0, y0, x1 = min(x0, tray[0]), min(y0, tray[1]), max(x1, tray[2])
            y1 = max(y1, tray[3] + TRAY_DEPTH * body.thickness)
        fill = float(rng.uniform(*look.fill))
        hom_units, turned = camera.homography(rng, (x0, y0, x1, y1), size, elevation, fill, level=look.level)
        px = float(np.clip(camera.local_scale(hom_units, ((x0 + x1) / 2, (y0 + y1) / 2)) * 1.25, 8, 120))
        to_plane = np.array([[px, 0, PAD - x0 * px], [0, px, PAD - y0 * px], [0, 0, 1]], np.float64)
        hom = hom_units @ np.linalg.inv(to_plane)
        plane_size = (int(np.ceil((x1 - x0) * px)) + 2 * PAD, int(np.ceil((y1 - y0) * px)) + 2 * PAD)

        plane, quads = _draw_plane(layout, art, body, shown, corners, (x0, y0), plane_size, px)
        tiles_only = None
        if tray is not None:
            tiles_only = plane[:, :, 3].copy()
            rect = (np.array(tray) - (x0, y0, x0, y0)) * px + PAD
            under = props.tray_layer(rng, plane.shape[:2], rect, TRAY_DEPTH * body.thickness * px)
            plane += under * (1 - tiles_only)[:, :, None]
        photo, coverage = self._compose(rng, plane, hom, size, px, look.surface)
        if tiles_only is not None:
            coverage = cv2.warpPerspective(tiles_only, hom, size, flags=cv2.INTER_LINEAR)
        seen = [cv2.perspectiveTransform(q[None].astype(np.float32), hom)[0] for q in quads]
        boxes = [_box(q, size) for q in seen]
        if look.surface != "studio" and rng.random() < 0.15:
            photo, coverage = occlude(rng, photo, coverage, seen)
        photo = camera.develop(rng, photo, coverage, product=look.surface == "studio")
        labels, label_of = _labels(layout, boxes)
        truth = None
        if layout.hand:
            truth = _ground_truth(layout, art, boxes, label_of, style, size)
            truth["camera"] = {"elevation": round(elevation, 1), "rotation": round(turned, 1)}
        return Scene(photo, labels, int(rng.integers(55, 96)), style, layout.name, truth, coverage)

    @staticmethod
    def _compose(rng: np.random.Generator, plane: np.ndarray, hom: np.ndarray, size: tuple[int, int],
                 px: float, surface: str) -> tuple[np.ndarray, np.ndarray]:
        """The ``surface`` (`backgrounds.KINDS`), the tiles' soft shadow, then the tiles (float BGR), and the
        tiles' mask; things lie about on a table, not in a palm or a product photo."""
        layer = cv2.warpPerspective(plane, hom, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        alpha = layer[:, :, 3]
        bg = background(rng, *size, kind=surface)
        if surface in ("table", "automatic"):
            props.clutter(rng, bg)
        # the soft shadow is computed at quarter size: it is a blur anyway
        quarter = (max(2, size[0] // 4), max(2, size[1] // 4))
        shift = np.float32([[1, 0, rng.normal(0, 0.02 * px)], [0, 1, abs(rng.normal(0.025 * px, 0.02 * px))]])
        small = cv2.warpAffine(cv2.resize(alpha, quarter, interpolation=cv2.INTER_AREA), shift, quarter)
        shadow = cv2.resize(cv2.GaussianBlur(small, (0, 0), max(0.5, 0.03 * px)), size)
        keep = (1 - float(rng.uniform(0.25, 0.6)) * shadow) * (1 - alpha)
        return bg * keep[:, :, None] + layer[:, :, :3], alpha


@dataclass(frozen=True)
class Look:
    """How a scene is photographed: on what (`backgrounds.KINDS`), from how high (degrees), how much of the
    photo the tiles fill, and whether the phone is held level."""

    surface: str = "table"
    elevation: tuple[float, float] = (35.0, 88.0)
    fill: tuple[float, float] = (0.6, 1.15)
    level: bool = False


PRODUCT_SHARE = 0.06  # share of hand, grid and loose scenes that are a shop's small product photo instead
AUTOMATIC_SHARE = 0.7  # share of seat scenes on an automatic table's felt


def _look(rng: np.random.Generator, layout: str) -> Look:
    """The `Look` of a scene of ``layout``: from a seat, low (30–60°) and level with the tiles small, mostly on
    an automatic table; in a palm, from above; a few product photos on a white ground; else as before."""
    if layout == "seat":
        return Look("automatic" if rng.random() < AUTOMATIC_SHARE else "table", (30.0, 60.0), (0.8, 1.05), True)
    if layout == "palm":
        return Look("palm", (55.0, 88.0), (0.3, 0.55))
    tight = (0.65, 0.97) if layout in ("hand", "grid") else (0.6, 1.15)
    if layout != "table" and rng.random() < PRODUCT_SHARE:
        return Look("studio", (50.0, 88.0), tight)
    return Look(fill=tight)


def _art(layout: Layout, style_faces: faces.Faces, rng: np.random.Generator) -> list[str]:
    """Which drawing of its face each tile shows: its code, or (a share `ALTERNATE_SHARE` of the time) another
    drawing the style has of that face, as a riichi set's red five (``5m-red``)."""
    others: dict[str, list[str]] = {}
    for key in style_faces:
        if ALTERNATE in key:
            others.setdefault(code_of(key), []).append(key)
    art = []
    for p in layout.tiles:
        choices = others.get(p.shown)
        art.append(str(rng.choice(choices)) if choices and rng.random() < ALTERNATE_SHARE else p.shown)
    return art


def _draw_plane(layout: Layout, art: list[str], body: tilebody.Body, shown: faces.Faces, corners: list[np.ndarray],
                origin: tuple[float, float], plane_size: tuple[int, int], px: float) -> tuple[np.ndarray, list]:
    """The table plane (BGRA float) with every tile drawn far to near (``shown``: the faces the layout
    shows, by the face key ``art`` gives each tile), and each tile's top in plane pixels."""
    tops = tilebody.tops(shown, body, (max(4, round(px)), max(4, round(px * layout.aspect))))
    plane = np.zeros((plane_size[1], plane_size[0], 4), np.float32)
    quads = [(c - origin) * px + PAD for c in corners]
    for i in sorted(range(len(quads)), key=lambda i: quads[i][:, 1].max()):
        p = layout.tiles[i]
        tilebody.draw_tile(plane, tops[art[i]], quads[i], body, p.face_down, body.thickness * px, p.layers)
    return plane, quads


def _labels(layout: Layout, boxes: list[Box | None]) -> tuple[tuple[Label, ...], list[int | None]]:
    """A label per tile with a box, and for each tile its label's line number (None when unlabelled)."""
    labels: list[Label] = []
    line_of: list[int | None] = []
    for p, b in zip(layout.tiles, boxes):
        line_of.append(len(labels) if b else None)
        if b:
            labels.append(Label(tile(p.shown).index, b))
    return tuple(labels), line_of


def _box(quad: np.ndarray, size: tuple[int, int]) -> Box | None:
    """The quad's box clipped to the photo, or None when less than half of it is inside."""
    x0, y0 = quad.min(axis=0)
    x1, y1 = quad.max(axis=0)
    cx0, cy0, cx1, cy1 = max(x0, 0.0), max(y0, 0.0), min(x1, float(size[0])), min(y1, float(size[1]))
    if cx1 - cx0 < 2 or cy1 - cy0 < 2 or (cx1 - cx0) * (cy1 - cy0) < 0.5 * (x1 - x0) * (y1 - y0):
        return None
    return float(cx0), float(cy0), float(cx1), float(cy1)


def _ground_truth(layout: Layout, art: list[str], boxes: list[Box | None],
                  label_of: list[int | None], style: str, size: tuple[int, int]) -> dict[str, Any]:
    assert layout.hand is not None
    order: dict[int, int] = {}  # left-to-right index of each hand tile along its row
    for row in {p.row for p in layout.tiles if p.group is not None}:
        members = [i for i, p in enumerate(layout.tiles) if p.group is not None and p.row == row]
        for k, i in enumerate(sorted(members, key=lambda i: (layout.tiles[i].x, layout.tiles[i].stacked))):
            order[i] = k
    tiles = [{"code": p.code, "class": p.shown, "face": face, "box": [round(v, 2) for v in b] if b else None,
              "label": n, "group": p.group, "position": p.position, "row": p.row if p.group is not None else None,
              "order": order.get(i), "sideways": p.sideways, "face_down": p.face_down, "stacked": p.stacked}
             for i, (p, face, b, n) in enumerate(zip(layout.tiles, art, boxes, label_of))]
    return {"width": size[0], "height": size[1], "style": style, "layout": layout.name,
            "hand": layout.hand.to_json(), "groups": [g.to_json() for g in layout.groups], "tiles": tiles}
