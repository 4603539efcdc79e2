"""Image files by their header: format, declared pixel size, and whether the file ends whole.

Read before decoding, so a decompression bomb (a small file declaring 100,000 x 100,000 pixels) is refused
without allocating it, and a truncated upload is told apart from a corrupt one. JPEG, PNG and WebP: what
phones and browsers send. Used by the HTTP upload path and by batch labelling (reduced JPEG decoding).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass


class ImageFileError(ValueError):
    """Not an image we read (``code`` "not_an_image") or a damaged one ("corrupt_image")."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


FORMATS = "JPEG, PNG or WebP"
_JPEG_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


@dataclass(frozen=True)
class ImageHeader:
    """What the first bytes of a file say: its format, its size in pixels, and whether it ends whole."""

    format: str
    width: int
    height: int
    complete: bool


def corrupt(fmt: str, why: str) -> ImageFileError:
    return ImageFileError("corrupt_image", f"corrupt {fmt} image: {why}")


def _jpeg(data: bytes) -> ImageHeader:
    """Walk the marker segments to the frame header (size) and the first scan (to look for the end)."""
    pos, size = 2, None
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            raise corrupt("JPEG", f"no marker at byte {pos}")
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # markers without a length
            pos += 2
            continue
        (length,) = struct.unpack(">H", data[pos + 2:pos + 4])
        if marker in _JPEG_SOF and pos + 9 <= len(data):
            height, width = struct.unpack(">HH", data[pos + 5:pos + 9])
            size = (width, height)
        if marker == 0xDA:  # start of scan: entropy-coded data follows, ended by EOI (FF D9)
            if size is None:
                raise corrupt("JPEG", "scan data before the frame header")
            return ImageHeader("JPEG", *size, complete=data.find(b"\xff\xd9", pos + 2 + length) >= 0)
        pos += 2 + length
    raise corrupt("JPEG", "the file ends before the image data (truncated)")


def _png(data: bytes) -> ImageHeader:
    if len(data) < 24 or data[12:16] != b"IHDR":
        raise corrupt("PNG", "no IHDR header (truncated)")
    width, height = struct.unpack(">II", data[16:24])
    return ImageHeader("PNG", width, height, complete=data.rfind(b"IEND") > 24)


def _webp(data: bytes) -> ImageHeader:
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        width = 1 + int.from_bytes(data[24:27], "little")
        height = 1 + int.from_bytes(data[27:30], "little")
    elif chunk == b"VP8 " and len(data) >= 30:
        width, height = (v & 0x3FFF for v in struct.unpack("<HH", data[26:30]))
    elif chunk == b"VP8L" and len(data) >= 25:
        (bits,) = struct.unpack("<I", data[21:25])
        width, height = 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    else:
        raise corrupt("WebP", "no VP8/VP8L/VP8X header (truncated)")
    (riff_size,) = struct.unpack("<I", data[4:8])
    return ImageHeader("WebP", width, height, complete=len(data) >= riff_size + 8)


def read_header(data: bytes) -> ImageHeader:
    """The format and size a file declares; `ImageFileError` if it is not a JPEG, PNG or WebP at all."""
    if data.startswith(b"\xff\xd8\xff"):
        return _jpeg(data)
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return _png(data)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp(data)
    raise ImageFileError("not_an_image", f"not an image: send a {FORMATS} photo")
