"""Tile-face art sources ("styles"): Debian tilesets, a PyPI package's riichi art and our own font-drawn faces.

``SOURCES`` lists every style the generator knows, each with its licence (`FaceSource.licence`); ``installed()``
the ones usable here, and ``missing_report()`` says which are not and the line that installs them.
"""

from __future__ import annotations

from datasets.faces import drawn, fluffy, kde, regional, sheets, xpm
from datasets.faces.source import (ALTERNATE, FACE_CODES, FACE_H, FACE_W, FaceSource, Faces, cache_root,
                                   code_of)

SOURCES: tuple[FaceSource, ...] = (*kde.SOURCES, *sheets.SOURCES, xpm.PIXEL, *drawn.SOURCES,
                                   *regional.SOURCES, xpm.NUMBERED, *fluffy.SOURCES)
"""In the order the styles were added: `mcr synth --styles list` lists them so, and docs/training.md names the
styles a folder made at an older commit used by their place in it."""
BY_NAME: dict[str, FaceSource] = {s.name: s for s in SOURCES}
HELD_OUT: tuple[str, ...] = ("gnome-smooth", "font-lxgw", "riichi-fluffy", "hk-tw-sung")
"""Styles kept out of training, for a held-out style test (``--styles held-out``): a Debian tileset, a
Chinese font-drawn set, a riichi set (art no model of ours was drawn from) and a Hong Kong set. Every style
whose licence forbids training (`FaceSource.trainable`) is among them."""


GROUPS: tuple[str, ...] = ("all", "train", "held-out")
"""Names of style groups (`group`), as ``mcr synth --styles`` takes them."""


def installed() -> tuple[FaceSource, ...]:
    return tuple(s for s in SOURCES if s.installed)


def group(name: str) -> tuple[FaceSource, ...]:
    """The known styles of a group (`GROUPS`), installed or not: every one, those trained on (all but
    `HELD_OUT`, and never one whose licence forbids it), or the held-out ones."""
    if name not in GROUPS:
        raise ValueError(f"unknown style group {name!r}; known: {', '.join(GROUPS)}")
    if name == "all":
        return SOURCES
    held = name == "held-out"
    return tuple(s for s in SOURCES if (s.name in HELD_OUT or not s.trainable) == held)


def apt_packages(sources: tuple[FaceSource, ...] | None = None) -> str:
    """The Debian packages that install ``sources`` (default every known style) and render them: what
    ``.ci/run`` installs, so that a style added here is installed there too (a PyPI style comes with
    ``uv sync``)."""
    chosen = SOURCES if sources is None else sources
    return " ".join([*sorted({s.package for s in chosen if not s.pypi}), "librsvg2-bin"])


def missing_report() -> str:
    """One line per missing style and the command that installs all of them ('' when none is missing)."""
    missing = tuple(s for s in SOURCES if not s.installed)
    if not missing:
        return ""
    lines = [f"tile style {s.name} is not installed ({s.install})" for s in missing]
    if any(not s.pypi for s in missing):
        lines.append(f"to add them: apt-get install {apt_packages(missing)}")
    return "\n".join(lines)


__all__ = ["ALTERNATE", "BY_NAME", "FACE_CODES", "FACE_H", "FACE_W", "GROUPS", "HELD_OUT", "SOURCES", "FaceSource",
           "Faces", "apt_packages", "cache_root", "code_of", "group", "installed", "missing_report"]
