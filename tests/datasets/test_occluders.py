import numpy as np

from datasets.occluders import MAX_HIDDEN, occlude


def test_occluders_never_hide_much_of_a_tile() -> None:
    h, w = 200, 300
    quads = [np.float32([(x, 80), (x + 30, 80), (x + 30, 120), (x, 120)]) for x in range(10, 280, 34)]
    drawn = 0
    for i in range(60):
        photo = np.full((h, w, 3), 100, np.float32)
        cover = np.zeros((h, w), np.float32)
        for q in quads:
            cover[80:120, int(q[0, 0]):int(q[1, 0])] = 1.0
        out, after = occlude(np.random.default_rng(i), photo, cover.copy(), quads)
        drawn += not np.array_equal(out, photo)
        for q in quads:
            seen = after[80:120, int(q[0, 0]):int(q[1, 0])].mean()
            assert seen >= 1 - MAX_HIDDEN - 0.05
    assert drawn > 5  # occluders do get drawn
