"""Every fan: one hand that scores it and a near miss that must not (hand notation + situation flags).

Flags: ``sd`` self-drawn, ``seat=X`` / ``round=X`` winds (default East), or a Situation field name.
"""

import pytest

from scoring import parse_hand, score
from scoring.fans import FANS
from tests.scoring.conftest import situation


def fan_ids(notation: str, flags: str = "") -> dict[int, int]:
    return {f.id: f.count for f in score(parse_hand(notation), situation(flags)).fans}


# (fan id, hand that scores it, its flags, near miss, its flags)
CASES = [
    (1, "[EEE1][SSS1]WWWNNN1m1m", "", "[EEE1][SSS1]WWWNN11m1m", ""),
    (2, "[CCC1][FFF1]PPP23m99s1m", "", "[CCC1][FFF1]PP234m99s9s", ""),
    (3, "[234s1]666s888sFFF2s2s", "", "[234s1]666s888sPPP2s2s", ""),
    (4, "1112345678999m5m", "", "[111m1]2345678999m5m", ""),
    (5, "[1111m1][2222p1][3333s1][EEEE]5m5m", "", "[1111m1][2222p1][3333s1]EEE5m5m", ""),
    (6, "2233445566778p8p", "", "2233445566779p9p", ""),
    (7, "19m19p19sESWNCFPP", "", "1199m1199p11sEEWW", ""),
    (8, "[111m1]999m111999p1s1s", "", "[111m1]999m111999pEE", ""),
    (9, "[EEE1][SSS1]WWWNN11m1m", "", "[EEE1][SSS1]WWW11m22m2m", ""),
    (10, "[CCC1][FFF1]PP234m99s9s", "", "[CCC1][FFF1]EE234m99s9s", ""),
    (11, "[EEE1][SSS1]CCCFFFPP", "", "[EEE1][SSS1]CCCFFF1m1m", ""),
    (12, "111m222p333sEEE5s5s", "", "111m222p333s55sEEE", ""),
    (13, "123123m789789m5m5m", "", "123123m789789m5p5p", ""),
    (14, "[123m1][123m1]123123m9s9s", "", "[123m1][123m1]123234m9s9s", ""),
    (15, "[111m1][222m1]333444m5s5s", "", "[111m1][222m1]333555m5s5s", ""),
    (16, "[123m1][234m1]345456m9s9s", "", "[123m1][234m1]345567m9s9s", ""),
    (17, "[1111m1][2222p1][3333s1]456m5p5p", "", "[1111m1][2222p1][333s1]456m5p5p", ""),
    (18, "[111m1]999m999pEEEN N", "", "[111m1]999m999pEEE5s5s", ""),
    (19, "1155m2288p3399sEE", "", "2233445566778p8p", ""),
    (20, "147m25p3sESWNCFP6s", "", "147m258p3sESWNCF6s", ""),
    (21, "[222m1]444p666s888m2s2s", "", "[222m1]444p666s999m2s2s", ""),
    (22, "[123m1]456789m1119m9m", "", "[123m1]456789m1119p9p", ""),
    (23, "[123m1]123123m456p9s9s", "", "[123m1]123234m456p9s9s", ""),
    (24, "[111m1]222333m456p9s9s", "", "[111m1]222444m456p9s9s", ""),
    (25, "[789m1]777p888s789s9m9m", "", "[789m1]777p888s789s6m6m", ""),
    (26, "[456m1]444p555s456s6m6m", "", "[456m1]444p555s456s3m3m", ""),
    (27, "[123m1]111p222s123s3m3m", "", "[123m1]111p222s123s4m4m", ""),
    (28, "[123m1]456789m111p9s9s", "", "[123m1]456678m111p9s9s", ""),
    (29, "[123m1][789m1]123789p5s5s", "", "[123m1][789m1]123789p6s6s", ""),
    (30, "[123m1]234345m111p9s9s", "", "[123m1]234456m111p9s9s", ""),
    (31, "[345m1]555p456s567m5s5s", "", "[345m1]555p456s678m5s5s", ""),
    (32, "[222m1]222p222s456m9s9s", "", "[222m1]222p333s456m9s9s", ""),
    (33, "[456m1]222p333s777m9s9s", "", "[456m1]222p333s77m99s7m", ""),
    (34, "147m258p3sESWNCF6s", "", "147m25p3sESWNCFP6s", ""),
    (35, "147m258p369s123sEE", "", "123m456p789s123sEE", ""),
    (36, "[678m1]666p789s999m6s6s", "", "[678m1]666p789s999m5s5s", ""),
    (37, "[234m1]111p234s444m1s1s", "", "[234m1]111p234s444m5s5s", ""),
    (38, "[EEE1][SSS1]WWW123m9s9s", "", "[EEE1][SSS1]123m456p9s9s", ""),
    (39, "[123m1]456p789s111m9p9p", "", "[123m1]456p678s111m9p9p", ""),
    (40, "[123p1]456s888s999p5p5p", "", "[123p1]456s888s999p7p7p", ""),
    (41, "[123m1]123p123s999m5p5p", "", "[123m1]123p234s999m5p5p", ""),
    (42, "[111m1]222p333s456m9s9s", "", "[111m1]222p444s456m9s9s", ""),
    (43, "[234m1][678s1][222p1]56pNN7p", "", "[234m1][678s1][222p1]56pNN7p", "sd"),
    (44, "[234m1][678s1][222p1]56pNN7p", "sd last_wall_tile", "[234m1][678s1][222p1]56pNN7p", "sd"),
    (45, "[234m1][678s1][222p1]56pNN7p", "last_wall_tile", "[234m1][678s1][222p1]56pNN7p", ""),
    (46, "[2222m1][678s1][222p1]56pNN7p", "sd kong_replacement", "[2222m1][678s1][222p1]56pNN7p", "sd"),
    (47, "[234m1][678s1][222p1]56pNN7p", "robbing_kong", "[234m1][678s1][222p1]56pNN7p", ""),
    (48, "[222m1]444p666s999m2s2s", "", "[222m1]444p666s789m2s2s", ""),
    (49, "[123m1]456m789mEEE9m9m", "", "[123m1]456m789pEEE9m9m", ""),
    (50, "[123m1]234p345s999m5p5p", "", "[123m1]234p456s999m5p5p", ""),
    (51, "[123m1]456p789sEEECC", "", "[123m1]456p789sEEESS", ""),
    (52, "[123m1][456p1][789s1][EEE1]5m5m", "", "[123m1][456p1][789s1][EEE1]5m5m", "sd"),
    (53, "[1111m][2222p]345s678m9s9s", "", "[1111m][2222p1]345s678m9s9s", ""),
    (54, "[CCC1][FFF1]123m456p9s9s", "", "[CCC1][EEE1]123m456p9s9s", ""),
    (55, "[123m1]789p111s789m9m9m", "", "[123m1]789p111s678m9m9m", ""),
    (56, "123m456p789s111p9s9s", "sd", "[123m1]456p789s111p9s9s", "sd"),
    (57, "[1111m1][2222p1]345s678m9s9s", "", "[1111m1][222p1]345s678m9s9s", ""),
    (58, "[234m1][678s1][222p1]56pNN7p", "last_of_kind", "[234m1][678s1][222p1]56pNN7p", ""),
    (59, "[CCC1]123m456p789s9s9s", "", "[EEE1]123m456p789s9s9s", "seat=S round=S"),
    (60, "[EEE1]123m456p789s9s9s", "round=E seat=S", "[EEE1]123m456p789s9s9s", "round=S seat=W"),
    (61, "[EEE1]123m456p789s9s9s", "seat=E round=S", "[EEE1]123m456p789s9s9s", "seat=W round=S"),
    (62, "123m456p789s111p9s9s", "", "[123m1]456p789s111p9s9s", ""),
    (63, "[123m1]456p789s234p9s9s", "", "[123m1]456p789s234pEE", ""),
    (64, "[123m1]111123p999m5s5s", "", "[123m1]111234p999m5s5s", ""),
    (65, "[222m1]222p456s789m9s9s", "", "[222m1]333p456s789m9s9s", ""),
    (66, "[123m1]222p333s789m9s9s", "", "[123m1]222p33s789m99s3s", ""),
    (67, "[1111m]234p567s789m9s9s", "", "[1111m1]234p567s789m9s9s", ""),
    (68, "[234m1]345p678s456m5s5s", "", "[234m1]345p678s456m9s9s", ""),
    (69, "[123m1]123m456p999s5s5s", "", "[123m1]234m456p999s5s5s", ""),
    (70, "[123m1]123p567s999m5s5s", "", "[123m1]234p567s999m5s5s", ""),
    (71, "[123m1]456m111p999s5s5s", "", "[123m1]567m111p999s5s5s", ""),
    (72, "[123m1]789m111p999s5s5s", "", "[123m1]678m111p999s5s5s", ""),
    (73, "[111m1]234p567s678m5s5s", "", "[222m1]234p567s678m5s5s", ""),
    (74, "[1111m1]234p567s789m9s9s", "", "[111m1]234p567s789m9s9s", ""),
    (75, "[123m1]456m789p111p5p5p", "", "[123m1]456m789p111s5p5p", ""),
    (76, "[123m1]456m789p111s5p5p", "", "[123m1]456m789p111sEE", ""),
    (77, "[123m1]456p999s55m12s3s", "", "[123m1]456p999s55m23s4s", ""),
    (78, "[123m1]456p999s55m13s2s", "", "[123m1]456p999s55m23s4s", ""),
    (79, "[123m1]456p999s234s5m5m", "", "[123m1]456p999s55m23s4s", ""),
    (80, "[123m1]456p999s55m23s4s", "sd", "[123m1]456p999s55m23s4s", ""),
    (82, "[1111m][2222p1]345s678m9s9s", "", "[1111m][2222p]345s678m9s9s", ""),
]


def test_every_fan_but_flowers_has_a_case():
    assert {row[0] for row in CASES} == {f.id for f in FANS} - {81}


@pytest.mark.parametrize(("fan", "hit", "hit_flags", "miss", "miss_flags"), CASES, ids=[str(row[0]) for row in CASES])
def test_fan_scores_and_near_miss_does_not(fan, hit, hit_flags, miss, miss_flags):
    assert fan in fan_ids(hit, hit_flags)
    assert fan not in fan_ids(miss, miss_flags)


def test_flower_tiles_count_one_each_but_not_toward_eight():
    result = score(parse_hand("2367f[234m,1][678s,1][222p,1]56pNN7p"))
    flowers = next(f for f in result.fans if f.id == 81)
    assert (flowers.count, flowers.evidence) == (4, ("2f", "3f", "6f", "7f"))
    assert (result.fan_points, result.total) == (8, 12)
    assert 81 not in fan_ids("[234m,1][678s,1][222p,1]56pNN7p")
