"""KDE's mahjongg tilesets (Debian ``kdegames-mahjongg-data-kf5``): one SVG element per face.

Element names: CHARACTER_n, ROD_n (dots), BAMBOO_n, WIND_1..4 = N S E W, DRAGON_1..3 = white, green,
red, FLOWER_1..4, SEASON_1..4. The ``classic`` set draws orchid as FLOWER_1 and plum as FLOWER_2 (checked
by eye on the contact sheet), so its first two flowers are swapped here.
"""

from __future__ import annotations

import gzip
import tempfile
from pathlib import Path

from datasets.faces.source import FaceSource, Faces, fit_face, ink_box, over, rsvg

TILESETS = Path("/usr/share/kmahjongglib/tilesets")
IVORY = (222, 236, 242)
JADE = (84, 128, 36)


def element_codes(swap_plum_orchid: bool = False) -> dict[str, str]:
    """SVG element id -> tile code."""
    ids = {f"CHARACTER_{n}": f"{n}m" for n in range(1, 10)}
    ids |= {f"ROD_{n}": f"{n}p" for n in range(1, 10)}
    ids |= {f"BAMBOO_{n}": f"{n}s" for n in range(1, 10)}
    ids |= {f"WIND_{n}": code for n, code in enumerate("NSEW", 1)}
    ids |= {f"DRAGON_{n}": code for n, code in enumerate("PFC", 1)}
    ids |= {f"FLOWER_{n}": f"{n}f" for n in range(1, 5)}
    ids |= {f"SEASON_{n}": f"{n + 4}f" for n in range(1, 5)}
    if swap_plum_orchid:
        ids["FLOWER_1"], ids["FLOWER_2"] = "2f", "1f"
    return ids


def _render(svgz: Path, ground: tuple[int, int, int], margin: float, swap: bool) -> Faces:
    with tempfile.TemporaryDirectory() as tmp:
        svg = Path(tmp) / "tiles.svg"
        svg.write_bytes(gzip.decompress(svgz.read_bytes()))
        faces: Faces = {}
        for element, code in element_codes(swap).items():
            art = rsvg(svg, export_id=element, zoom=2.0)
            box = ink_box(art)
            if box is None:  # a blank face: white dragon drawn as an empty tile
                faces[code] = fit_face(over(art[:1, :1], ground), ground)
                continue
            x0, y0, x1, y1 = box
            faces[code] = fit_face(art[y0:y1, x0:x1], ground, margin)
        return faces


def _source(name: str, ground: tuple[int, int, int], margin: float, swap: bool = False) -> FaceSource:
    svgz = TILESETS / f"{name}.svgz"
    return FaceSource(
        name=f"kde-{name}",
        package="kdegames-mahjongg-data-kf5",
        requires=(svgz,),
        render=lambda: _render(svgz, ground, margin, swap),
        licence=f"GPL-2.0-or-later (KDE tileset {name}: {svgz.with_suffix('.copyright')})",
    )


SOURCES: tuple[FaceSource, ...] = (
    _source("default", IVORY, 0.0),
    _source("traditional", IVORY, 0.0),
    _source("jade", JADE, 0.07),
    _source("classic", IVORY, 0.06, swap=True),
)
