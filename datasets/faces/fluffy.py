"""FluffyStuff's riichi tiles as the PyPI package ``pymdownx-mahjong`` ships them (its ``assets/light`` SVGs):
a riichi set drawn by no hand our other styles come from, held out of training to measure on.

Licence, as the package states it: the package is CC BY-NC 4.0 (``pymdownx_mahjong-*.dist-info/licenses``);
its ``assets/README.md`` says the art comes from FluffyStuff's riichi-mahjong-tiles, in the public domain,
some of it "recolored, tweaked, minified, or otherwise modified". Which files were changed is not said, so
the files as shipped are taken to be under CC BY-NC 4.0: they are never committed or carried (nor are faces
rendered from them), and no model we ship under MIT learns from them (``trainable=False``, so the style is
held out: `datasets.faces.group`); rendering them here to measure our models is a non-commercial use.

File names: ``<n>m|p|s`` the suits, ``0m|p|s`` the red fives, ``1z``–``7z`` east, south, west, north,
white (a blank face), green, red dragons; no flowers, seasons or back.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from datasets.faces.drawn import RED_FIVE
from datasets.faces.source import ALTERNATE, FACE_W, FaceSource, Faces, fit_face, rsvg

PACKAGE = "pymdownx-mahjong"
IVORY = (238, 243, 245)  # BGR: the near-white front these tiles are drawn for
MARGIN = 0.05  # the art spans its whole 300 x 400 view box; real tiles leave a rim


def assets() -> Path:
    """The package's light-theme SVGs, found without importing it (an absent package gives a path that does
    not exist, so the style reads as not installed)."""
    spec = importlib.util.find_spec("pymdownx_mahjong")
    roots = list(spec.submodule_search_locations or []) if spec else []
    return Path(roots[0] if roots else "/nonexistent/pymdownx_mahjong") / "assets" / "light"


def file_keys() -> dict[str, str]:
    """SVG file stem -> face key (a red five is ``5m-red``: the tile 5m, drawn red)."""
    keys = {f"{r}{s}": f"{r}{s}" for r in range(1, 10) for s in "mps"}
    keys |= {f"0{s}": f"5{s}{ALTERNATE}{RED_FIVE}" for s in "mps"}
    return keys | {f"{n}z": code for n, code in enumerate(("E", "S", "W", "N", "P", "F", "C"), 1)}


def _render(folder: Path) -> Faces:
    """Each SVG drawn at twice the face's size (its view box is 300 x 400) and fitted onto the ivory front."""
    return {key: fit_face(rsvg(folder / f"{stem}.svg", zoom=2 * FACE_W / 300), IVORY, MARGIN)
            for stem, key in file_keys().items()}


_ASSETS = assets()
SOURCES: tuple[FaceSource, ...] = (
    FaceSource(name="riichi-fluffy", package=PACKAGE, requires=(_ASSETS / "1m.svg",), render=lambda: _render(_ASSETS),
               pypi=True, trainable=False,
               licence="CC BY-NC 4.0 as shipped by pymdownx-mahjong 0.2.2 (Tyler Nguyen), from FluffyStuff's "
                       "public-domain riichi-mahjong-tiles; never committed, carried or trained on"),
)
