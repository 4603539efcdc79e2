"""Another hand drawing a style's faces: the same art with its strokes outlined, bolder or thinner.

Tile sets differ in how they draw a face as much as in what they draw: one paints a bamboo stick solid,
another engraves its outline, one brush is heavy, another fine. A reader trained on a few dozen styles
learns their stroke weights with their shapes (a reader that never saw a stick drawn in outline reads the
held-out `gnome-smooth` 1 of bamboo as the 1 of characters). `restyled` redraws every face of a style
one way, chosen per scene (`datasets.scenes.Renderer`'s ``restyle``), so one scene's set stays consistent.
"""

from __future__ import annotations

import cv2
import numpy as np

from datasets.faces.source import Faces

WAYS: tuple[str, ...] = ("outline", "bold", "thin")
INK = 60.0  # summed BGR distance from the face's paper above which a pixel is ink
STROKES = 0.3  # a style whose typical face is more ink than this is not drawn in strokes (a photo of tiles,
# pixel art: `xmahjongg-real` 0.36, `mahjong-pixel` 0.46; the others 0.12-0.28) and is never redrawn


def paper(face: np.ndarray) -> np.ndarray:
    """A face's paper colour (BGR): the median of all its pixels, most of which no art covers (its border
    may be a darker rim)."""
    return np.median(face.reshape(-1, 3), axis=0)


def ink_mask(face: np.ndarray, ground: np.ndarray | None = None) -> np.ndarray:
    """The face's ink: pixels far from its paper colour (``ground`` when known; uint8, 1 on ink)."""
    ground = paper(face) if ground is None else ground
    return (np.abs(face.astype(np.float32) - ground).sum(axis=2) > INK).astype(np.uint8)


def drawn_in_strokes(faces: Faces) -> bool:
    """Whether a style's typical face is mostly paper (`STROKES`), so that its strokes can be redrawn."""
    return bool(np.median([ink_mask(face).mean() for face in faces.values()]) <= STROKES)


def redrawn(face: np.ndarray, way: str, width: int) -> np.ndarray:
    """One face drawn another ``way`` (`WAYS`): ``outline`` keeps a ring of ``width`` pixels of each stroke
    and fills its inside with the paper; ``bold`` and ``thin`` grow or shrink the ink by ``width`` pixels
    (the ink's side of a min or max filter: dark ink on a light ground grows under the min)."""
    if way not in WAYS:
        raise ValueError(f"unknown way {way!r}; known: {', '.join(WAYS)}")
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * width + 1, 2 * width + 1))
    ground = paper(face)
    if way == "outline":
        inside = cv2.erode(ink_mask(face, ground), kernel).astype(bool)
        out = face.copy()
        out[inside] = ground.astype(np.uint8)
        return out
    light_ground = ground.mean() >= 128
    grow = (way == "bold") == light_ground  # the filter that widens what is darker than the ground
    return cv2.erode(face, kernel) if grow else cv2.dilate(face, kernel)


def restyled(faces: Faces, rng: np.random.Generator) -> Faces:
    """The faces of a style drawn in strokes (`drawn_in_strokes`, which the caller asks once per style)
    redrawn one way (`WAYS`), at one stroke width (1-3 px of the 120-px face)."""
    way = WAYS[int(rng.integers(len(WAYS)))]
    width = int(rng.integers(1, 4)) if way == "outline" else int(rng.integers(1, 3))
    return {code: redrawn(face, way, width) for code, face in faces.items()}
