"""The web page end to end, in headless Chromium (Debian's `chromium`, driven by Playwright) against a
server process with the fake detector: upload a photo, see the fan table, correct a tile, see the score
change. Skipped, saying how to install it, where Chromium is absent."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from scoring import Situation, parse_hand, score
from tests.api.conftest import HAND, LiveServer, encode
from tests.conftest import GRADIENT_HEIC

READ, CORRECTED = "123456789m123p5s5s", "123456789m234p5s5s"  # the 1p misread: it was a 4p


@pytest.fixture(scope="module")
def page_url(browser) -> Iterator[tuple[object, str]]:
    with LiveServer(FAKE_TILES=HAND.replace("1p", "1p/4p")) as server:
        yield browser, server.url


@pytest.fixture
def page(page_url, tmp_path):
    browser, url = page_url
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url + "/")
    page.wait_for_selector("body[data-ready=true]")
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(encode(".jpg", 960, 320))
    page.photo = photo
    yield page
    context.close()
    assert errors == []


def total_of(notation: str, **situation: object) -> int:
    return score(parse_hand(notation), Situation.from_json(situation)).total


def fan_names(page) -> list[str]:
    return page.locator("#fans tbody tr td:first-child").evaluate_all(
        "cells => cells.map(c => c.firstChild.textContent.trim())")


def test_upload_then_correct_a_tile_and_the_score_follows(page):
    before, after = total_of(READ), total_of(CORRECTED)
    assert before != after
    page.set_input_files("#photo", str(page.photo))
    page.wait_for_selector("#score-section:not([hidden])")
    assert page.inner_text("#total") == str(before)
    assert "Mixed Double Chow" in fan_names(page)
    assert page.locator("#boxes rect").count() == 14
    assert page.inner_text("#hand-notation") == READ

    page.click('#groups .group.concealed .tile[data-code="1p"]')
    suggested = page.locator('#faces .tile[data-suggested="true"]')  # the detector's runner-up for that tile
    assert suggested.count() == 1 and suggested.get_attribute("data-code") == "4p"
    suggested.click()
    page.wait_for_function(f"document.querySelector('#total').textContent === '{after}'")
    assert page.inner_text("#hand-notation") == CORRECTED
    assert "Mixed Double Chow" not in fan_names(page)
    assert "4p" in page.locator("#boxes text").all_text_contents()  # the photo overlay follows


def test_situation_toggles_rescore(page):
    page.set_input_files("#photo", str(page.photo))
    page.wait_for_selector("#score-section:not([hidden])")
    total = total_of(READ)
    assert page.inner_text('#payouts .seat[data-seat="N"] b') == str(-(8 + total))  # the winner's left
    page.click('.segmented[data-field="discarder"] button[data-value="W"]')
    west = """document.querySelector('#payouts .seat[data-seat="W"] b').textContent"""
    page.wait_for_function(f"{west} === '{-(8 + total)}'")
    assert page.inner_text('#payouts .seat[data-seat="N"] b') == "-8"
    page.click('.segmented[data-field="win"] button[data-value="self_drawn"]')
    drawn = total_of(READ, win="self_drawn")
    page.wait_for_function(f"document.querySelector('#total').textContent === '{drawn}'")
    page.click("#flowers-up")
    page.wait_for_function(f"document.querySelector('#total').textContent === '{drawn + 1}'")
    assert page.inner_text('#payouts .seat[data-seat="S"] b') == str(-(8 + drawn + 1))
    assert page.is_hidden("#discarder-field")  # no discarder for a self-drawn win


def test_moving_a_tile_to_a_meld_and_a_typed_hand(page):
    page.fill("#notation", "[567m,2][567s,3]567p234p1s1s")
    page.click("#typed button")
    page.wait_for_selector("#score-section:not([hidden])")
    assert page.inner_text("#total") == str(total_of("[567m,2][567s,3]567p234p1s1s"))
    assert page.locator("#groups .group.meld").count() == 2
    page.click('#groups .group.concealed .tile[data-code="5p"]')
    page.click("#move-buttons button:text('A new meld')")
    assert page.locator("#groups .group.meld").count() == 3
    page.wait_for_selector("#problem:not([hidden])")  # a one-tile meld: the scorer says what is wrong
    assert "meld" in page.inner_text("#problem")


def test_a_large_photo_is_shrunk_on_the_phone_before_upload(page, tmp_path):
    big = tmp_path / "big.jpg"
    big.write_bytes(encode(".jpg", 4000, 1500))
    page.set_input_files("#photo", str(big))
    page.wait_for_selector("#score-section:not([hidden])")
    assert page.get_attribute("#boxes", "viewBox") == "0 0 3072 1152"  # the size the server decoded


def test_an_iphones_heic_photo_chosen_on_the_page_is_read(page):
    """The page sends a photo it cannot draw (a HEIC outside Safari) or need not shrink as it is; the server decodes
    it."""
    page.set_input_files("#photo", str(GRADIENT_HEIC))
    page.wait_for_selector("#score-section:not([hidden])")
    assert page.get_attribute("#boxes", "viewBox") == "0 0 960 320"  # the HEIC's own size, decoded by the server
    assert page.inner_text("#hand-notation") == READ


def test_waits_of_typed_tiles_and_of_the_hand_above(page):
    from scoring.waits import answer_waits

    answer = answer_waits({"hand": "123456789m23p55s", "seen": "1p"})
    page.fill("#waits-notation", "123456789m23p55s")
    page.fill("#seen", "1p")
    page.click("#waits-form button")
    page.wait_for_selector("#waits-answer table.waits")
    rows = page.locator("#waits-answer tbody tr").evaluate_all("rows => rows.map(r => r.dataset.tile)")
    assert rows == ["1p", "4p"]
    first = answer["waits"][0]
    assert page.inner_text('#waits-answer tr[data-tile="1p"] .discard') == str(first["discard"]["total"])
    assert page.inner_text('#waits-answer tr[data-tile="1p"] td:nth-child(3)') == "3"  # one 1p seen

    page.fill("#notation", "11123455678999m")  # typed above: 14 tiles, so the best discard
    page.click("#typed button")
    page.wait_for_selector("#score-section:not([hidden])")
    page.click("#waits-from-hand")
    page.wait_for_selector('#waits-answer details.discard-option[open][data-tile="5m"]')
    assert page.locator('details[data-tile="5m"] tbody tr').count() == 9  # Nine Gates
