"""The readers' training views (`models.training.faces.augment`): blurred as a photo out of focus or shaken when the
recipe asks (``photo_blur_p``); a tilted tile shown as its envelope box frames it when it asks (``envelope``)."""

from __future__ import annotations

import json

import cv2
import numpy as np

from models.training import faces

AUG = json.loads(faces.RECIPE.read_text())["augmentation"]


def sharpness(view: np.ndarray) -> float:
    return float(cv2.Laplacian(cv2.cvtColor(view, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var())


def patch() -> np.ndarray:
    """A stored patch (a crop with room around it) of a sharp face: a checkerboard of 6-px squares."""
    side = round(48 * faces.CONTEXT)
    board = (np.indices((side, side)) // 6).sum(axis=0) % 2
    return np.repeat((board * 200 + 30).astype(np.uint8)[..., None], 3, axis=2)


def views(aug: dict[str, float], count: int = 24) -> list[np.ndarray]:
    rng = np.random.default_rng(3)
    return [faces.augment(patch(), 48, rng, aug) for _ in range(count)]


def test_a_recipe_with_photo_blur_softens_the_views() -> None:
    sharp = {**AUG, "photo_blur_p": 0.0, "blur_p": 0.0}
    soft = {**sharp, "photo_blur_p": 1.0}
    assert AUG["photo_blur_p"] > 0 and AUG["defocus"] > 1 and AUG["shake"] >= 3
    before, after = views(sharp), views(soft)
    assert all(v.shape == (48, 48, 3) and v.dtype == np.uint8 for v in after)
    assert np.median([sharpness(v) for v in after]) < 0.5 * np.median([sharpness(v) for v in before])


def tile_patch() -> np.ndarray:
    """A stored patch of a light tile on a dark table: the tile fills the crop the patch was cut around."""
    side = round(48 * faces.CONTEXT)
    image = np.full((side, side, 3), 20, np.uint8)
    margin = round((side - side / faces.CONTEXT) / 2)
    image[margin:side - margin, margin:side - margin] = 230
    return image


def light_area(aug: dict[str, float]) -> float:
    rng = np.random.default_rng(5)
    return float(np.mean([(faces.augment(tile_patch(), 48, rng, aug)[..., 0] > 128).mean() for _ in range(64)]))


def test_an_envelope_recipe_shows_tilted_tiles_smaller_and_level_ones_as_they_were() -> None:
    plain = {**AUG, "degrees": 45.0, "scale": 0.0, "translate": 0.0, "blur_p": 0.0, "photo_blur_p": 0.0}
    enveloped = {**plain, "envelope": True}
    # the tile's area in a view falls by (|cos| + |sin|)^2 of its tilt: ~1.4x on average over +-45 degrees
    assert light_area(enveloped) < 0.8 * light_area(plain)
    level = {**plain, "degrees": 0.0}
    assert light_area({**level, "envelope": True}) == light_area(level)  # untilted: nothing to shrink
