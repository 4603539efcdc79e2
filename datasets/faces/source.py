"""A tile-art source: where its faces come from, whether it is installed, and its on-disk face cache.

Faces are read from Debian packages (never committed) and normalised once into PNGs under
``~/.cache/mcr-lens/faces/<source>.v<version>/<code>.png`` (``$MCR_LENS_CACHE`` overrides the root), so scene
generation only reads small images.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from scoring.tiles import BACK, TILES

FACE_W, FACE_H = 120, 160
"""Every face is normalised to this size (BGR): the top surface of a tile, about 3:4."""
FACE_CODES: tuple[str, ...] = tuple(t.code for t in TILES if t is not BACK)
"""The 42 printed faces; ``back`` is drawn by the tile body, not taken from a source."""

Faces = dict[str, np.ndarray]
ALTERNATE = "-"
"""Joins a tile code and the name of another drawing of that face in one set (``5m-red``, a riichi set's red
five): the same tile, the same label (`code_of`), drawn another way."""


def code_of(key: str) -> str:
    """The tile code a face key shows: ``5m-red`` is a ``5m``."""
    return key.split(ALTERNATE, 1)[0]


def cache_root() -> Path:
    """Where rendered faces live; outside the repository so art is never committed."""
    env = os.environ.get("MCR_LENS_CACHE")
    base = Path(env) if env else Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "mcr-lens"
    return base / "faces"


@dataclass(frozen=True)
class FaceSource:
    """One tile style. ``render`` builds every face it has from installed files (slow, run once): the 42 faces
    by tile code (or those the set has) and any other drawing of a face by ``<code>-<name>`` (`code_of`)."""

    name: str
    package: str  # the package that provides the art or font (Debian's unless ``pypi``)
    requires: tuple[Path, ...]  # files that must exist to render the faces (not once they are cached)
    render: Callable[[], Faces] = field(repr=False)
    note: str = ""
    version: int = 1  # raised when the art changes, so that faces cached before are rendered anew
    licence: str = ""  # the art's or font's licence, and whose drawing the faces are
    trainable: bool = True  # False: its licence does not let models we ship learn from it; measured only
    pypi: bool = False  # the package is a PyPI one in the dev group (`uv sync`), not a Debian one

    @property
    def install(self) -> str:
        """The command that installs the style's package."""
        return f"uv sync (the dev group's {self.package})" if self.pypi else f"apt-get install {self.package}"

    @property
    def cache(self) -> Path:
        return cache_root() / f"{self.name}.v{self.version}"

    @property
    def installed(self) -> bool:
        """Usable here: its faces cached already (rendered here, or carried to a machine without the
        package, `models.training.device`), or the files to render them present."""
        return self.cache.exists() or all(p.exists() for p in self.requires)

    def faces(self) -> Faces:
        """The source's faces by tile code, rendered into the cache on first use."""
        folder = self.cache
        if not folder.exists():
            if not self.installed:
                raise OSError(f"tile style {self.name!r} needs the package {self.package}: {self.install}")
            self.store(self.render())
        codes = (folder / "codes").read_text().split()
        return {code: cv2.imread(str(folder / f"{code}.png"), cv2.IMREAD_COLOR) for code in codes}

    def store(self, faces: Faces) -> None:
        """The faces into the cache: written to a private folder, then renamed into place, so processes
        starting together never read a half-written cache."""
        folder = self.cache
        tmp = folder.with_name(f"{folder.name}.tmp{os.getpid()}")
        tmp.mkdir(parents=True, exist_ok=True)
        for code, img in faces.items():
            cv2.imwrite(str(tmp / f"{code}.png"), img)
        (tmp / "codes").write_text("\n".join(sorted(faces)))
        try:
            tmp.rename(folder)
        except OSError:  # another process got there first
            shutil.rmtree(tmp, ignore_errors=True)


def rsvg(svg: bytes | Path, *, export_id: str | None = None, zoom: float = 1.0) -> np.ndarray:
    """Rasterise SVG (bytes or a file) with ``rsvg-convert`` into BGRA; fonts resolve via fontconfig."""
    cmd = ["rsvg-convert", "-z", str(zoom)]
    if export_id:
        cmd += ["-i", export_id]
    data = None
    if isinstance(svg, Path):
        cmd.append(str(svg))
    else:
        data = svg
    try:
        png = subprocess.run(cmd, input=data, capture_output=True, check=True).stdout
    except FileNotFoundError as exc:
        raise OSError("rsvg-convert is missing: apt-get install librsvg2-bin") from exc
    except subprocess.CalledProcessError as exc:
        raise OSError(f"rsvg-convert failed: {exc.stderr.decode(errors='replace').strip()}") from exc
    img = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3:
        raise OSError(f"rsvg-convert gave no image for {export_id or 'SVG'}")
    if img.shape[2] == 3:  # an opaque drawing may come back without its alpha channel
        img = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
    return img


def over(art: np.ndarray, background: tuple[int, int, int]) -> np.ndarray:
    """Flatten BGRA art onto a plain background colour (BGR)."""
    alpha = art[:, :, 3:4].astype(np.float32) / 255.0
    base = np.empty_like(art[:, :, :3], dtype=np.float32)
    base[:] = background
    return (art[:, :, :3] * alpha + base * (1.0 - alpha)).astype(np.uint8)


def ink_box(art: np.ndarray) -> tuple[int, int, int, int] | None:
    """The bounding box (x0, y0, x1, y1) of a BGRA image's opaque pixels, or None when it is empty."""
    ys, xs = np.nonzero(art[:, :, 3] > 8)
    if len(xs) == 0:
        return None
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def fit_face(img: np.ndarray, background: tuple[int, int, int], margin: float = 0.0) -> np.ndarray:
    """Scale an image onto a FACE_W x FACE_H face, keeping its aspect, centred on ``background``."""
    face = np.empty((FACE_H, FACE_W, 3), np.uint8)
    face[:] = background
    inner_w, inner_h = FACE_W * (1 - 2 * margin), FACE_H * (1 - 2 * margin)
    h, w = img.shape[:2]
    scale = min(inner_w / w, inner_h / h)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    small = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA)
    x0, y0 = (FACE_W - nw) // 2, (FACE_H - nh) // 2
    if small.shape[2] == 4:
        small = over(small, background)
    face[y0:y0 + nh, x0:x0 + nw] = small
    return face


def stretch_face(img: np.ndarray) -> np.ndarray:
    """Resize a full face crop (art already on its own ground) to FACE_W x FACE_H."""
    return cv2.resize(img[:, :, :3], (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)
