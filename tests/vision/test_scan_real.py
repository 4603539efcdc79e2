"""End to end on the held-out real hand photos (`models.measure.scan_real`, which prints the figure), read from
``../shared`` at test time and skipped without it or without the shipped model."""

from __future__ import annotations

import pytest

from models.measure.scan_real import hand_photos, measure, unexplained
from models.training.recipes import REAL_PHOTOS
from scoring import parse_hand
from vision.detector import Detector, default_model_path
from vision.layout import Doubt

TARGET = 0.9  # exact hands of the readable photos: 16 source hands in 5 copies each, so a photo or two is noise
TILE_FLOOR = 0.95  # labelled faces read: under it, a model that reads fewer faces fails here with the cause named
LIGHT_FLOOR = 0.94  # faces read under a warm cast: tungsten light is common at a mahjong table


@pytest.fixture(scope="module")
def detector() -> Detector:
    """The shipped models; the tests skip without them or without the real photos."""
    if not REAL_PHOTOS.is_dir():
        pytest.skip(f"{REAL_PHOTOS} is absent: the real photos are read from ../shared at test time")
    try:
        return Detector(default_model_path())
    except FileNotFoundError as exc:
        pytest.skip(str(exc))


@pytest.mark.real
def test_the_development_hand_photos_are_the_training_ones() -> None:
    """`--photos development` reads the training photos' hand photos: every copy of each source, none held out."""
    if not REAL_PHOTOS.is_dir():
        pytest.skip(f"{REAL_PHOTOS} is absent: the real photos are read from ../shared at test time")
    held, development = hand_photos("held-out"), hand_photos("development")
    assert len(held) == 90 and len(development) > 5 * len(held)
    assert not set(held) & set(development)
    assert all(p.name.startswith("hand_") for p in development)


@pytest.mark.slow
@pytest.mark.real
def test_held_out_real_hands_are_read_exactly(detector: Detector) -> None:
    tally = measure(detector)
    assert tally["unexplained"] == 0  # every photo gives a hand or says why it cannot
    assert tally["readable"] >= 50
    assert tally["tiles_read"] / tally["tiles"] >= TILE_FLOOR
    share = tally["exact"] / tally["readable"]
    assert share >= TARGET, f"exact hand on {share:.1%} of {tally['readable']} held-out real hand photos"


@pytest.mark.slow
@pytest.mark.real
def test_a_warm_cast_reads_nearly_as_many_faces(detector: Detector) -> None:
    """The readers learn casts (`models.training.faces.colour_jitter`)."""
    tally = measure(detector, "warm")
    assert tally["tiles_read"] / tally["tiles"] >= LIGHT_FLOOR


def test_a_scan_without_a_hand_must_say_why() -> None:
    impossible, assumed = Doubt("impossible", (), "13 tiles"), Doubt("assumed", (), "a guess")
    assert unexplained(None, [assumed]) and not unexplained(None, [impossible])
    assert not unexplained(parse_hand("123456789m1234p5p"), [])
