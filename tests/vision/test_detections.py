"""TileDetections: shape validation, filtering, tiles and the `mcr detect` JSON form."""

import numpy as np
import pytest

from scoring.tiles import tile
from vision.detections import TileDetections


def sample() -> TileDetections:
    return TileDetections(
        xyxy=np.array([[0, 0, 10, 20], [10, 0, 20, 20], [20, 0, 30.26, 20]]),
        confidence=np.array([0.9, 0.3, 0.61234]),
        class_id=np.array([tile("5p").index, tile("E").index, tile("back").index]),
    )


def test_mask_and_index_filtering_return_new_values() -> None:
    d = sample()
    sure = d[d.confidence > 0.5]
    assert [t.code for t in sure.tiles] == ["5p", "back"]
    assert len(d) == 3 and len(sure) == 2
    assert [t.code for t in d[[2, 0]].tiles] == ["back", "5p"]
    assert [t.code for t in d[1].tiles] == ["E"]
    assert len(d[1:]) == 2


def test_json_form() -> None:
    assert sample().to_json()[2] == {"code": "back", "confidence": 0.6123, "box": [20.0, 0.0, 30.3, 20.0],
                                     "runner_up": None}


def with_runner_ups() -> TileDetections:
    d = sample()
    return TileDetections(d.xyxy, d.confidence, d.class_id, [tile("6p").index, -1, tile("P").index], [0.05, 0.7, 0.4])


def test_runner_up_columns_follow_every_operation() -> None:
    d = with_runner_ups()
    assert d.runner_up_confidence[1] == 0  # no runner-up, no score
    assert d.to_json()[0]["runner_up"] == {"code": "6p", "confidence": 0.05}
    picked = d[[2, 0]]
    assert picked.runner_up.tolist() == [tile("P").index, tile("6p").index]
    moved = d.with_boxes(d.xyxy + 5)
    assert moved.runner_up.tolist() == d.runner_up.tolist() and moved.xyxy[0, 0] == 5
    both = TileDetections.concat([d, picked])
    assert len(both) == 5 and both.runner_up_confidence.tolist() == pytest.approx([0.05, 0, 0.4, 0.4, 0.05])
    again = TileDetections.from_json(d.to_json())
    assert again.runner_up.tolist() == d.runner_up.tolist() and again.tiles == d.tiles
    assert TileDetections.from_json([{"code": "E", "confidence": 0.5, "box": [0, 0, 1, 1]}]).runner_up.tolist() == [-1]


def test_reading_the_runner_up_swaps_the_faces() -> None:
    d = with_runner_ups()
    swapped = d.with_runner_up([2])
    assert [t.code for t in swapped.tiles] == ["5p", "E", "P"]
    assert swapped.confidence[2] == pytest.approx(0.4) and swapped.runner_up_confidence[2] == pytest.approx(0.61234)
    assert swapped.with_runner_up([2]).tiles == d.tiles
    with pytest.raises(ValueError, match=r"without a runner-up face: \[1\]"):
        d.with_runner_up([1])


def test_runner_up_faces_are_named_where_there_are_any() -> None:
    d = with_runner_ups()
    assert [t.code if t else None for t in d.runner_ups] == ["6p", None, "P"]
    assert d.with_runner_up([2]).runner_ups[2] == d.tiles[2]  # each value its own faces: none kept from another


@pytest.mark.parametrize(("as_sure", "score"), [(False, 0.0), (True, 0.9)])
def test_a_guessed_runner_up_is_scored_zero_or_as_the_face_read(as_sure: bool, score: float) -> None:
    guessed = with_runner_ups().with_guesses({0: tile("4p").index, 1: tile("S").index}, as_sure=as_sure)
    assert guessed.runner_up.tolist()[:2] == [tile("4p").index, tile("S").index]
    assert guessed.runner_up_confidence[0] == pytest.approx(score)
    taken = guessed.with_runner_up([0])  # the guess read, the face read first its runner-up, as sure as before
    assert taken.tiles[0].code == "4p" and taken.runner_up_confidence[0] == pytest.approx(0.9)


def test_empty() -> None:
    empty = TileDetections.empty()
    assert len(empty) == 0 and empty.to_json() == [] and empty.tiles == ()
    assert len(TileDetections([], [], [])) == 0


def test_columns_are_frozen() -> None:
    d = sample()
    with pytest.raises(ValueError):
        d.confidence[0] = 0.1


@pytest.mark.parametrize(
    ("xyxy", "confidence", "class_id", "message"),
    [
        (np.zeros((2, 3)), np.zeros(2), np.zeros(2, int), "shape"),
        (np.zeros((2, 4)), np.zeros(3), np.zeros(2, int), "length"),
        (np.zeros((1, 4)), np.zeros(1), np.array([43]), "outside"),
        (np.zeros((1, 4)), np.zeros(1), np.array([0.5]), "integers"),
    ],
)
def test_bad_columns_are_named(xyxy, confidence, class_id, message) -> None:
    with pytest.raises(ValueError, match=message):
        TileDetections(xyxy, confidence, class_id)


def test_bad_mask_length() -> None:
    with pytest.raises(IndexError, match="mask"):
        sample()[np.array([True, False])]


def test_bad_runner_up_columns_are_named() -> None:
    with pytest.raises(ValueError, match="runner_up outside -1"):
        TileDetections(np.zeros((1, 4)), [0.5], [0], [-2], [0.1])
    with pytest.raises(ValueError, match="together"):
        TileDetections(np.zeros((1, 4)), [0.5], [0], [1])
    with pytest.raises(ValueError, match="runner_up_confidence 2"):
        TileDetections(np.zeros((1, 4)), [0.5], [0], [1], [0.1, 0.2])
