"""The MCR fan table: one declarative row per fan, in rulebook order, with what each fan excludes.

``excludes`` is the "not counted" clause of the rulebook (seed 004, mcr-fans.md) and the only
whole-fan exclusion mechanism: when a fan is scored, the fans it excludes are dropped, highest fan
first. ``deducts`` covers the clauses that drop only part of another fan's count (Nine Gates does
not count one of its Pungs of Terminals). Which single sets earn a fan at all (a Seat Wind pung is not
also a Pung of Terminals or Honors) is decided by the fan patterns in ``scoring.patterns``.
Id 82 is the Chinese rulebook's combined entry for one concealed plus one melded kong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class FanSpec:
    id: int
    points: int
    en: str
    zh: str
    excludes: frozenset[int] = frozenset()
    deducts: tuple[tuple[int, int], ...] = ()  # (fan id, how many of it) not counted per occurrence


def _row(
    fan_id: int, points: int, en: str, zh: str, *excludes: int, deducts: tuple[tuple[int, int], ...] = ()
) -> FanSpec:
    return FanSpec(fan_id, points, en, zh, frozenset(excludes), deducts)


FANS: tuple[FanSpec, ...] = (
    _row(1, 88, "Big Four Winds", "大四喜", 9, 38, 48, 60, 61, 73),
    _row(2, 88, "Big Three Dragons", "大三元", 10, 54, 59),
    _row(3, 88, "All Green", "绿一色", 49),
    _row(4, 88, "Nine Gates", "九莲宝灯", 22, 56, 62, 76, deducts=((73, 1),)),
    _row(5, 88, "Four Kongs", "四杠", 17, 48, 53, 57, 67, 74, 79, 82),
    _row(6, 88, "Seven Shifted Pairs", "连七对", 19, 22, 56, 62, 76, 79),
    _row(7, 88, "Thirteen Orphans", "十三幺", 18, 51, 56, 62, 79),
    _row(8, 64, "All Terminals", "清幺九", 18, 48, 55, 65, 73, 76),
    _row(9, 64, "Little Four Winds", "小四喜", 38),
    _row(10, 64, "Little Three Dragons", "小三元", 54, 59),
    _row(11, 64, "All Honors", "字一色", 18, 48, 55, 73),
    _row(12, 64, "Four Concealed Pungs", "四暗刻", 33, 48, 56, 62, 66),
    _row(13, 64, "Pure Terminal Chows", "一色双龙会", 19, 22, 63, 69, 72, 76),
    _row(14, 48, "Quadruple Chow", "一色四同顺", 23, 24, 64, 69),
    _row(15, 48, "Four Pure Shifted Pungs", "一色四节高", 23, 24, 48),
    _row(16, 32, "Four Pure Shifted Chows", "一色四步高", 30, 71, 72),
    _row(17, 32, "Three Kongs", "三杠", 53, 57, 67, 74, 82),
    _row(18, 32, "All Terminals and Honors", "混幺九", 48, 55, 73),
    _row(19, 24, "Seven Pairs", "七对", 56, 62, 79),
    _row(20, 24, "Greater Honors and Knitted Tiles", "七星不靠", 34, 51, 56, 62, 79),
    _row(21, 24, "All Even Pungs", "全双刻", 48, 68, 76),
    _row(22, 24, "Full Flush", "清一色", 76),
    _row(23, 24, "Pure Triple Chow", "一色三同顺", 24, 69),
    _row(24, 24, "Pure Shifted Pungs", "一色三节高", 23),
    _row(25, 24, "Upper Tiles", "全大", 36, 76),
    _row(26, 24, "Middle Tiles", "全中", 68, 76),
    _row(27, 24, "Lower Tiles", "全小", 37, 76),
    _row(28, 16, "Pure Straight", "清龙", 71, 72),
    _row(29, 16, "Three-Suited Terminal Chows", "三色双龙会", 63, 70, 72, 76),
    _row(30, 16, "Pure Shifted Chows", "一色三步高"),
    _row(31, 16, "All Fives", "全带五", 68, 76),
    _row(32, 16, "Triple Pung", "三同刻", 65),
    _row(33, 16, "Three Concealed Pungs", "三暗刻", 66),
    _row(34, 12, "Lesser Honors and Knitted Tiles", "全不靠", 51, 56, 62, 79),
    _row(35, 12, "Knitted Straight", "组合龙"),
    _row(36, 12, "Upper Four", "大于五", 76),
    _row(37, 12, "Lower Four", "小于五", 76),
    _row(38, 12, "Big Three Winds", "三风刻"),
    _row(39, 8, "Mixed Straight", "花龙"),
    _row(40, 8, "Reversible Tiles", "推不倒", 75),
    _row(41, 8, "Mixed Triple Chow", "三色三同顺", 70),
    _row(42, 8, "Mixed Shifted Pungs", "三色三节高"),
    _row(43, 8, "Chicken Hand", "无番和"),
    _row(44, 8, "Last Tile Draw", "妙手回春", 80),
    _row(45, 8, "Last Tile Claim", "海底捞月"),
    _row(46, 8, "Out with Replacement Tile", "杠上开花", 80),
    _row(47, 8, "Robbing the Kong", "抢杠和", 58),
    _row(48, 6, "All Pungs", "碰碰和"),
    _row(49, 6, "Half Flush", "混一色"),
    _row(50, 6, "Mixed Shifted Chows", "三色三步高"),
    _row(51, 6, "All Types", "五门齐"),
    _row(52, 6, "Melded Hand", "全求人", 79),
    _row(53, 6, "Two Concealed Kongs", "双暗杠", 66, 67),
    _row(54, 6, "Two Dragon Pungs", "双箭刻", 59),
    _row(55, 4, "Outside Hand", "全带幺"),
    _row(56, 4, "Fully Concealed Hand", "不求人", 62, 80),
    _row(57, 4, "Two Melded Kongs", "双明杠", 74),
    _row(58, 4, "Last Tile", "和绝张"),
    _row(59, 2, "Dragon Pung", "箭刻"),
    _row(60, 2, "Prevalent Wind", "圈风刻"),
    _row(61, 2, "Seat Wind", "门风刻"),
    _row(62, 2, "Concealed Hand", "门前清"),
    _row(63, 2, "All Chows", "平和", 76),
    _row(64, 2, "Tile Hog", "四归一"),
    _row(65, 2, "Double Pung", "双同刻"),
    _row(66, 2, "Two Concealed Pungs", "双暗刻"),
    _row(67, 2, "Concealed Kong", "暗杠"),
    _row(68, 2, "All Simples", "断幺", 76),
    _row(69, 1, "Pure Double Chow", "一般高"),
    _row(70, 1, "Mixed Double Chow", "喜相逢"),
    _row(71, 1, "Short Straight", "连六"),
    _row(72, 1, "Two Terminal Chows", "老少副"),
    _row(73, 1, "Pung of Terminals or Honors", "幺九刻"),
    _row(74, 1, "Melded Kong", "明杠"),
    _row(75, 1, "One Voided Suit", "缺一门"),
    _row(76, 1, "No Honors", "无字"),
    _row(77, 1, "Edge Wait", "边张"),
    _row(78, 1, "Closed Wait", "坎张"),
    _row(79, 1, "Single Wait", "单钓将"),
    _row(80, 1, "Self-Drawn", "自摸"),
    _row(81, 1, "Flower Tiles", "花牌"),
    _row(82, 5, "Concealed Kong and Melded Kong", "明暗杠", 67, 74),
)

FAN_BY_ID: dict[int, FanSpec] = {f.id: f for f in FANS}
POINTS: dict[int, int] = {f.id: f.points for f in FANS}
_RULES: dict[int, FanSpec] = {f.id: f for f in FANS if f.excludes or f.deducts}  # the fans that drop others
MIN_POINTS = 8


def _identifier(en: str) -> str:
    """A fan's English name as a Python name: ``Three-Suited Terminal Chows`` -> ``THREE_SUITED_TERMINAL_CHOWS``."""
    return re.sub(r"[^A-Z0-9]+", "_", en.upper()).strip("_")


Fan = IntEnum("Fan", {_identifier(f.en): f.id for f in FANS}, module=__name__)
Fan.__doc__ = """Every fan by its English name, made from `FANS`, each equal to its id: ``Fan.PURE_STRAIGHT == 28``.
The fan patterns (`scoring.patterns`) name the fans they find by it."""


def apply_exclusions(raw: dict[int, list[T]]) -> dict[int, list[T]]:
    """Drop every fan excluded by a fan still standing, taking fans highest first (rulebook order).

    Each fan maps to its occurrences (one entry per time it is scored, e.g. the sets that make it).
    """
    kept = dict(raw)
    for fan_id in sorted(raw):
        spec = _RULES.get(fan_id)
        if spec is not None and fan_id in kept:
            for gone in spec.excludes:
                kept.pop(gone, None)
            for other, n in spec.deducts:
                if other in kept:
                    kept[other] = kept[other][n * len(kept[fan_id]) :]
                    if not kept[other]:
                        del kept[other]
    return kept
