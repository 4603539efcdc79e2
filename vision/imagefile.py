"""Image files by their header (format, declared pixel size, whether the file ends whole), and decoded.

The header is read before decoding, so a decompression bomb (a small file declaring 100,000 x 100,000
pixels) is refused without allocating it, and a truncated upload is told apart from a corrupt one. JPEG,
PNG and WebP: what phones and browsers send; and HEIC / HEIF, what iPhones save their photos as (decoded by
libheif through ``pi-heif``, its own rotation applied). A large JPEG can be decoded at a reduced scale (libjpeg
scales while decoding: half of a 12-MP photo comes ~3× faster than all of it) when the reader needs
fewer pixels: `mcr scan`, ``/v1/scan`` and batch labelling do; a large HEIC is decoded whole and shrunk as a JPEG
would be decoded. Stage 1 of the pipeline, decode: a photo file (`load_photo`) or an upload's bytes
(`decode_photo`) to a `Photo`.
"""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.detections import TileDetections

if TYPE_CHECKING:
    from pi_heif import HeifFile


class ImageFileError(ValueError):
    """Not an image we read (``code`` "not_an_image") or a damaged one ("corrupt_image")."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


FORMATS = "JPEG, PNG, WebP or HEIC"
MAX_PIXELS = 250_000_000  # the most pixels a photo file is decoded at: over a 200-MP phone camera's, under what a
# decompression bomb declares (a 60 KB JPEG can claim 60,000 x 60,000, 10 GB decoded); the API sets its own
# (MCR_MAX_PIXELS)
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
            # a whole file ends with EOI: checked first, since looking for it through 3 MB of scan takes 2 ms
            scan = pos + 2 + length
            ended = (data.endswith(b"\xff\xd9") and len(data) >= scan + 2) or data.find(b"\xff\xd9", scan) >= 0
            return ImageHeader("JPEG", *size, complete=ended)
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


class UnreadFormat(ImageFileError):
    """A photo in a format known and not read (`UNREAD_BRANDS`): said so by name, never tried as another."""

    def __init__(self, name: str) -> None:
        article = "an" if name[0] in "AEIOU" else "a"
        super().__init__("not_an_image", f"{article} {name} photo, which is not read here: send a {FORMATS} photo")


HEIF_BRANDS = {b"heic": "HEIC", b"heix": "HEIC", b"heim": "HEIC", b"heis": "HEIC", b"hevc": "HEIC", b"hevx": "HEIC",
               b"mif1": "HEIF", b"msf1": "HEIF"}  # an ISO media file's major brand (its `ftyp` box): what iPhones
# (HEIC) and some Android phones (HEIF) save photos as
UNREAD_BRANDS = {b"avif": "AVIF", b"avis": "AVIF"}  # AV1 in the same container (some Android phones), among the
# file's brands, major or compatible: the libheif that pi-heif ships decodes HEVC alone


def _iso_brands(data: bytes) -> tuple[bytes, list[bytes]]:
    """An ISO media file's major brand and its compatible ones (its leading `ftyp` box)."""
    (size,) = struct.unpack(">I", data[:4])
    return data[8:12], [data[k:k + 4] for k in range(16, min(size, len(data)) - 3, 4)]


def _open_heif(data: bytes, name: str, bgr: bool = False) -> HeifFile:
    """The HEIF file read by libheif (metadata now, pixels when an image's data is asked for). pi-heif is imported
    here, by the HEIC photos alone: it loads Pillow, 40 ms of every command's start otherwise."""
    import pi_heif

    try:
        return pi_heif.open_heif(io.BytesIO(data), bgr_mode=bgr)
    except (ValueError, RuntimeError) as exc:
        raise corrupt(name, str(exc)) from None


def _heif(data: bytes, name: str) -> ImageHeader:
    """The size of a HEIF file's primary image as shown (its rotation applied), from its metadata alone: the pixels
    are decoded once the size is checked, and a file cut short past its metadata is told then."""
    return ImageHeader(name, *_open_heif(data, name).size, complete=True)


