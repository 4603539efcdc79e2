"""Font-drawn sets as clubs outside China own them: riichi (Japanese) sets, Hong Kong sets, numeral-only
sets and sets with a corner index.

- **Riichi**: no flowers or seasons; a red five of each suit, drawn as the five of its suit in red (the
  tile is still ``5m``/``5p``/``5s``: ``5m-red``, `source.code_of`); the white dragon blank or framed; the 1
  of bamboo a bird; the glyphs in Japanese fonts (mincho, a pen hand, a brush, a UD gothic).
- **Hong Kong**: every numeral of the characters in blue, flowers and seasons as pictures with a number
  box (`motifs.hk_bonus`), in traditional-Chinese fonts.
- **Numeral-only**: a large Arabic numeral over a small suit sign (`numeral_svg`), as beginners' and
  travel sets print them.
- **Corner index**: the Chinese drawing shrunk beside a red index in the corner (`drawn.INDEX`).
"""

from __future__ import annotations

from dataclasses import replace

from datasets.faces.drawn import FONTS, INDEX, WINDS, FontStyle, Palette, _dot, _stick, face_svg, framed
from datasets.faces.motifs import BONUS_CHARS, text
from datasets.faces.source import FACE_H, FACE_W, FaceSource

SUIT_SIGNS = {"m": "萬", "p": "●", "s": "‖"}


def numeral_svg(code: str, font: str, p: Palette, scale: float = 1.0) -> bytes:
    """A numeral-only face: the suits as a large numeral (red characters, blue dots, green bamboo) over the
    suit's sign (萬, a dot, a stick); winds as a large letter over their character; flowers and seasons as
    their number over their name; the dragons as the Chinese sets draw them."""
    w, h = FACE_W, FACE_H
    rank, suit = code[0], code[-1]
    if code in ("C", "F", "P"):
        return face_svg(code, font, p, scale)
    body: list[str] = []
    if code in WINDS:
        body += [text(INDEX[code], w / 2, h * 0.36, 84, p.ink, p.digits), text(WINDS[code], w / 2, h * 0.8, 34, p.blue, font, scale)]
    elif suit == "f":
        n = int(rank)
        body += [text(str((n - 1) % 4 + 1), w / 2, h * 0.36, 84, p.red if n <= 4 else p.blue, p.digits),
                 text(BONUS_CHARS[n - 1], w / 2, h * 0.8, 34, p.green if n <= 4 else p.ink, font, scale)]
    else:
        colour = {"m": p.red, "p": p.blue, "s": p.green}[suit]
        body.append(text(rank, w / 2, h * 0.36, 90, colour, p.digits))
        if suit == "m":
            body.append(text(SUIT_SIGNS[suit], w / 2, h * 0.8, 34, p.ink, font, scale))
        elif suit == "p":
            body.append(_dot(w / 2, h * 0.8, 15, colour, p.ground, p.variant))
        else:
            body.append(_stick(w / 2, h * 0.8, 0, 34, colour, p.variant))
    return framed(body, code, p)


def _riichi(name: str, family: str, file: str, package: str, palette: Palette, scale: float = 1.0) -> FontStyle:
    return FontStyle(name, family, FONTS / file, package, replace(palette, bonus="none", red_fives=True), scale,
                     prefix="riichi-")


