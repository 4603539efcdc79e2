"""SVG pieces the drawn faces share: a glyph placed by its centre, and the pictures of Hong Kong sets' flowers
and seasons.

Hong Kong sets paint each flower and season as a picture of its own, with the number 1–4 in a coloured
corner box (red for the flowers, blue for the seasons) and its name small beside it: unlike the Chinese
sets' one flower motif drawn eight times, a reader must know each tile by its box, number and picture.
"""

from __future__ import annotations

import numpy as np

from datasets.faces.source import FACE_H, FACE_W

BONUS_CHARS = "梅蘭菊竹春夏秋冬"


def text(ch: str, x: float, y: float, size: float, colour: str, font: str, scale: float = 1.0) -> str:
    """A glyph centred on (x, y); CJK glyphs sit about 0.38 em above the baseline's centre line."""
    size *= scale
    return (f'<text x="{x:.1f}" y="{y + 0.38 * size:.1f}" font-family="{font}" font-size="{size:.1f}" '
            f'fill="{colour}" text-anchor="middle">{ch}</text>')


def _blossom(x: float, y: float, r: float, colour: str, petals: int = 5) -> str:
    ring = "".join(f'<circle cx="{x + r * 0.55 * np.cos(a):.1f}" cy="{y + r * 0.55 * np.sin(a):.1f}" '
                   f'r="{r * 0.45:.1f}" fill="{colour}"/>' for a in np.linspace(0, 2 * np.pi, petals, endpoint=False))
    return ring + f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r * 0.22:.1f}" fill="#e8b400"/>'


def _picture(n: int, green: str) -> str:
    """The picture of flower or season ``n`` (1–8), centred on the face's lower two thirds."""
    cx, cy = FACE_W / 2, FACE_H * 0.6
    if n == 1:  # plum: a branch with blossoms
        return (f'<path d="M22,140 C40,110 60,100 96,70 M58,104 C66,90 70,84 70,70" stroke="#6b3a1a" '
                f'stroke-width="5" fill="none"/>' + _blossom(94, 70, 15, "#e0508a") + _blossom(70, 66, 12, "#e0508a")
                + _blossom(44, 118, 13, "#e0508a"))
    if n == 2:  # orchid: long curved leaves and a small flower
        leaves = "".join(f'<path d="M60,150 Q{60 + dx},{110 - abs(dx) / 3} {60 + 1.6 * dx},64" stroke="{green}" '
                         f'stroke-width="5" fill="none"/>' for dx in (-28, -8, 14, 30))
        return leaves + _blossom(78, 72, 14, "#8a3fb0", 6)
    if n == 3:  # chrysanthemum: many thin petals
        petals = "".join(f'<ellipse cx="{cx + 22 * np.cos(a):.1f}" cy="{cy + 22 * np.sin(a):.1f}" rx="15" ry="4" '
                         f'fill="#e09000" transform="rotate({np.degrees(a):.0f} {cx + 22 * np.cos(a):.1f} '
                         f'{cy + 22 * np.sin(a):.1f})"/>' for a in np.linspace(0, 2 * np.pi, 18, endpoint=False))
        return petals + f'<circle cx="{cx}" cy="{cy}" r="10" fill="#b05a00"/>'
    if n == 4:  # bamboo: two jointed stalks with leaves
        stalks = "".join(f'<rect x="{x}" y="50" width="10" height="100" rx="3" fill="{green}"/>'
                         + "".join(f'<rect x="{x - 2}" y="{y}" width="14" height="4" fill="#0b4020"/>' for y in (78, 110))
                         for x in (44, 68))
        leaves = "".join(f'<ellipse cx="{x}" cy="{y}" rx="18" ry="5" fill="{green}" transform="rotate({t} {x} {y})"/>'
                         for x, y, t in ((30, 70, -30), (92, 64, 30), (96, 100, -20), (26, 104, 25)))
        return stalks + leaves
    if n == 5:  # spring: a large cherry blossom and a bud
        return _blossom(cx, cy - 4, 34, "#f07aa8") + _blossom(90, 134, 9, "#f07aa8")
    if n == 6:  # summer: the sun
        rays = "".join(f'<line x1="{cx + 26 * np.cos(a):.1f}" y1="{cy + 26 * np.sin(a):.1f}" '
                       f'x2="{cx + 42 * np.cos(a):.1f}" y2="{cy + 42 * np.sin(a):.1f}" stroke="#e06000" '
                       f'stroke-width="5"/>' for a in np.linspace(0, 2 * np.pi, 12, endpoint=False))
        return rays + f'<circle cx="{cx}" cy="{cy}" r="22" fill="#f0a000"/>'
    if n == 7:  # autumn: a maple leaf
        points = " ".join(f"{cx + r * np.sin(a):.1f},{cy - r * np.cos(a):.1f}"
                          for k, a in enumerate(np.linspace(0, 2 * np.pi, 14, endpoint=False))
                          for r in ((40 if k % 2 == 0 else 18),))
        return f'<polygon points="{points}" fill="#c8401a"/><line x1="{cx}" y1="{cy}" x2="{cx}" y2="{cy + 50}" ' \
               f'stroke="#7a2a10" stroke-width="4"/>'
    # winter: a snowflake
    arms = "".join(f'<g transform="rotate({deg} {cx} {cy})"><line x1="{cx}" y1="{cy}" x2="{cx}" y2="{cy - 42}" '
                   f'stroke="#2a6ab0" stroke-width="5"/><path d="M{cx - 10},{cy - 34} L{cx},{cy - 24} L{cx + 10},'
                   f'{cy - 34}" stroke="#2a6ab0" stroke-width="4" fill="none"/></g>' for deg in range(0, 360, 60))
    return arms


def hk_bonus(n: int, font: str, digits: str, ink: str, red: str, blue: str, green: str, scale: float = 1.0) -> str:
    """Flower or season ``n`` (1–8) as Hong Kong sets paint them: a picture, the number in a corner box
    (red for flowers, blue for seasons) and the name beside it."""
    box = red if n <= 4 else blue
    number = str((n - 1) % 4 + 1)
    return (_picture(n, green) + f'<rect x="8" y="8" width="30" height="30" rx="5" fill="{box}"/>'
            + text(number, 23, 23, 24, "#ffffff", digits) + text(BONUS_CHARS[n - 1], 88, 24, 30, ink, font, scale))
