"""The HTTP service's memory through many varied uploads: ``uv run python -m models.measure.http_memory [--n 1000]``.

Starts the service with the shipped models on a loopback port (as `models.measure.http_load` does) and sends
``--n`` photo requests from ``--clients`` clients at once, cycling through what users and broken clients send: the
held-out real hand photos (from ../shared) at their own 640 px and made 12 MP, as JPEG, PNG and WebP, to
``/v1/scan`` and ``/v1/detect``, some asking for the annotated photo; and truncated JPEGs, random bytes, empty
uploads, headers declaring 60,000 x 60,000 pixels and bodies over the upload limit. Prints the server's
resident memory (VmRSS) every 100 uploads and its peak (VmHWM), and the answers by status.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import struct
from collections import Counter
from pathlib import Path

import cv2
import httpx

from models.measure.http_load import LiveServer
from models.measure.scan_real import hand_photos
from models.measure.scan_speed import twelve_megapixels


def _declaring(jpeg: bytes, width: int, height: int) -> bytes:
    """The JPEG with its frame header rewritten to claim another size (a decompression bomb's header)."""
    data = bytearray(jpeg)
    sof = data.find(b"\xff\xc0")
    data[sof + 5:sof + 9] = struct.pack(">HH", height, width)
    return bytes(data)


def uploads(seed: int) -> list[tuple[str, bytes, dict[str, str]]]:
    """(endpoint, file bytes, form fields) of every kind sent, good and bad."""
    rng = random.Random(seed)
    photos = [cv2.imread(str(p)) for p in hand_photos()[::5]]
    found: list[tuple[str, bytes, dict[str, str]]] = []
    for photo in photos:
        large = twelve_megapixels(photo)
        jpeg = cv2.imencode(".jpg", photo)[1].tobytes()
        big = cv2.imencode(".jpg", large, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()
        found += [("/v1/scan", jpeg, {}), ("/v1/scan", jpeg, {"annotate": "true"}),
                  ("/v1/scan", big, {}), ("/v1/detect", big, {}),
                  ("/v1/scan", cv2.imencode(".png", photo)[1].tobytes(), {}),
                  ("/v1/scan", cv2.imencode(".webp", photo)[1].tobytes(), {}),
                  ("/v1/scan", big[: len(big) // 2], {}),
                  ("/v1/scan", _declaring(jpeg, 60_000, 60_000), {}),
                  ("/v1/scan", rng.randbytes(200_000), {}),
                  ("/v1/scan", b"", {}),
                  ("/v1/scan", big + bytes(16 * 1024 * 1024), {})]  # over the 15 MB limit
    return found


def _rss(pid: int) -> tuple[int, int]:
    """The process's resident and peak resident memory, in MB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) // 1024, int(fields["VmHWM"].split()[0]) // 1024


async def _send(url: str, plan: list[tuple[str, bytes, dict[str, str]]], clients: int, pid: int) -> Counter:
    statuses: Counter = Counter()
    queue: asyncio.Queue = asyncio.Queue()
    for i, item in enumerate(plan):
        queue.put_nowait((i, item))

    async def client(http: httpx.AsyncClient) -> None:
        while not queue.empty():
            i, (path, data, fields) = queue.get_nowait()
            try:
                response = await http.post(path, files={"photo": ("upload.jpg", data)}, data=fields)
                statuses[response.status_code] += 1
            except httpx.TransportError:
                statuses["cut off"] += 1
            if (i + 1) % 100 == 0:
                print(f"{i + 1:5d} uploads: {_rss(pid)[0]} MB resident", flush=True)

    async with httpx.AsyncClient(base_url=url, timeout=120) as http:
        await asyncio.gather(*(client(http) for _ in range(clients)))
    return statuses


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m models.measure.http_memory", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--checkout", type=Path, help="serve this checkout (with its own .venv) instead of this one: "
                        "the previous release, side by side")
    args = parser.parse_args(argv)
    kinds = uploads(args.seed)
    plan = [kinds[i % len(kinds)] for i in range(args.n)]
    random.Random(args.seed).shuffle(plan)
    with LiveServer("api.app:create_app", args.checkout, MCR_MAX_UPLOAD_MB="15") as server:
        pid = server.pid
        print(f"started: {_rss(pid)[0]} MB resident")
        statuses = asyncio.run(_send(server.url, plan, args.clients, pid))
        resident, peak = _rss(pid)
    print(f"after {args.n} uploads ({len(kinds)} kinds, {args.clients} clients): {resident} MB resident, "
          f"peak {peak} MB; answers {dict(sorted(statuses.items(), key=str))}")


if __name__ == "__main__":
    main()
