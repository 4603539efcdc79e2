"""POST /v1/scan: photo + situation -> the scan contract (`mcr scan --json`), with the fake detector."""

from __future__ import annotations

import base64

import cv2
import numpy as np
import pytest

from scoring import Situation
from tests.api.conftest import HAND, FakeDetector, encode, make_client
from vision.scan import scan

PHOTO = encode(".jpg", 960, 320)


@pytest.fixture
def scanner():
    fake = FakeDetector(HAND)
    with make_client(fake) as client:
        yield client, fake


def post(client, **data):
    return client.post("/v1/scan", files={"photo": ("hand.jpg", PHOTO)}, data=data)


def test_scan_answers_the_scan_contract(scanner):
    client, fake = scanner
    response = post(client, win="self_drawn", seat_wind="S")
    assert response.status_code == 200
    image = cv2.imdecode(np.frombuffer(PHOTO, np.uint8), cv2.IMREAD_COLOR)
    expected = scan(image, FakeDetector(HAND), Situation.from_json({"win": "self_drawn", "seat_wind": "S"}))
    assert response.json() == {"image": "hand.jpg", "width": 960, "height": 320, **expected.to_json(),
                               "annotated": None}
    body = response.json()
    assert body["hand"]["notation"] == "123456789m123p5s5s"
    assert body["score"]["is_win"] and body["score"]["situation"]["seat_wind"] == "S"


def test_situation_and_overrides_change_the_score(scanner):
    client, _ = scanner
    plain = post(client).json()["score"]
    drawn = post(client, win="self_drawn").json()["score"]
    flowers = post(client, flowers="3").json()
    assert drawn["total"] > plain["total"] and drawn["situation"]["win"] == "self_drawn"
    assert flowers["score"]["total"] == plain["total"] + 3 and flowers["hand"]["flowers"] == 3
    other_win = post(client, win_tile="1m").json()["hand"]
    assert other_win["win_tile"] == "1m" and other_win["concealed"].count("5s") == 2
    claimed = post(client, melds="[123p,2]").json()  # the user says the 123p was a claimed chow
    assert claimed["hand"]["notation"] == "[123p,2]123456789m5s5s" and claimed["score"]["total"] != plain["total"]
    standing = post(client, melds="none").json()  # ... or that no tiles were melds
    assert standing["hand"]["notation"] == "123456789m123p5s5s" and standing["score"]["total"] == plain["total"]


def test_annotated_photo_on_request(scanner):
    client, _ = scanner
    url = post(client, annotate="true").json()["annotated"]
    assert url.startswith("data:image/jpeg;base64,")
    image = cv2.imdecode(np.frombuffer(base64.b64decode(url.split(",", 1)[1]), np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (320, 960, 3)
    assert not np.array_equal(image, cv2.imdecode(np.frombuffer(PHOTO, np.uint8), cv2.IMREAD_COLOR))


def test_all_sides_on_request_reads_the_photo_turned_too(scanner):
    client, fake = scanner
    post(client)
    once = fake.calls
    body = post(client, all_sides="true").json()
    assert fake.calls - once > once  # the three other turns besides the first reading
    assert body["hand"]["notation"] == "123456789m123p5s5s"  # the fake sees tiles only upright: they still vote


def test_a_12_megapixel_jpeg_is_read_reduced_and_answered_in_its_own_pixels():
    """The detector sees the photo decoded at half size (`SCAN_SIDE`); the answer is in the photo's pixels."""
    fake = FakeDetector(HAND)
    big = encode(".jpg", 4000, 3000)
    with make_client(fake, max_upload_bytes=len(big) + 1) as client:
        body = client.post("/v1/scan", files={"photo": ("big.jpg", big)}).json()
    half = scan(cv2.imdecode(np.frombuffer(big, np.uint8), cv2.IMREAD_REDUCED_COLOR_2), FakeDetector(HAND), Situation())
    assert (body["width"], body["height"]) == (4000, 3000) and body["hand"]["notation"] == "123456789m123p5s5s"
    assert np.allclose([t["box"] for t in body["tiles"]], half.detections.xyxy * 2, atol=0.2)


def test_tiles_that_make_no_hand_are_a_result_with_doubts():
    with make_client(FakeDetector("1m 1m 1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m | 9m")) as client:
        body = post(client).json()
    assert body["hand"] is None and body["score"] is None
    assert len(body["tiles"]) == 14 and body["doubts"]


def test_no_tiles_found_is_a_422():
    with make_client(FakeDetector("")) as client:
        response = post(client)
    assert (response.status_code, response.json()["error"]) == (422, "no_tiles")


@pytest.mark.parametrize(("data", "code", "names"), [
    ({"win": "self_drawn", "robbing_kong": "true"}, "bad_situation", "robbing the kong"),
    ({"seat_wind": "X"}, "invalid_request", "seat_wind"),
    ({"flowers": "12"}, "invalid_request", "flowers"),
    ({"win_tile": "10m"}, "unknown_tile", "10m"),
    ({"melds": "[12p]"}, "impossible_hand", "[12p]"),
    ({"melds": "123p"}, "bad_notation", "melds only"),
    ({"self_drawn": "true"}, "invalid_request", "self_drawn"),
])
def test_bad_situation_fields_are_refused_before_the_photo_is_read(scanner, data, code, names):
    client, fake = scanner
    response = post(client, **data)
    assert (response.status_code, response.json()["error"]) == (422, code)
    assert names in response.json()["detail"]
    assert fake.calls == 0


def test_scan_refuses_bad_photos_like_detect(scanner):
    client, fake = scanner
    response = client.post("/v1/scan", files={"photo": ("x.jpg", b"not a photo")})
    assert (response.status_code, response.json()["error"]) == (415, "not_an_image")
    assert fake.calls == 0