STYLES: tuple[FontStyle, ...] = (
    _riichi("ipaex", "IPAexMincho", "opentype/ipaexfont-mincho/ipaexm.ttf", "fonts-ipaexfont-mincho",
            Palette(ground="#f7f6f0", ink="#151515", red="#d01c24", green="#10703a", blue="#1a2f80",
                    blank_white=True)),
    _riichi("klee", "Klee One", "truetype/klee/KleeOne-SemiBold.ttf", "fonts-klee",
            Palette(ground="#fbfaf4", ink="#1c1c2a", red="#c8141c", green="#146c34", blue="#1c3c8c", variant=2,
                    five="五", blank_white=True)),
    _riichi("soseki", "AoyagiSosekiFont2", "truetype/aoyagi-soseki/aoyagi-soseki.ttf", "fonts-aoyagi-soseki",
            Palette(ground="#f3f1e6", ink="#111111", red="#c0101a", green="#0e6a30", blue="#12307a", variant=1),
            scale=1.15),
    _riichi("bizud", "BIZ UDGothic", "truetype/bizud-gothic/BIZUDGothic-Bold.ttf", "fonts-morisawa-bizud-gothic",
            Palette(ground="#ffffff", ink="#202020", red="#e0202a", green="#189048", blue="#2050b0", variant=0,
                    blank_white=True, digits="BIZ UDGothic")),
    _riichi("noto-serif", "Noto Serif CJK JP", "opentype/noto/NotoSerifCJK-Bold.ttc", "fonts-noto-cjk",
            Palette(ground="#f5f2e8", ink="#0f1a3a", red="#b8101c", green="#1e6a2e", blue="#0f1a3a", variant=3)),
    FontStyle("bkai", "AR PL KaitiM Big5", FONTS / "truetype/arphic-bkai00mp/bkai00mp.ttf", "fonts-arphic-bkai00mp",
              Palette(ground="#f4f0e2", ink="#1a1a1a", red="#c8161e", green="#13703a", blue="#1838a0",
                      numeral_colour="#1838a0", bonus="hk", digits="DejaVu Sans"), prefix="hk-"),
    FontStyle("bsmi", "AR PL Mingti2L Big5", FONTS / "truetype/arphic-bsmi00lp/bsmi00lp.ttf", "fonts-arphic-bsmi00lp",
              Palette(ground="#fbf9f0", ink="#202020", red="#d01820", green="#0f7a40", blue="#1030a0", variant=2,
                      numeral_colour="#1030a0", bonus="hk", five="五", digits="DejaVu Serif"), scale=1.2, prefix="hk-"),
    FontStyle("tw-sung", "TW-Sung", FONTS / "truetype/cns11643/TW-Sung-98_1.ttf", "fonts-cns11643-sung",
              Palette(ground="#f2eee0", ink="#181818", red="#c01018", green="#176c38", blue="#20409a", variant=1,
                      numeral_colour="#20409a", bonus="hk", digits="DejaVu Sans"), scale=1.2, prefix="hk-"),
    FontStyle("dejavu", "Noto Sans CJK TC", FONTS / "truetype/dejavu/DejaVuSans-Bold.ttf", "fonts-dejavu-core",
              Palette(ground="#f7f5ee", ink="#1a1a1a", red="#c8181e", green="#167a3a", blue="#1a3a9a",
                      digits="DejaVu Sans"), draw=numeral_svg, prefix="numerals-", also=("fonts-noto-cjk",)),
    FontStyle("urw", "AR PL UMing CN", FONTS / "opentype/urw-base35/C059-Bold.otf", "fonts-urw-base35",
              Palette(ground="#f0ede2", ink="#222222", red="#b8141c", green="#1a6a30", blue="#203c8a", variant=1,
                      digits="C059"), draw=numeral_svg, prefix="numerals-", also=("fonts-arphic-uming",)),
    FontStyle("uming", "AR PL UMing TW", FONTS / "truetype/arphic/uming.ttc", "fonts-arphic-uming",
              Palette(ground="#f6f3ea", ink="#1a1a1a", red="#c0141c", green="#14703a", blue="#1c3c90", variant=2,
                      index="DejaVu Sans"), scale=1.25, prefix="index-"),
    FontStyle("maruberi", "MotoyaLMaru", FONTS / "truetype/motoya-l-maruberi/MTLmr3m.ttf", "fonts-motoya-l-maruberi",
              Palette(ground="#fafaf4", ink="#222230", red="#d01a22", green="#12783c", blue="#1a44a0",
                      index="DejaVu Sans", season_numerals=True), prefix="index-"),
)
SOURCES: tuple[FaceSource, ...] = tuple(style.source() for style in STYLES)
