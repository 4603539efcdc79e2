"""Face-down tiles and blank white dragons told apart by colour (`vision.blanks`)."""

from __future__ import annotations

import numpy as np

from scoring.tiles import BACK, tile
from vision.blanks import settle_blanks
from vision.detections import TileDetections

IVORY, GREEN, INK = (215, 235, 240), (40, 140, 40), (30, 30, 160)  # BGR


def _photo(colours: list[tuple[int, int, int]], drawn: int) -> tuple[np.ndarray, np.ndarray]:
    """Tiles side by side, each filled with its colour, the first ``drawn`` with a drawing on their face."""
    image = np.full((200, 80 * len(colours) + 40, 3), 90, np.uint8)
    boxes = []
    for k, colour in enumerate(colours):
        x = 20 + 80 * k
        image[50:150, x:x + 70] = colour
        if k < drawn:
            image[88:112, x + 30:x + 40] = INK
        boxes.append([x, 50, x + 70, 150])
    return image, np.array(boxes, np.float32)


def _read(image: np.ndarray, boxes: np.ndarray, codes: list[str]) -> list[str]:
    found = TileDetections(boxes, np.full(len(codes), 0.8), np.array([tile(c).index for c in codes]))
    return [t.code for t in settle_blanks(image, found).tiles]


def test_a_blank_read_face_down_has_the_faces_colour_and_is_a_white_dragon() -> None:
    image, boxes = _photo([IVORY] * 4 + [IVORY, GREEN], drawn=4)
    assert _read(image, boxes, ["1m", "2m", "3m", "4m", "back", "back"]) == ["1m", "2m", "3m", "4m", "P", "back"]


def test_in_a_dark_photo_a_tile_read_face_down_stays_face_down() -> None:
    image, boxes = _photo([(60, 70, 75)] * 5, drawn=4)  # the faces' colour too dark to be ivory: it tells nothing
    assert _read(image, boxes, ["1m", "2m", "3m", "4m", "back"])[-1] == BACK.code


def test_a_white_dragon_with_another_colour_is_offered_as_face_down() -> None:
    image, boxes = _photo([IVORY] * 4 + [GREEN], drawn=4)
    found = TileDetections(boxes, np.full(5, 0.8), np.array([tile(c).index for c in ["1m", "2m", "3m", "4m", "P"]]))
    assert settle_blanks(image, found).runner_up[-1] == BACK.index


def test_without_enough_faces_read_surely_nothing_changes() -> None:
    image, boxes = _photo([IVORY, IVORY], drawn=1)
    assert _read(image, boxes, ["1m", "back"]) == ["1m", "back"]


def test_a_blank_in_the_shade_is_a_white_dragon_where_the_backs_colour_is_known() -> None:
    shaded = (185, 205, 210)  # an ivory face darker than `NEAR` allows, the green backs far darker and coloured
    image, boxes = _photo([IVORY] * 4 + [shaded, GREEN, GREEN], drawn=4)
    codes = ["1m", "2m", "3m", "4m", "back", "back", "back"]
    assert _read(image, boxes, codes) == ["1m", "2m", "3m", "4m", "P", "back", "back"]
    image, boxes = _photo([IVORY] * 4 + [shaded], drawn=4)  # no back to tell the backs' colour: nothing changes
    assert _read(image, boxes, codes[:5])[-1] == BACK.code
