"""Faces drawn by our own code: CJK characters in Debian fonts, dots and bamboo as shapes.

Each font gives one style. The art is written as SVG and rasterised once by ``rsvg-convert``, which finds
the font through fontconfig. Colours follow common Chinese sets: red 萬 and 中, green 發, a blue frame for
the white dragon, blue/green/red dots, green bamboo with red accents.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from datasets.faces.motifs import BONUS_CHARS, hk_bonus, text
from datasets.faces.source import ALTERNATE, FACE_CODES, FACE_H, FACE_W, FaceSource, Faces, code_of, rsvg

ART_VERSION = 6  # raised whenever these drawings change: faces cached before are rendered anew
NUMERALS = "一二三四伍六七八九"  # 5 in its formal form 伍, as on most sets; `Palette.five` may say 五
WINDS = {"E": "東", "S": "南", "W": "西", "N": "北"}
RED_FIVE = "red"  # the alternate name of a riichi set's red five (``5m-red``): the same tile, drawn in red
INDEX = {"E": "E", "S": "S", "W": "W", "N": "N"} | {f"{r}{s}": str(r) for r in range(1, 10) for s in "mps"}
# ^ a corner index as Western sets print it: the rank on the suits, the letter on the winds (dragons and
# bonus tiles carry none beyond their own number)
# Dot centres as fractions of the face, and which palette colour each uses (0 blue, 1 green, 2 red).
DOTS: dict[int, tuple[tuple[float, float, int], ...]] = {
    2: ((0.5, 0.3, 1), (0.5, 0.7, 0)),
    3: ((0.25, 0.2, 0), (0.5, 0.5, 2), (0.75, 0.8, 1)),
    4: ((0.3, 0.3, 0), (0.7, 0.3, 1), (0.3, 0.7, 1), (0.7, 0.7, 0)),
    5: ((0.27, 0.25, 0), (0.73, 0.25, 1), (0.5, 0.5, 2), (0.27, 0.75, 1), (0.73, 0.75, 0)),
    6: ((0.3, 0.2, 1), (0.7, 0.2, 1), (0.3, 0.52, 2), (0.7, 0.52, 2), (0.3, 0.8, 2), (0.7, 0.8, 2)),
    7: ((0.22, 0.13, 1), (0.5, 0.22, 1), (0.78, 0.31, 1), (0.3, 0.58, 2), (0.7, 0.58, 2),
        (0.3, 0.83, 2), (0.7, 0.83, 2)),
    8: tuple((x, y, 0) for y in (0.14, 0.38, 0.62, 0.86) for x in (0.3, 0.7)),
    9: tuple((x, y, c) for y, c in ((0.2, 0), (0.5, 2), (0.8, 1)) for x in (0.2, 0.5, 0.8)),
}
# Bamboo sticks: (x, y, tilt in degrees, colour) with 0 green, 1 red, 2 blue.
BAMBOO: dict[int, tuple[tuple[float, float, float, int], ...]] = {
    2: ((0.5, 0.27, 0, 0), (0.5, 0.73, 0, 2)),
    3: ((0.5, 0.27, 0, 0), (0.3, 0.73, 0, 2), (0.7, 0.73, 0, 2)),
    4: ((0.3, 0.27, 0, 2), (0.7, 0.27, 0, 0), (0.3, 0.73, 0, 0), (0.7, 0.73, 0, 2)),
    5: ((0.22, 0.27, 0, 0), (0.78, 0.27, 0, 2), (0.5, 0.5, 0, 1), (0.22, 0.73, 0, 2), (0.78, 0.73, 0, 0)),
    6: tuple((x, y, 0, c) for y, c in ((0.27, 0), (0.73, 2)) for x in (0.22, 0.5, 0.78)),
    7: ((0.5, 0.15, 0, 1), *((x, y, 0, c) for y, c in ((0.5, 0), (0.83, 2)) for x in (0.22, 0.5, 0.78))),
    8: ((0.2, 0.27, 0, 0), (0.4, 0.27, 25, 0), (0.6, 0.27, -25, 0), (0.8, 0.27, 0, 0),
        (0.2, 0.73, 0, 2), (0.4, 0.73, -25, 2), (0.6, 0.73, 25, 2), (0.8, 0.73, 0, 2)),
    9: tuple((x, y, 0, c) for y in (0.17, 0.5, 0.83) for x, c in ((0.22, 0), (0.5, 1), (0.78, 2))),
}


@dataclass(frozen=True)
class Palette:
    """Colours (SVG hex) of one drawn style."""

    ground: str = "#f2ede0"
    ink: str = "#1b1b1b"  # winds, numerals
    red: str = "#c01818"
    green: str = "#13743a"
    blue: str = "#1d3d8f"
    variant: int = 0  # 0–3: how dots, bamboo, bonus tiles and the white dragon are drawn (3: dots and sticks as 0)
    digits: str = "DejaVu Sans"  # the font of a flower's or season's number
    season_numerals: bool = False  # seasons numbered 一二三四 (flowers keep 1–4), as on many Chinese sets
    five: str = "伍"  # the 5 of characters: 伍 or the plain 五
    numeral_colour: str = ""  # every numeral of the characters in this colour (Hong Kong sets: blue)
    bonus: str = "chinese"  # flowers and seasons: "chinese" (`_bonus`), "hk" (`motifs.hk_bonus`) or "none"
    blank_white: bool = False  # the white dragon a blank face, as on most riichi sets
    red_fives: bool = False  # the set has a red five of each suit (``5m-red``, ...), as riichi sets do
    index: str = ""  # the font of a corner index (`INDEX`) over a smaller drawing; "" for none


def _dot(x: float, y: float, r: float, colour: str, ground: str, variant: int) -> str:
    """One dot: concentric rings (0), a rosette of petals in a ring (1) or a solid coin (2)."""
    c = f'cx="{x:.1f}" cy="{y:.1f}"'
    if variant == 1:
        petals = "".join(f'<circle cx="{x + r * 0.55 * np.cos(a):.1f}" cy="{y + r * 0.55 * np.sin(a):.1f}" '
                         f'r="{r * 0.2:.1f}" fill="{colour}"/>' for a in np.linspace(0, 2 * np.pi, 8, endpoint=False))
        return (f'<circle {c} r="{r * 0.9:.1f}" fill="none" stroke="{colour}" stroke-width="{r * 0.16:.1f}"/>'
                f'{petals}<circle {c} r="{r * 0.22:.1f}" fill="{colour}"/>')
    if variant == 2:
        return (f'<circle {c} r="{r:.1f}" fill="{colour}"/>'
                f'<circle {c} r="{r * 0.62:.1f}" fill="none" stroke="{ground}" stroke-width="{r * 0.12:.1f}" '
                f'stroke-dasharray="{r * 0.25:.1f} {r * 0.15:.1f}"/><circle {c} r="{r * 0.2:.1f}" fill="{ground}"/>')
    return (f'<circle {c} r="{r:.1f}" fill="{colour}"/><circle {c} r="{r * 0.72:.1f}" fill="{ground}"/>'
            f'<circle {c} r="{r * 0.5:.1f}" fill="{colour}"/><circle {c} r="{r * 0.18:.1f}" fill="{ground}"/>')


def _stick(x: float, y: float, tilt: float, h: float, colour: str, variant: int) -> str:
    """One bamboo stick: rounded (0), jointed with three nodes (1) or an outline with a waist (2)."""
    w = h * 0.3
    g = f'<g transform="translate({x:.1f},{y:.1f}) rotate({tilt})">'
    if variant == 1:
        nodes = "".join(f'<rect x="{-w / 2 - 1.5:.1f}" y="{ny - 1.5:.1f}" width="{w + 3:.1f}" height="3" '
                        f'rx="1.5" fill="{colour}"/>' for ny in (-h / 2 + 1.5, 0.0, h / 2 - 1.5))
        return (f'{g}<rect x="{-w * 0.35:.1f}" y="{-h / 2:.1f}" width="{w * 0.7:.1f}" height="{h:.1f}" '
                f'fill="{colour}"/>{nodes}</g>')
    if variant == 2:
        return (f'{g}<rect x="{-w / 2:.1f}" y="{-h / 2:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{w / 3:.1f}" '
                f'fill="none" stroke="{colour}" stroke-width="{w * 0.28:.1f}"/>'
                f'<line x1="{-w / 2:.1f}" y1="0" x2="{w / 2:.1f}" y2="0" stroke="{colour}" '
                f'stroke-width="{w * 0.35:.1f}"/></g>')
    return (f'{g}<rect x="{-w / 2:.1f}" y="{-h / 2:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{w / 2:.1f}" '
            f'fill="{colour}"/><rect x="{-w / 2 - 1:.1f}" y="-1.5" width="{w + 2:.1f}" height="3" '
            f'fill="{colour}"/><line x1="0" y1="{-h / 2 + 4:.1f}" x2="0" y2="{h / 2 - 4:.1f}" stroke="#ffffff" '
            f'stroke-opacity="0.55" stroke-width="1.6"/></g>')


def _flower(x: float, y: float, r: float, colour: str, green: str) -> str:
    petals = "".join(
        f'<circle cx="{x + r * 0.6 * dx:.1f}" cy="{y + r * 0.6 * dy:.1f}" r="{r * 0.45:.1f}" fill="{colour}"/>'
        for dx, dy in ((0, -1), (0.95, -0.31), (0.59, 0.81), (-0.59, 0.81), (-0.95, -0.31)))
    stem = (f'<path d="M{x:.1f},{y + r:.1f} q{-r * 0.6:.1f},{r * 1.2:.1f} {r * 0.2:.1f},{r * 2.6:.1f}" '
            f'stroke="{green}" stroke-width="3" fill="none"/>'
            f'<ellipse cx="{x - r * 0.6:.1f}" cy="{y + r * 1.9:.1f}" rx="{r * 0.6:.1f}" ry="{r * 0.22:.1f}" '
            f'fill="{green}" transform="rotate(-30 {x - r * 0.6:.1f} {y + r * 1.9:.1f})"/>')
    return stem + petals + f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r * 0.25:.1f}" fill="#e8b400"/>'


def _bird(p: Palette) -> str:
    """The one of bamboo, drawn four ways as sets do: a stylised bird (0), a peacock with its tail
    spread (1), a small bird perched on a bamboo stick (2), one large stick alone (3)."""
    if p.variant == 3:
        return _stick(FACE_W / 2, FACE_H / 2, 0, 110, p.red, 1)
    if p.variant == 1:
        tail = [(60 + 38 * np.cos(a), 70 - 38 * np.sin(a)) for a in np.linspace(0.15, np.pi - 0.15, 7)]
        eyes = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="11" fill="{p.green}"/>'
                       f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{p.blue}"/>' for x, y in tail)
        return (eyes + f'<ellipse cx="60" cy="100" rx="16" ry="26" fill="{p.blue}"/>'
                f'<circle cx="60" cy="70" r="9" fill="{p.blue}"/><path d="M60,62 L56,54 M60,62 L64,54" '
                f'stroke="{p.green}" stroke-width="2"/><path d="M52,124 L48,140 M68,124 L72,140" '
                f'stroke="{p.red}" stroke-width="3"/>')
    if p.variant == 2:
        return (f'<rect x="54" y="30" width="12" height="124" rx="5" fill="{p.green}"/>'
                f'<rect x="51" y="76" width="18" height="4" fill="{p.green}"/>'
                f'<ellipse cx="74" cy="62" rx="20" ry="13" fill="{p.red}" transform="rotate(-20 74 62)"/>'
                f'<circle cx="90" cy="48" r="8" fill="{p.red}"/><path d="M96,46 L106,49 L96,52 Z" fill="#d09000"/>'
                f'<path d="M58,70 L36,84 L44,70 Z" fill="{p.blue}"/>')
    return (f'<path d="M60,40 C88,40 98,70 84,96 C74,114 50,116 40,100 C30,86 36,56 60,40 Z" fill="{p.green}"/>'
            f'<path d="M48,104 L26,150 L44,138 L52,152 L58,110 Z" fill="{p.blue}"/>'
            f'<circle cx="66" cy="34" r="14" fill="{p.red}"/><circle cx="70" cy="31" r="3" fill="#ffffff"/>'
            f'<path d="M78,30 L96,36 L78,40 Z" fill="#d09000"/>'
            f'<path d="M50,64 C62,72 70,84 64,100" stroke="{p.red}" stroke-width="4" fill="none"/>')


def _white_dragon(p: Palette) -> str:
    w, h = FACE_W, FACE_H
    if p.variant == 1:  # a thick frame with notched corners
        return (f'<rect x="18" y="20" width="{w - 36}" height="{h - 40}" fill="none" stroke="{p.blue}" '
                f'stroke-width="10" stroke-dasharray="30 6"/>')
    if p.variant == 2:  # a frame of two colours
        return (f'<rect x="14" y="16" width="{w - 28}" height="{h - 32}" fill="none" stroke="{p.blue}" '
                f'stroke-width="5"/><rect x="24" y="26" width="{w - 48}" height="{h - 52}" fill="none" '
                f'stroke="{p.red}" stroke-width="3"/>')
    if p.variant == 3:  # frames nested to the centre, in ink
        return "".join(f'<rect x="{m}" y="{m + 4}" width="{w - 2 * m}" height="{h - 2 * m - 8}" fill="none" '
                       f'stroke="{p.ink}" stroke-width="{4 - k}"/>' for k, m in enumerate((20, 34, 48)))
    return (f'<rect x="16" y="18" width="{w - 32}" height="{h - 36}" fill="none" stroke="{p.blue}" '
            f'stroke-width="7"/><rect x="29" y="31" width="{w - 58}" height="{h - 62}" fill="none" '
            f'stroke="{p.blue}" stroke-width="3"/>')


def _bonus(n: int, font: str, p: Palette, scale: float) -> str:
    """Flower or season ``n`` (1–8): its name, its number 1–4, and a flower unless the name fills it."""
    w, h = FACE_W, FACE_H
    name, number = BONUS_CHARS[n - 1], str((n - 1) % 4 + 1)
    ink = p.ink
    if n > 4 and p.season_numerals:
        number, ink = NUMERALS[(n - 1) % 4], p.red
    # plum, orchid, chrysanthemum, bamboo; sets colour them differently, so the colours turn with the variant
    colour = (p.red, "#7a3fa0", "#d08000", p.green)[(n - 1 + p.variant) % 4]
    if p.variant in (1, 3):  # the name large in a frame, the number in a corner (none in variant 3)
        return (f'<rect x="12" y="14" width="{w - 24}" height="{h - 28}" rx="6" fill="none" stroke="{p.ink}" '
                f'stroke-width="2.5"/>' + text(name, w / 2, h / 2, 62, "#b8860b" if n <= 4 else p.ink, font, scale)
                + (text(number, w - 24, h - 30, 18, p.red, p.digits) if p.variant == 1 else ""))
    fy = h * (0.34 if p.variant == 2 else 0.52)
    art = _flower(w * 0.42, fy, 20, colour, p.green)
    if n > 4:  # seasons stand in a pot, as on many sets
        top, x = fy + 44, w * 0.42 + 4
        art += (f'<path d="M{x - 22:.1f},{top:.1f} h44 l-7,20 h-30 z" fill="{p.blue}"/>'
                f'<rect x="{x - 25:.1f}" y="{top - 4:.1f}" width="50" height="6" rx="2" fill="{p.blue}"/>')
    if p.variant == 2:  # the name at the bottom, the number at the top right
        return (art + text(name, w * 0.5, h * 0.86, 30, p.red if n > 4 else p.blue, font, scale)
                + text(number, w * 0.82, h * 0.13, 24, ink, p.digits))
    return (art + text(name, w * 0.72, h * 0.2, 36, p.red if n > 4 else p.blue, font, scale)
            + text(number, w * 0.18, h * 0.14, 26, ink, p.digits))


def face_svg(code: str, font: str, p: Palette, scale: float = 1.0) -> bytes:
    """The SVG of one face in a font and palette; ``scale`` enlarges fonts with small glyphs."""
    w, h = FACE_W, FACE_H
    body: list[str] = []
    rank = code[0]
    if code in WINDS:
        body.append(text(WINDS[code], w / 2, h / 2, 96, p.ink, font, scale))
    elif code == "C":
        body.append(text("中", w / 2, h / 2, 100, p.red, font, scale))
    elif code == "F":
        body.append(text("發", w / 2, h / 2, 96, p.green, font, scale))
    elif code == "P":
        body.append("" if p.blank_white else _white_dragon(p))
    elif code.endswith("m"):
        numeral = p.five if rank == "5" else NUMERALS[int(rank) - 1]
        colour = p.numeral_colour or (p.blue if rank in "159" else p.ink)
        body.append(text(numeral, w / 2, h * 0.27, 56, colour, font, scale))
        body.append(text("萬", w / 2, h * 0.69, 72, p.red, font, scale))
    elif code.endswith("f"):
        body.append(hk_bonus(int(rank), font, p.digits, p.ink, p.red, p.blue, p.green, scale) if p.bonus == "hk"
                    else _bonus(int(rank), font, p, scale))
    elif code.endswith("p"):
        n = int(rank)
        colours = (p.blue, p.green, p.red)
        if n == 1:
            body.append(_dot(w / 2, h / 2, 46, p.green, p.ground, 0) + _dot(w / 2, h / 2, 20, p.red, p.ground, p.variant))
        else:
            r = 24 if n <= 4 else 19 if n <= 7 else 15
            body += [_dot(x * w, y * h, r, colours[c], p.ground, p.variant) for x, y, c in DOTS[n]]
    elif code.endswith("s"):
        n = int(rank)
        if n == 1:
            body.append(_bird(p))
        else:
            colours = (p.green, p.red, p.blue)
            length = 56 if n <= 6 else 44
            body += [_stick(x * w, y * h, t, length, colours[c], p.variant) for x, y, t, c in BAMBOO[n]]
    return framed(body, code, p)


def framed(body: list[str], code: str, p: Palette) -> bytes:
    """The face's SVG: its ground, then the drawing, shrunk beside a corner index when the set has one."""
    w, h = FACE_W, FACE_H
    art = "".join(body)
    if p.index:
        art = f'<g transform="translate(16 20) scale(0.86)">{art}</g>'
        if code in INDEX:
            art += text(INDEX[code], 12, 16, 22, p.red, p.index)
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">'
           f'<rect width="{w}" height="{h}" fill="{p.ground}"/>{art}</svg>')
    return svg.encode()