def read_header(data: bytes) -> ImageHeader:
    """The format and size a file declares; `ImageFileError` if it is not a JPEG, PNG, WebP or HEIC / HEIF at all
    (`UnreadFormat` for an AVIF photo)."""
    if data.startswith(b"\xff\xd8\xff"):
        return _jpeg(data)
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return _png(data)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp(data)
    if data[4:8] == b"ftyp":
        major, compatible = _iso_brands(data)
        unread = next((UNREAD_BRANDS[b] for b in (major, *compatible) if b in UNREAD_BRANDS), None)
        if unread is not None:
            raise UnreadFormat(unread)
        if major in HEIF_BRANDS:
            return _heif(data, HEIF_BRANDS[major])
    raise ImageFileError("not_an_image", f"not an image: send a {FORMATS} photo")


_REDUCED_DECODES = ((8, cv2.IMREAD_REDUCED_COLOR_8), (4, cv2.IMREAD_REDUCED_COLOR_4), (2, cv2.IMREAD_REDUCED_COLOR_2))


@dataclass(frozen=True, eq=False)
class Photo:
    """A photo's upright pixels, maybe decoded at reduced scale, and its true upright size."""

    pixels: np.ndarray
    width: int
    height: int
    source: bytes | None = field(default=None, repr=False)  # the file's bytes, kept when decoded reduced

    def whole(self) -> Photo:
        """The photo decoded at its own size (itself when it was)."""
        return self if self.source is None else decode_photo(self.source, max_pixels=self.width * self.height)

    def to_original(self, detections: TileDetections) -> TileDetections:
        """Boxes found on ``pixels`` in the photo's own pixels."""
        h, w = self.pixels.shape[:2]
        if (w, h) == (self.width, self.height):
            return detections
        scale = np.array([self.width / w, self.height / h] * 2, np.float32)
        return detections.with_boxes(detections.xyxy * scale)

    def full_size(self) -> np.ndarray:
        """The pixels at the photo's own size (enlarged when decoded reduced): a canvas for drawing on."""
        if self.pixels.shape[:2] == (self.height, self.width):
            return self.pixels
        return cv2.resize(self.pixels, (self.width, self.height), interpolation=cv2.INTER_LINEAR)


def decode_photo(data: bytes, min_side: int | None = None, max_pixels: int | None = None,
                 any_format: bool = True) -> Photo:
    """A photo from its file's bytes, EXIF-upright; a JPEG is decoded at the smallest scale (1/8, 1/4,
    1/2) whose long side is still ``min_side`` pixels or more (None: always whole). `ImageFileError` (a
    ValueError) when the bytes are no image we decode, or a JPEG, PNG or WebP whose header is damaged, declares
    more than ``max_pixels`` (None: `MAX_PIXELS`) or whose file is truncated: all told before decoding allocates
    anything. Other formats OpenCV reads (BMP, TIFF) are held to OpenCV's own pixel cap, or refused
    (``not_an_image``) with ``any_format=False``, as the API refuses uploads it cannot check first."""
    header = _checked_header(data, MAX_PIXELS if max_pixels is None else max_pixels, any_format)
    try:
        photo = _decoded(data, header, min_side)
    except cv2.error as exc:  # OpenCV's own limits (its pixel cap, a size it cannot allocate)
        raise ImageFileError("corrupt_image", f"the decoder refused it ({exc.err})") from None
    if photo is not None:
        return photo
    if header is not None:
        raise corrupt(header.format, "the decoder could not read it")
    raise ImageFileError("not_an_image", "not an image (unreadable, truncated or unsupported format)")


