"""POST /v1/detect, and every way an uploaded photo can be bad: each a 4xx naming the problem."""

from __future__ import annotations

import struct
import zlib

import pytest

from tests.api.conftest import (
    LIMIT,
    FakeDetector,
    LiveServer,
    encode,
    jpeg_declaring,
    make_client,
)
from tests.conftest import HEIC_PHOTO

HEIC = HEIC_PHOTO.read_bytes()


@pytest.mark.parametrize("ext", [".jpg", ".png", ".webp"])
def test_detect_reads_every_format_phones_send(client, fake, ext):
    response = client.post("/v1/detect", files={"photo": (f"hand{ext}", encode(ext))})
    assert response.status_code == 200
    body = response.json()
    assert (body["image"], body["width"], body["height"]) == (f"hand{ext}", 320, 240)
    assert [t["code"] for t in body["tiles"]] == fake.codes
    assert all(0 <= t["box"][0] < t["box"][2] <= 320 for t in body["tiles"])


def test_detect_reads_an_iphones_heic_photo(client, fake):
    response = client.post("/v1/detect", files={"photo": ("IMG_0001.HEIC", HEIC)})
    assert response.status_code == 200
    body = response.json()
    assert (body["width"], body["height"]) == (480, 640)
    assert all(0 <= t["box"][0] < t["box"][2] <= 480 for t in body["tiles"])


def test_detect_with_no_tiles_is_an_empty_list(fake):
    with make_client(FakeDetector("")) as client:
        response = client.post("/v1/detect", files={"photo": ("empty.png", encode(".png"))})
    assert response.status_code == 200
    assert response.json()["tiles"] == []


def _png_declaring(width: int, height: int) -> bytes:
    """A tiny but complete PNG whose header claims ``width`` x ``height`` pixels."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")


def _truncated(ext: str) -> bytes:
    data = encode(ext)
    return data[: len(data) * 2 // 3]


def _corrupt_png() -> bytes:
    data = bytearray(encode(".png"))
    start = data.find(b"IDAT") + 4
    data[start:start + 40] = b"\x07" * 40  # scrambled compressed pixels; the chunk CRC no longer matches
    return bytes(data)


@pytest.mark.parametrize(("upload", "status", "code", "names"), [
    (b"", 400, "empty_upload", "empty"),
    (b"%PDF-1.7 this is a document, not a photo", 415, "not_an_image", "not an image"),
    (b"GIF89a" + bytes(100), 415, "not_an_image", "JPEG, PNG, WebP or HEIC"),
    (b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(100), 422, "corrupt_image", "corrupt HEIC image"),
    (HEIC[:20_000], 422, "corrupt_image", "end of file"),
    (b"\x00\x00\x00\x1cftypmif1\x00\x00\x00\x00mif1avifmiaf" + bytes(100), 415, "not_an_image", "an AVIF photo"),
    (b"\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1miaf" + bytes(100), 415, "not_an_image", "an AVIF photo"),
    (_png_declaring(100_000, 100_000), 413, "too_many_pixels", "100000x100000"),
    (jpeg_declaring(65_000, 65_000), 413, "too_many_pixels", "65000x65000"),
    (_truncated(".jpg"), 422, "corrupt_image", "truncated"),
    (_truncated(".png"), 422, "corrupt_image", "truncated"),
    (_truncated(".webp"), 422, "corrupt_image", "truncated"),
    (b"\xff\xd8\xff\xe0\x00\x10JFIF", 422, "corrupt_image", "JPEG"),
    (_corrupt_png(), 422, "corrupt_image", "could not read"),
    (_png_declaring(0, 10), 422, "corrupt_image", "0x10"),
])
def test_bad_photos_get_a_4xx_naming_the_problem(client, fake, upload, status, code, names):
    response = client.post("/v1/detect", files={"photo": ("photo.jpg", upload)})
    assert (response.status_code, response.json()["error"]) == (status, code)
    assert names in response.json()["detail"]
    assert fake.calls == 0


def test_a_bomb_is_refused_before_decoding(client, monkeypatch):
    import vision.imagefile

    def never(*_: object) -> None:
        raise AssertionError("decoded a decompression bomb")

    monkeypatch.setattr(vision.imagefile.cv2, "imdecode", never)
    response = client.post("/v1/detect", files={"photo": ("bomb.png", _png_declaring(50_000, 50_000))})
    assert response.status_code == 413


def test_the_pixel_limit_is_a_setting(fake):
    with make_client(fake, max_pixels=320 * 240 - 1) as client:
        response = client.post("/v1/detect", files={"photo": ("a.png", encode(".png"))})
    assert response.json()["error"] == "too_many_pixels"


def test_an_upload_over_the_limit_is_refused(client, fake):
    response = client.post("/v1/detect", files={"photo": ("big.jpg", b"\xff" * (LIMIT + 1))})
    assert (response.status_code, response.json()["error"]) == (413, "too_large")
    assert f"{LIMIT / 2**20:g} MB" in response.json()["detail"]
    assert fake.calls == 0


def test_the_limit_is_enforced_while_streaming():
    """A chunked upload (no Content-Length) is answered 413 once it passes the limit, not read to the end."""
    import socket

    chunk, offered = b"x" * 65536, 100  # 6.4 MB offered, far over the 200 kB limit
    with LiveServer() as server, socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        conn.sendall(b"POST /v1/detect HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n"
                     b"Content-Type: multipart/form-data; boundary=b\r\n\r\n")
        part = b'--b\r\nContent-Disposition: form-data; name="photo"; filename="a.jpg"\r\n\r\n'
        conn.sendall(b"%x\r\n%s\r\n" % (len(part), part))
        conn.settimeout(0.05)
        answer, sent = b"", 0
        while sent < offered and not answer:
            try:
                conn.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += 1
                answer = conn.recv(4096)
            except TimeoutError:
                continue
            except OSError:  # the server closed the connection after answering
                break
        conn.settimeout(10)
        while not answer.endswith(b"}"):  # the status line and the JSON body may come in separate packets
            answer += conn.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413")
    assert b"too_large" in answer
    assert sent < offered


def test_a_declared_length_over_the_limit_is_refused_unread(client):
    response = client.post("/v1/detect", content=b"x", headers={"content-length": str(10 * LIMIT),
                                                               "content-type": "multipart/form-data; boundary=b"})
    assert (response.status_code, response.json()["error"]) == (413, "too_large")


@pytest.mark.parametrize(("files", "data", "names"), [
    ({}, {}, "photo"),
    ({"photo": ("a.png", encode(".png"))}, {"colour": "red"}, "colour"),
    (None, {"photo": "not a file"}, "photo"),
])
def test_bad_form_fields_are_a_422(client, files, data, names):
    response = client.post("/v1/detect", files=files, data=data)
    assert (response.status_code, response.json()["error"]) == (422, "invalid_request")
    assert names in response.json()["detail"]


def test_without_a_model_photos_get_a_503_and_health_says_so(tmp_path):
    with make_client(model_path=tmp_path / "absent.onnx") as client:
        response = client.post("/v1/detect", files={"photo": ("a.png", encode(".png"))})
        assert (response.status_code, response.json()["error"]) == (503, "no_model")
        assert "absent.onnx" in response.json()["detail"]
        assert client.get("/healthz").json() == {"status": "ok", "model": "missing"}
        assert client.get("/v1/model").status_code == 503