FONT_LICENCES = {
    "fonts-arphic-ukai": "Arphic Public License", "fonts-arphic-uming": "Arphic Public License",
    "fonts-arphic-bkai00mp": "Arphic Public License", "fonts-arphic-bsmi00lp": "Arphic Public License",
    "fonts-noto-cjk": "SIL OFL 1.1", "fonts-lxgw-wenkai": "SIL OFL 1.1", "fonts-klee": "SIL OFL 1.1",
    "fonts-morisawa-bizud-gothic": "SIL OFL 1.1", "fonts-cwtex-kai": "GPL-2.0-or-later",
    "fonts-cwtex-yen": "GPL-2.0-or-later", "fonts-cwtex-heib": "GPL-2.0-or-later", "fonts-cwtex-fs": "GPL-2.0-or-later",
    "fonts-cwtex-ming": "GPL-2.0-or-later", "fonts-kouzan-mouhitsu": "public domain",
    "fonts-aoyagi-soseki": "public domain", "fonts-wqy-zenhei": "GPL-2.0 with font embedding exception",
    "fonts-ipaexfont-mincho": "IPA Font License 1.0", "fonts-cns11643-sung": "Open Government Data License Taiwan 1.0",
    "fonts-motoya-l-maruberi": "Apache-2.0", "fonts-dejavu-core": "Bitstream Vera licence (DejaVu)",
    "fonts-urw-base35": "AGPL-3.0 with font exception",
}
"""The licence of each font package the drawn styles use (its /usr/share/doc/<package>/copyright)."""
Draw = Callable[[str, str, Palette, float], bytes]