def _checked_header(data: bytes, max_pixels: int, any_format: bool) -> ImageHeader | None:
    """The header of a JPEG, PNG or WebP, checked: a size declared, at most ``max_pixels``, the file whole. None
    for another format when ``any_format``."""
    try:
        header = read_header(data)
    except ImageFileError as exc:
        if exc.code == "not_an_image" and any_format and not isinstance(exc, UnreadFormat):
            return None
        raise  # a JPEG, PNG or WebP whose header is damaged (its size cannot be trusted), or a format not read
    if header.width == 0 or header.height == 0:
        raise corrupt(header.format, f"it declares a size of {header.width}x{header.height} pixels")
    if header.width * header.height > max_pixels:
        raise ImageFileError("too_many_pixels", f"the {header.format} image declares {header.width}x{header.height} "
                             f"pixels, over the limit of {max_pixels:,}")
    if not header.complete:
        raise corrupt(header.format, "the file is truncated (its end marker is missing)")
    return header


def _decoded(data: bytes, header: ImageHeader | None, min_side: int | None) -> Photo | None:
    if header is not None and header.format in HEIF_BRANDS.values():
        return _decoded_heif(data, header, min_side)
    buffer = np.frombuffer(data, np.uint8)
    if header is not None and header.format == "JPEG":
        w, h = header.width, header.height  # as stored, before the EXIF rotation
        reduction = _reduction(w, h, min_side)
        if reduction is not None:
            k, flag = reduction
            pixels = cv2.imdecode(buffer, flag)
            straight, turned = (-(-h // k), -(-w // k)), (-(-w // k), -(-h // k))  # libjpeg rounds up
            if pixels is not None and straight != turned and pixels.shape[:2] in (straight, turned):
                return Photo(pixels, *((w, h) if pixels.shape[:2] == straight else (h, w)), data)
            # undecodable, or the EXIF rotation not told apart by the size: decoded whole, as below
    pixels = cv2.imdecode(buffer, cv2.IMREAD_COLOR) if len(buffer) else None
    return None if pixels is None else Photo(pixels, pixels.shape[1], pixels.shape[0])


def _reduction(width: int, height: int, min_side: int | None) -> tuple[int, int] | None:
    """The largest reduction of `_REDUCED_DECODES` (the factor, and OpenCV's flag to decode a JPEG so) that leaves the
    long side ``min_side`` pixels or more; None when none does or no side is asked."""
    return next(((k, flag) for k, flag in _REDUCED_DECODES if min_side and max(width, height) // k >= min_side), None)


def _decoded_heif(data: bytes, header: ImageHeader, min_side: int | None) -> Photo:
    """A HEIC / HEIF photo decoded whole (libheif applies its rotation), then, as a JPEG would be decoded, shrunk by
    the largest of 8, 4 or 2 that leaves its long side ``min_side`` pixels or more (None: kept whole)."""
    heif = _open_heif(data, header.format, bgr=True)
    try:
        pixels = np.array(heif[0])[..., :3]  # copied while ``heif`` holds the decoded buffer; no alpha plane
    except (ValueError, RuntimeError) as exc:  # the data past the metadata cut short or damaged
        raise corrupt(header.format, str(exc)) from None
    pixels = np.ascontiguousarray(pixels)
    height, width = pixels.shape[:2]
    reduction = _reduction(width, height, min_side)
    if reduction is None:
        return Photo(pixels, width, height)
    k, _ = reduction
    shrunk = cv2.resize(pixels, (-(-width // k), -(-height // k)), interpolation=cv2.INTER_AREA)
    return Photo(shrunk, width, height, data)


def load_image(path: str | Path) -> np.ndarray:
    """A photo as a BGR uint8 array, EXIF orientation applied; a clear error for anything else."""
    return load_photo(path).pixels


def load_photo(path: str | Path, min_side: int | None = None) -> Photo:
    """A photo file, EXIF-upright, a large JPEG maybe decoded reduced (`decode_photo`); a clear error
    naming the file for anything else."""
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"{path}: a folder, not a photo file")
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise OSError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        return decode_photo(data, min_side)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
