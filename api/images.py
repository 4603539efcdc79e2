"""Uploaded photos: read the format and pixel size from the header, refuse, and only then decode.

A 40 KB PNG can claim 100,000 x 100,000 pixels (a decompression bomb); decoding it first would take
30 GB. So the header is parsed first (`vision.imagefile`), the size checked against the limit, the file
checked for truncation, and only then given to OpenCV; each refusal becomes a 4xx naming it.
"""

from __future__ import annotations

from api.errors import ApiError
from vision.imagefile import ImageFileError, Photo, decode_photo


def decode(data: bytes, max_pixels: int, min_side: int | None = None) -> Photo:
    """A photo from uploaded bytes (a large JPEG maybe decoded reduced, see `decode_photo`), refusing
    empty, foreign, oversized, truncated or corrupt files."""
    if not data:
        raise ApiError(400, "empty_upload", "the photo upload is empty (0 bytes)")
    try:
        return decode_photo(data, min_side, max_pixels, any_format=False)
    except ImageFileError as exc:
        if exc.code == "not_an_image":
            raise ApiError(415, exc.code, f"the upload is {exc}") from None
        if exc.code == "too_many_pixels":
            raise ApiError(413, exc.code, f"{exc}; send a smaller photo") from None
        raise ApiError(422, exc.code, str(exc)) from None