@dataclass(frozen=True)
class FontStyle:
    """One font-drawn style: a font family, the file that proves it is installed, its Debian package."""

    name: str
    family: str
    file: Path
    package: str
    palette: Palette = Palette()
    scale: float = 1.0  # glyph size relative to the others (brush fonts draw small glyphs)
    draw: Draw = face_svg  # the face's SVG from its code, the font, the palette and the scale
    prefix: str = "font-"  # the style's name is prefix + name
    also: tuple[str, ...] = ()  # other font packages its faces use (their licences are the style's too)

    def codes(self) -> tuple[str, ...]:
        """The faces the set has, and the other drawings of a face (a red five) by ``<code>-<name>``."""
        have = tuple(c for c in FACE_CODES if self.palette.bonus != "none" or not c.endswith("f"))
        return have + (tuple(f"5{s}{ALTERNATE}{RED_FIVE}" for s in "mps") if self.palette.red_fives else ())

    def render(self) -> Faces:
        red = replace(self.palette, ink=self.palette.red, blue=self.palette.red, green=self.palette.red,
                      numeral_colour=self.palette.red)
        return {key: rsvg(self.draw(code_of(key), self.family, red if ALTERNATE in key else self.palette,
                                    self.scale))[:, :, :3] for key in self.codes()}

    def source(self) -> FaceSource:
        dejavu = any(f.startswith("DejaVu") for f in (self.palette.digits, self.palette.index))
        fonts = {self.package, *self.also, *(("fonts-dejavu-core",) if dejavu else ())}
        licence = "; ".join(f"{FONT_LICENCES[f]} ({f})" for f in sorted(fonts))
        return FaceSource(name=f"{self.prefix}{self.name}", package=self.package, requires=(self.file,),
                          render=self.render, version=ART_VERSION,
                          licence=f"MIT, our own drawing (datasets/faces); glyphs: {licence}")


