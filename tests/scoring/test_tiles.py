from collections import Counter

import pytest

from scoring.tiles import (
    BACK,
    BONUS,
    CLASS_NAMES,
    PLAYABLE,
    TILES,
    Kind,
    TileError,
    full_set,
    tile,
)


def test_forty_three_classes_in_model_order():
    assert len(TILES) == 43
    assert [t.index for t in TILES] == list(range(43))
    assert CLASS_NAMES[:9] == tuple(f"{r}m" for r in range(1, 10))
    assert CLASS_NAMES[9:18] == tuple(f"{r}p" for r in range(1, 10))
    assert CLASS_NAMES[18:27] == tuple(f"{r}s" for r in range(1, 10))
    assert CLASS_NAMES[27:34] == tuple("ESWNCFP")
    assert CLASS_NAMES[34:42] == tuple(f"{r}f" for r in range(1, 9))
    assert CLASS_NAMES[42] == "back" and BACK.kind is Kind.BACK


@pytest.mark.parametrize("code", CLASS_NAMES)
def test_every_code_round_trips(code):
    t = tile(code)
    assert t.code == code == str(t)
    assert TILES[t.index] is t
    assert t.en and t.zh


@pytest.mark.parametrize(("alias", "code"), [("1z", "E"), ("4z", "N"), ("5z", "C"), ("6z", "F"), ("7z", "P")])
def test_honor_digit_aliases(alias, code):
    assert tile(alias) is tile(code)


@pytest.mark.parametrize("bad", ["", "0m", "10m", "8z", "9f", "x", "BACK", "5 p"])
def test_unknown_codes_are_named_in_the_error(bad):
    with pytest.raises(TileError, match=repr(bad)):
        tile(bad)


def test_full_set_has_144_tiles():
    tiles = full_set()
    assert len(tiles) == 144
    counts = Counter(tiles)
    assert all(counts[t] == 4 for t in PLAYABLE)
    assert all(counts[t] == 1 for t in BONUS)
    assert BACK not in counts


def test_kinds_and_ranks():
    assert tile("1m").is_terminal and tile("9s").is_terminal and not tile("5p").is_terminal
    assert tile("E").is_honor and tile("P").is_honor and not tile("E").is_suited
    assert tile("C").is_terminal_or_honor and not tile("2s").is_terminal_or_honor
    assert [t.code for t in BONUS] == [f"{r}f" for r in range(1, 9)]
    assert tile("5f").kind is Kind.SEASON and tile("5f").rank == 1 and tile("4f").kind is Kind.FLOWER
    assert tile("F").zh == "发" and tile("1p").zh == "一筒"
    assert sum(t.is_playable for t in TILES) == 34
