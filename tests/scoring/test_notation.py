import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.measure.random_hands import random_hand
from scoring import Hand, HandError, MeldKind, format_hand, format_melds, parse_hand, parse_melds
from scoring.notation import NotationError
from scoring.tiles import tile


def test_melds_of_every_kind():
    hand = parse_hand("[567m,2][999s,3][8888p,1][SSSS]5p5p")
    chow, pung, kong, hidden = hand.melds
    assert (chow.kind, chow.claimed, chow.source) == (MeldKind.CHOW, 1, 1)
    assert (pung.kind, pung.source) == (MeldKind.PUNG, 3)
    assert (kong.kind, kong.source, kong.added, kong.concealed) == (MeldKind.KONG, 1, False, False)
    assert (hidden.concealed, hidden.source) == (True, None)
    assert [t.code for t in hand.concealed] == ["5p"] and hand.win_tile == tile("5p")


def test_added_kong_numbers_five_to_seven():
    added = parse_hand("[1111s,6]123m456p789s5p5p").melds[0]
    assert (added.added, added.source) == (True, 2)


def test_comma_is_optional_and_defaults_are_one():
    assert parse_hand("[123m1][999s]EEE456p7p7p") == parse_hand("[123m,1][999s,1]EEE456p7p7p")


def test_honour_digits_and_letters_are_the_same_tiles():
    assert parse_hand("[555z,2]123m456p789s1z1z") == parse_hand("[CCC,2]123m456p789sEE")


def test_the_last_tile_is_the_winning_tile_and_flowers_are_set_aside():
    hand = parse_hand("16f123m456p789s111p9s9s")
    assert hand.win_tile == tile("9s")
    assert [t.code for t in hand.flowers] == ["1f", "6f"] and hand.flower_count == 2


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("123m456p789s111p9s9x", "ranks 9 at position 19 .* no suit letter"),
        ("123m456p789s111p9s?", "unexpected '\\?'"),
        ("[12m]123m456p789s9s9s", "has 2 tiles"),
        ("[124m,1]456p789s111p9s9s", "consecutive"),
        ("[123m,4]456p789s111p9s9s", "which tile was claimed"),
        ("[111m,5]456p789s123p9s9s", "claimed from, 1-3"),
        ("[1111m,4]456p789s123p9s9s", "5-7"),
        ("123m[456p]789s111p9s9s", "melds first"),
        ("[abc]123m456p789s9s9s", "malformed meld"),
        ("", "no standing tiles"),
        ("0m23m456p789s111p9s9s", "unknown tile '0m'"),
    ],
)
def test_bad_notation_names_the_problem(text, problem):
    with pytest.raises(ValueError, match=problem):
        parse_hand(text)


def test_notation_errors_are_hand_errors():
    with pytest.raises(NotationError):
        parse_hand("123m?")


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_anything_printed_parses_back_to_the_same_hand(seed):
    hand, _ = random_hand(random.Random(seed))
    assert parse_hand(format_hand(hand)) == hand
    assert Hand.from_json(hand.to_json()) == hand


def test_a_run_longer_than_any_hand_is_refused_by_name_and_never_kept():
    """The runs read are kept for the next hand (`notation._kept_run_tiles`), but a request's text may be megabytes
    of one run: such a run is read and refused as before, and not kept, so a long-running server's memory stays
    bounded; a run as long as a suit's every copy is kept."""
    from scoring import notation

    kept = notation._kept_run_tiles.cache_info
    before = kept().currsize
    long_runs = (("1" * 100_000 + "m", "99999 standing tiles"), ("[" + "1" * 5_000 + "m,1]1m", "has 5000 tiles"))
    for text, problem in long_runs:
        with pytest.raises(ValueError, match=problem):
            parse_hand(text)
    assert kept().currsize == before
    every_copy = "".join(str(rank) * 4 for rank in range(1, 10)) + "s"
    assert len(notation._run_tiles(every_copy)) == 36
    hits = kept().hits
    notation._run_tiles(every_copy)
    assert kept().hits == hits + 1


def test_melds_alone_are_read_as_hand_notation_reads_them() -> None:
    assert parse_melds("[567m,2] [EEEE][5555p,7]") == parse_hand("[567m,2][EEEE][5555p,7]1122m3m").melds


@pytest.mark.parametrize("text", ["", "123m", "[567m,2]1m", "[567m]1f", "[56m]", "[567m"])
def test_melds_alone_refuse_anything_else(text: str) -> None:
    with pytest.raises(HandError):
        parse_melds(text)


def test_melds_written_read_back_alike() -> None:
    melds = parse_melds("[567m,2][999s,3][SSSS][4444p,6]")
    assert format_melds(melds) == "[567m,2][999s,3][SSSS][4444p,6]" and parse_melds(format_melds(melds)) == melds


@pytest.mark.parametrize("text", ["none", " None ", "NONE"])
def test_none_is_a_hand_without_melds(text: str) -> None:
    """Brackets cannot write an empty list of melds: ``none`` does, and no melds are written so."""
    assert parse_melds(text) == ()
    assert format_melds(()) == "none" and parse_melds(format_melds(())) == ()