FONTS = Path("/usr/share/fonts")
STYLES: tuple[FontStyle, ...] = (
    FontStyle("ukai", "AR PL UKai CN", FONTS / "truetype/arphic/ukai.ttc", "fonts-arphic-ukai"),
    FontStyle("uming", "AR PL UMing CN", FONTS / "truetype/arphic/uming.ttc", "fonts-arphic-uming",
              Palette(ground="#f7f5ee", ink="#0d1f5c", blue="#0d1f5c", variant=1)),
    FontStyle("noto-serif", "Noto Serif CJK TC", FONTS / "opentype/noto/NotoSerifCJK-Bold.ttc", "fonts-noto-cjk",
              Palette(ground="#fbfbf6", ink="#202020", green="#0a6b2a", variant=2)),
    FontStyle("lxgw", "LXGW WenKai", FONTS / "truetype/lxgw-wenkai/LXGWWenKai-Regular.ttf", "fonts-lxgw-wenkai",
              Palette(ground="#efe9d4", ink="#1a2a6e", red="#b3001b", green="#00703c", blue="#1a2a6e", variant=1)),
    FontStyle("cwtex", "cwTeXKai", FONTS / "truetype/cwtex/cwkai.ttf", "fonts-cwtex-kai",
              Palette(ground="#f4f1e8", ink="#101010", red="#d0202a", variant=2)),
    FontStyle("kouzan", "KouzanBrushFont", FONTS / "truetype/kouzan-mouhitsu/kouzan-mouhitsu.ttf",
              "fonts-kouzan-mouhitsu", Palette(ground="#f0efe6", ink="#151515", green="#1d6b2f", blue="#203080"),
              scale=1.3),
    # The same fonts drawn another way, so that no face is known by one font and one layout only
    FontStyle("ukai-b", "AR PL UKai CN", FONTS / "truetype/arphic/ukai.ttc", "fonts-arphic-ukai",
              Palette(ground="#f6f0dc", ink="#2a1a10", red="#a8141c", green="#2f7d32", blue="#243c7a", variant=2,
                      digits="DejaVu Serif", season_numerals=True)),
    FontStyle("uming-b", "AR PL UMing CN", FONTS / "truetype/arphic/uming.ttc", "fonts-arphic-uming",
              Palette(ground="#fcfaf2", ink="#222222", red="#d4202c", green="#1f8040", blue="#2050a0",
                      digits="AR PL UMing CN", season_numerals=True, five="五")),
    FontStyle("noto-serif-b", "Noto Serif CJK TC", FONTS / "opentype/noto/NotoSerifCJK-Bold.ttc", "fonts-noto-cjk",
              Palette(ground="#fffdf5", ink="#111111", red="#b01020", blue="#0b2a7a", variant=1, digits="DejaVu Sans",
                      five="五")),
    FontStyle("cwtex-b", "cwTeXKai", FONTS / "truetype/cwtex/cwkai.ttf", "fonts-cwtex-kai",
              Palette(ground="#eef0e6", ink="#1c1c1c", green="#006b4f", blue="#12306e", variant=1,
                      digits="cwTeXKai", season_numerals=True)),
    FontStyle("kouzan-b", "KouzanBrushFont", FONTS / "truetype/kouzan-mouhitsu/kouzan-mouhitsu.ttf",
              "fonts-kouzan-mouhitsu", Palette(ground="#f5efe0", red="#c8102e", green="#236b3a", variant=2,
                                               digits="KouzanBrushFont", season_numerals=True, five="五"), scale=1.3),
    # A fourth drawing (variant 3): the one of bamboo a single stick, the white dragon nested frames, the flowers
    # and seasons their name alone in a frame; as some sets draw them, so that no face is known by one motif
    FontStyle("ukai-c", "AR PL UKai CN", FONTS / "truetype/arphic/ukai.ttc", "fonts-arphic-ukai",
              Palette(ground="#f3efe4", ink="#1d2b5a", red="#b8141e", blue="#1d2b5a", variant=3, five="五")),
    FontStyle("uming-c", "AR PL UMing CN", FONTS / "truetype/arphic/uming.ttc", "fonts-arphic-uming",
              Palette(ground="#f8f6f0", ink="#303030", red="#c41a24", green="#0f6e3c", variant=3)),
    FontStyle("noto-serif-c", "Noto Serif CJK TC", FONTS / "opentype/noto/NotoSerifCJK-Bold.ttc", "fonts-noto-cjk",
              Palette(ground="#eeeadf", ink="#0e1a40", red="#a01018", green="#246b30", blue="#0e1a40", variant=3,
                      five="五")),
    FontStyle("cwtex-c", "cwTeXKai", FONTS / "truetype/cwtex/cwkai.ttf", "fonts-cwtex-kai",
              Palette(ground="#fbf8ee", ink="#181818", red="#cc2230", blue="#1a3f8c", variant=3)),
    FontStyle("kouzan-c", "KouzanBrushFont", FONTS / "truetype/kouzan-mouhitsu/kouzan-mouhitsu.ttf",
              "fonts-kouzan-mouhitsu", Palette(ground="#f2ecdc", ink="#222a44", red="#b0141c", green="#1e6233",
                                               variant=3), scale=1.3),
    # A sans-serif face (heiti), as printed on many machine-table sets: glyphs without brush strokes, in three of the
    # four drawings, so that a character is known by its strokes' layout rather than by a brush
    FontStyle("noto-sans", "Noto Sans CJK TC", FONTS / "opentype/noto/NotoSansCJK-Regular.ttc", "fonts-noto-cjk",
              Palette(ground="#f5f3ea", ink="#161616", red="#c4161c", green="#10713b", blue="#1b3a8a")),
    FontStyle("noto-sans-b", "Noto Sans CJK TC", FONTS / "opentype/noto/NotoSansCJK-Regular.ttc", "fonts-noto-cjk",
              Palette(ground="#faf7ee", ink="#23233a", red="#b3121f", green="#1a7a44", blue="#22408f", variant=2,
                      digits="Noto Sans CJK TC", season_numerals=True, five="五")),
    FontStyle("noto-sans-c", "Noto Sans CJK TC", FONTS / "opentype/noto/NotoSansCJK-Regular.ttc", "fonts-noto-cjk",
              Palette(ground="#efece2", ink="#1a1a1a", red="#c21b25", green="#186c36", blue="#1a1a1a", variant=3)),
    # Five more faces, one drawing each: rounded (yuanti), bold heiti, fangsong, mingti and another heiti, so that
    # the brush, stroke weight and stroke ends a reader sees vary more than the kai and serif faces above allow
    FontStyle("cwtex-yen", "cwTeXYen", FONTS / "truetype/cwtex/cwyen.ttf", "fonts-cwtex-yen",
              Palette(ground="#f6f2e6", ink="#14213d", red="#c3161f", green="#167040", blue="#14213d"), scale=1.3),
    FontStyle("cwtex-heib", "cwTeXHeiBold", FONTS / "truetype/cwtex/cwheib.ttf", "fonts-cwtex-heib",
              Palette(ground="#fbf9f1", ink="#121212", red="#b7121d", green="#0f6a35", blue="#1c3f94", variant=2,
                      digits="cwTeXHeiBold", season_numerals=True, five="五")),
    FontStyle("cwtex-fs", "cwTeXFangSong", FONTS / "truetype/cwtex/cwfs.ttf", "fonts-cwtex-fs",
              Palette(ground="#f1ede0", ink="#202a50", red="#c0202a", green="#1f6e36", blue="#202a50", variant=3)),
    FontStyle("cwtex-ming", "cwTeXMing", FONTS / "truetype/cwtex/cwming.ttf", "fonts-cwtex-ming",
              Palette(ground="#f9f6ea", ink="#1a1a1a", red="#cc1c24", green="#14703c", blue="#223f8a", variant=1,
                      digits="DejaVu Serif", season_numerals=True)),
    FontStyle("wqy-zenhei", "WenQuanYi Zen Hei", FONTS / "truetype/wqy/wqy-zenhei.ttc", "fonts-wqy-zenhei",
              Palette(ground="#eeebe0", ink="#2a2a2a", red="#b5141c", green="#227a3e", blue="#173a84", variant=1,
                      five="五")),
)
SOURCES: tuple[FaceSource, ...] = tuple(style.source() for style in STYLES)
