from collections import Counter

from scoring.fans import FAN_BY_ID, FANS, apply_exclusions

TIERS = {88: 7, 64: 6, 48: 2, 32: 3, 24: 9, 16: 6, 12: 5, 8: 9, 6: 7, 5: 1, 4: 4, 2: 10, 1: 13}


def test_81_fans_in_rulebook_order_plus_the_combined_kong_entry():
    assert [f.id for f in FANS] == list(range(1, 83))
    assert FAN_BY_ID[82].zh == "明暗杠" and FAN_BY_ID[82].points == 5


def test_points_per_tier():
    assert Counter(f.points for f in FANS) == TIERS


def test_every_excluded_or_deducted_fan_exists_and_is_not_the_fan_itself():
    for fan in FANS:
        others = set(fan.excludes) | {other for other, _ in fan.deducts}
        assert others <= set(FAN_BY_ID) - {fan.id}, fan.en


def test_names_are_unique():
    assert len({f.en for f in FANS}) == len({f.zh for f in FANS}) == len(FANS)


def test_an_excluded_fan_does_not_exclude_in_turn():
    # Four Concealed Pungs drops Fully Concealed Hand, so Self-Drawn (which that one drops) stays.
    kept = apply_exclusions({12: ["x"], 56: ["x"], 80: ["x"]})
    assert set(kept) == {12, 80}


def test_deductions_remove_only_part_of_a_count():
    kept = apply_exclusions({4: ["nine gates"], 73: ["111m", "999m"]})
    assert kept == {4: ["nine gates"], 73: ["999m"]}


def test_each_fan_has_a_name_made_from_its_english_name() -> None:
    from scoring.fans import Fan

    assert [(fan.value, fan.name) for fan in Fan] == [(f.id, Fan(f.id).name) for f in FANS]
    assert Fan.PURE_STRAIGHT == 28 and FAN_BY_ID[Fan.PURE_STRAIGHT].en == "Pure Straight"
    assert Fan.THREE_SUITED_TERMINAL_CHOWS == 29 and Fan.SELF_DRAWN == 80 and Fan.CONCEALED_KONG_AND_MELDED_KONG == 82
    assert all(fan.name.replace("_", " ") == FAN_BY_ID[fan].en.upper().replace("-", " ") for fan in Fan)


def test_the_fan_patterns_name_every_fan_they_find() -> None:
    """No bare fan id in the fan patterns (`scoring.patterns`): each fan found is named (`Fan.X`), so a reader sees which."""
    import ast
    from pathlib import Path

    import scoring.patterns

    bare = []
    for path in sorted(Path(scoring.patterns.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "add":
                fan = node.args[1]
                values = [fan] if not isinstance(fan, ast.IfExp) else [fan.body, fan.orelse]
                bare += [f"{path.name}:{node.lineno}" for v in values if isinstance(v, ast.Constant)]
            elif isinstance(node, ast.Return) and isinstance(node.value, ast.Constant) \
                    and type(node.value.value) is int:  # a fan returned by a pattern function (not a bool)
                bare.append(f"{path.name}:{node.lineno}")
    assert bare == []
