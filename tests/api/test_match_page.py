"""The match page end to end, in headless Chromium against a server process (fake detector, a ledger file of
its own): a referee starts a match on a phone, records wins by points, by a typed hand and by a photo, a
false win, a penalty and a draw, opens the hand that scored a row, and undoes an entry; the sheet shows what
the ledger holds. ``MCR_SCREENSHOT=docs/match-page.png`` also saves the filled page as a picture."""

from __future__ import annotations

import os
from collections.abc import Iterator

import httpx
import pytest

from tests.api.conftest import HAND, LiveServer, encode

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
TYPED = "[567m,2][567s,3]567p234p1s1s"  # 12 points for East in the East round
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 1}


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[LiveServer]:
    ledger = tmp_path_factory.mktemp("ledger") / "matches.sqlite3"
    with LiveServer(FAKE_TILES=HAND, MCR_LEDGER=str(ledger)) as live:
        yield live


@pytest.fixture
def page(browser, server):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: dialog.accept())  # the undo's "are you sure"
    page.goto(server.url + "/match")
    page.wait_for_selector("body[data-ready=true]")
    yield page
    context.close()
    assert errors == []


def press(page, group: str, value: str) -> None:
    page.click(f'#{group} button[data-value="{value}"]')


def record(page, rows: int) -> None:
    page.click("#record")
    page.wait_for_function(f"document.querySelectorAll('#sheet tbody tr').length === {rows}")


def cells(page, number: int) -> list[str]:
    return page.locator(f'#sheet tbody tr[data-number="{number}"] td.num').all_inner_texts()


def test_a_referee_fills_the_sheet_on_a_phone(page, server, tmp_path):
    for field, name in zip(page.locator("#new-form [name=player]").all(), PLAYERS):
        field.fill(name)
    page.fill("#match-name", "table 5")
    page.click("#new-form button")
    page.wait_for_selector("#entry-section:not([hidden])")
    assert page.inner_text("#hand-title") == "Hand 1 of 16 · East 东 round"

    press(page, "player", "0")  # hand 1: Ann wins on Cy's discard, her hand typed
    press(page, "discarder", "2")
    press(page, "by", "typed")
    page.fill("#hand", TYPED)
    record(page, 1)
    assert cells(page, 1) == ["+36", "-8", "-20", "-8"]

    press(page, "player", "1")  # hand 2: Bo self-drawn, 10 points typed
    press(page, "discarder", "self")
    press(page, "by", "points")
    page.fill("#points", "10")
    record(page, 2)
    assert page.inner_text("#hand-title") == "Hand 3 of 16 · East 东 round"

    press(page, "player", "2")  # hand 3: Cy wins on Di's discard, read from a photo
    press(page, "discarder", "3")
    press(page, "by", "scan")
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(encode(".jpg", 960, 320))
    page.set_input_files("#photo", str(photo))
    page.wait_for_function("document.querySelector('#hand').value === '123456789m123p5s5s'")
    record(page, 3)

    press(page, "kind", "false_win")  # hand 4: Di calls a false win, then Ann is penalised, then a draw
    press(page, "player", "3")
    record(page, 4)
    press(page, "kind", "penalty")
    press(page, "player", "0")
    page.fill("#penalty-points", "5")
    page.fill("#reason", "slow play")
    record(page, 5)
    press(page, "kind", "draw")
    record(page, 6)

    sheet = httpx.get(f"{server.url}/v1/matches").json()[0]
    sheet = httpx.get(f"{server.url}/v1/matches/{sheet['id']}").json()
    assert sheet["rows"][2]["source"] == "scan" and sheet["hands_played"] == 4
    totals = page.locator("#sheet tfoot th.num").all_inner_texts()
    assert totals == [str(t) for t in sheet["rows"][-1]["totals"]]
    names = page.locator("#standings tbody td:nth-child(2)").all_inner_texts()
    assert names == [s["name"] for s in sheet["standings"]]

    press(page, "kind", "win")  # the next win half entered, as the picture shows it
    assert page.is_hidden("#reason") and page.is_visible("#hand")  # the last value-by: a photo
    press(page, "player", "3")
    press(page, "by", "points")
    assert page.is_hidden("#hand") and page.is_hidden("#photo-label")
    if os.environ.get("MCR_SCREENSHOT"):
        page.screenshot(path=os.environ["MCR_SCREENSHOT"], full_page=True, type="png")

    page.click('#sheet tbody tr[data-number="1"]')  # the row opens the typed hand that scored it
    page.wait_for_selector("#hand-dialog[open]")
    assert "Mixed Triple Chow" in page.inner_text("#dialog-fans") and page.inner_text("#dialog-total") == "12"
    assert page.locator("#dialog-tiles .tile").count() == 14
    page.click("#hand-dialog button")
    page.click('#sheet tbody tr[data-number="3"]')
    page.wait_for_function("document.querySelector('#dialog-source').textContent.startsWith('Read from a photo')")
    page.click("#hand-dialog button")

    page.click("#undo")
    page.wait_for_function("document.querySelectorAll('#sheet tbody tr').length === 5")
    assert page.inner_text("#hand-title") == "Hand 4 of 16 · East 东 round"


def test_a_refused_entry_is_named_on_the_page_and_not_recorded(page, server):
    page.select_option("#match-list", index=0)
    page.wait_for_selector("#entry-section:not([hidden])")
    rows = page.locator("#sheet tbody tr").count()
    press(page, "kind", "win")
    press(page, "player", "1")
    page.click("#record")
    page.wait_for_selector("#problem:not([hidden])")
    assert "choose who discarded" in page.inner_text("#problem")
    press(page, "discarder", "0")
    press(page, "by", "points")
    page.fill("#points", "6")
    page.click("#record")
    page.wait_for_function("document.querySelector('#problem').textContent.includes('at least 8')")
    assert page.locator("#sheet tbody tr").count() == rows
