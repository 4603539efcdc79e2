"""Tile-face art sources ("styles"): Debian tilesets and our own font-drawn faces.

``SOURCES`` lists every style the generator knows; ``installed()`` the ones usable here, and
``missing_report()`` says which are not and the ``apt-get install`` line that adds them.
"""

from __future__ import annotations

from datasets.faces import drawn, kde, sheets, xpm
from datasets.faces.source import FACE_CODES, FACE_H, FACE_W, FaceSource, Faces, cache_root

SOURCES: tuple[FaceSource, ...] = (*kde.SOURCES, *sheets.SOURCES, *xpm.SOURCES, *drawn.SOURCES)
BY_NAME: dict[str, FaceSource] = {s.name: s for s in SOURCES}
HELD_OUT: tuple[str, ...] = ("gnome-smooth", "font-lxgw")
"""Styles kept out of training by default, for a held-out style test (``--styles held-out``)."""


GROUPS: tuple[str, ...] = ("all", "train", "held-out")
"""Names of style groups (`group`), as ``mcr synth --styles`` takes them."""


def installed() -> tuple[FaceSource, ...]:
    return tuple(s for s in SOURCES if s.installed)


def group(name: str) -> tuple[FaceSource, ...]:
    """The known styles of a group (`GROUPS`), installed or not: every one, those trained on (all but
    `HELD_OUT`), or the held-out ones."""
    if name not in GROUPS:
        raise ValueError(f"unknown style group {name!r}; known: {', '.join(GROUPS)}")
    return tuple(s for s in SOURCES if name == "all" or (s.name in HELD_OUT) == (name == "held-out"))


def apt_packages(sources: tuple[FaceSource, ...] | None = None) -> str:
    """The Debian packages that install ``sources`` (default every known style) and render them: what
    ``.ci/run`` installs, so that a style added here is installed there too."""
    return " ".join([*sorted({s.package for s in (SOURCES if sources is None else sources)}), "librsvg2-bin"])


def missing_report() -> str:
    """One line per missing style and the command that installs all of them ('' when none is missing)."""
    missing = tuple(s for s in SOURCES if not s.installed)
    if not missing:
        return ""
    lines = [f"tile style {s.name} is not installed (Debian package {s.package})" for s in missing]
    return "\n".join([*lines, f"to add them: apt-get install {apt_packages(missing)}"])


__all__ = ["BY_NAME", "FACE_CODES", "FACE_H", "FACE_W", "GROUPS", "HELD_OUT", "SOURCES", "FaceSource", "Faces",
           "apt_packages", "cache_root", "group", "installed", "missing_report"]
