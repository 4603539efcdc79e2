"""Uploaded photos: read the format and pixel size from the header, refuse, and only then decode.

A 40 KB PNG can claim 100,000 x 100,000 pixels (a decompression bomb); decoding it first would take
30 GB. So the header is parsed here by hand (JPEG, PNG, WebP: what phones and browsers send), the
size checked against the limit, the file checked for truncation, and only then given to OpenCV.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import cv2
import numpy as np

from api.errors import ApiError

FORMATS = "JPEG, PNG or WebP"
_JPEG_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


@dataclass(frozen=True)
class ImageHeader:
    """What the first bytes of a file say: its format, its size in pixels, and whether it ends whole."""

    format: str
    width: int
    height: int
    complete: bool


def _corrupt(fmt: str, why: str) -> ApiError:
    return ApiError(422, "corrupt_image", f"corrupt {fmt} image: {why}")


def _jpeg(data: bytes) -> ImageHeader:
    """Walk the marker segments to the frame header (size) and the first scan (to look for the end)."""
    pos, size = 2, None
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            raise _corrupt("JPEG", f"no marker at byte {pos}")
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
                raise _corrupt("JPEG", "scan data before the frame header")
            return ImageHeader("JPEG", *size, complete=data.find(b"\xff\xd9", pos + 2 + length) >= 0)
        pos += 2 + length
    raise _corrupt("JPEG", "the file ends before the image data (truncated)")


def _png(data: bytes) -> ImageHeader:
    if len(data) < 24 or data[12:16] != b"IHDR":
        raise _corrupt("PNG", "no IHDR header (truncated)")
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
        raise _corrupt("WebP", "no VP8/VP8L/VP8X header (truncated)")
    (riff_size,) = struct.unpack("<I", data[4:8])
    return ImageHeader("WebP", width, height, complete=len(data) >= riff_size + 8)


def read_header(data: bytes) -> ImageHeader:
    """The format and size a file declares; ``ApiError`` if it is not a JPEG, PNG or WebP at all."""
    if data.startswith(b"\xff\xd8\xff"):
        return _jpeg(data)
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return _png(data)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp(data)
    raise ApiError(415, "not_an_image", f"the upload is not an image: send a {FORMATS} photo")


def decode(data: bytes, max_pixels: int) -> np.ndarray:
    """A BGR photo from uploaded bytes, refusing empty, foreign, oversized, truncated or corrupt files."""
    if not data:
        raise ApiError(400, "empty_upload", "the photo upload is empty (0 bytes)")
    header = read_header(data)
    if header.width == 0 or header.height == 0:
        raise _corrupt(header.format, f"it declares a size of {header.width}x{header.height} pixels")
    if header.width * header.height > max_pixels:
        raise ApiError(413, "too_many_pixels",
                       f"the {header.format} image declares {header.width}x{header.height} pixels, over the "
                       f"limit of {max_pixels:,}; send a smaller photo")
    if not header.complete:
        raise _corrupt(header.format, "the file is truncated (its end marker is missing)")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise _corrupt(header.format, "the decoder could not read it")
    return image
