from collections import Counter

import numpy as np

from datasets.hands import Hand, random_hand
from scoring.tiles import COPIES_PER_FACE, tile


def check_legal(hand: Hand) -> None:
    counts = Counter(hand.all_tiles())
    assert max(counts.values()) <= COPIES_PER_FACE
    kongs = sum(m.kind == "kong" for m in hand.melds)
    assert len(hand.all_tiles()) == 14 + kongs
    assert all(tile(c).is_bonus for c in hand.flowers) and len(set(hand.flowers)) == len(hand.flowers)
    for m in hand.melds:
        ranks = [tile(c).rank for c in m.tiles]
        if m.kind == "chow":
            assert len({tile(c).kind for c in m.tiles}) == 1 and tile(m.tiles[0]).is_suited
            assert ranks == [ranks[0], ranks[0] + 1, ranks[0] + 2]
            assert m.source == 1 and m.claimed in (0, 1, 2)
        else:
            assert len(set(m.tiles)) == 1 and len(m.tiles) == (3 if m.kind == "pung" else 4)
            assert (m.source is None) == m.concealed
            assert m.source in (None, 1, 2, 3) and not (m.added and m.concealed)
    assert tile(hand.win_tile).is_playable and hand.concealed == tuple(sorted(hand.concealed, key=lambda c: tile(c).index))


def test_random_hands_are_legal_and_varied() -> None:
    hands = [random_hand(np.random.default_rng([7, i])) for i in range(400)]
    for hand in hands:
        check_legal(hand)
    kinds = Counter(m.kind for h in hands for m in h.melds)
    assert kinds["chow"] and kinds["pung"] and kinds["kong"]
    assert any(m.concealed for h in hands for m in h.melds)
    assert any(m.added for h in hands for m in h.melds)
    assert any(h.flowers for h in hands) and any(not h.flowers for h in hands)
    assert any(len(set(h.all_tiles())) == 13 for h in hands if not h.melds)  # thirteen orphans appear


def test_hand_json_matches_contract() -> None:
    data = random_hand(np.random.default_rng(3)).to_json()
    assert set(data) == {"concealed", "melds", "win_tile", "flowers"}
    for meld in data["melds"]:
        assert set(meld) == {"kind", "tiles", "concealed", "from", "claimed", "added"}
