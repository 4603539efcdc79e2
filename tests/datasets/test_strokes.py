"""Faces redrawn by another hand (`datasets.faces.strokes`): outlines, bolder and thinner strokes, and scenes
whose faces are redrawn while everything else stays as the seed drew it."""

from __future__ import annotations

import numpy as np
import pytest

from datasets import faces
from datasets.faces.strokes import drawn_in_strokes, ink_mask, redrawn, restyled
from datasets.scenes import Renderer

PAPER = (225, 235, 240)


def face_with_bar(paper: tuple[int, int, int] = PAPER, ink: tuple[int, int, int] = (30, 30, 160)) -> np.ndarray:
    """A 120x160 face: a solid bar of ink 20 px wide on plain paper."""
    face = np.full((160, 120, 3), paper, np.uint8)
    face[40:120, 50:70] = ink
    return face


def test_an_outline_keeps_the_strokes_edge_and_clears_its_inside() -> None:
    face = face_with_bar()
    out = redrawn(face, "outline", 2)
    assert tuple(out[80, 60]) == PAPER  # the bar's middle is paper now
    assert tuple(out[80, 50]) == tuple(face[80, 50]) and tuple(out[40, 60]) == tuple(face[40, 60])  # its rim is ink
    assert 0.2 * ink_mask(face).sum() < ink_mask(out).sum() < 0.5 * ink_mask(face).sum()


@pytest.mark.parametrize("paper, ink", [(PAPER, (30, 30, 160)), ((40, 90, 30), (235, 240, 240))])
def test_bold_and_thin_grow_and_shrink_the_ink_on_light_and_dark_paper(paper: tuple[int, int, int],
                                                                        ink: tuple[int, int, int]) -> None:
    face = face_with_bar(paper, ink)
    ink_pixels = ink_mask(face).sum()
    assert ink_mask(redrawn(face, "bold", 2)).sum() > 1.1 * ink_pixels
    assert ink_mask(redrawn(face, "thin", 2)).sum() < 0.9 * ink_pixels


def test_an_unknown_way_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown way 'italic'"):
        redrawn(face_with_bar(), "italic", 1)


def test_a_style_is_drawn_in_strokes_when_its_faces_are_mostly_paper() -> None:
    painted = np.full((160, 120, 3), PAPER, np.uint8)
    painted[10:150, 10:65] = (90, 120, 60)  # a photo-like face: 40 % art
    assert not drawn_in_strokes({"1m": painted, "2m": painted.copy()})
    assert drawn_in_strokes({"1m": face_with_bar(), "2m": painted})  # the median face: 22 % ink
    drawn = {"1m": face_with_bar()}
    assert not np.array_equal(restyled(drawn, np.random.default_rng(0))["1m"], drawn["1m"])


def test_redrawn_scenes_keep_everything_but_the_faces_of_styles_drawn_in_strokes(styles: tuple[str, ...]) -> None:
    plain, redraw = Renderer(styles, size=320), Renderer(styles, size=320, restyle=1.0)
    kinds = set()
    for index in range(8):
        a, b = plain.scene(4, index), redraw.scene(4, index)
        assert a.labels == b.labels and a.style == b.style and a.ground_truth == b.ground_truth
        in_strokes = drawn_in_strokes(faces.BY_NAME[a.style].faces())
        assert (not np.array_equal(a.image, b.image)) == in_strokes  # a photo of tiles, pixel art: as drawn
        kinds.add(in_strokes)
    assert True in kinds
    with pytest.raises(ValueError, match="restyle is a share of scenes"):
        Renderer(styles, restyle=1.5)
