"""Layout grouping on generated hand scenes with ground truth (`models.measure.layout_scenes`, which prints the
figure over thousands): the suite reads a few hundred."""

from __future__ import annotations

from models.measure.layout_scenes import measure


def test_grouping_on_generated_scenes() -> None:
    tally = measure(seed=7, n=500)
    share = tally["exact_observable"] / tally["observable"]
    assert share >= 0.95, f"exact hand and grouping on {share:.1%} of {tally['observable']} observable scenes"
