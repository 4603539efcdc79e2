"""Load benchmark of the HTTP API with `wrk` (Debian package) against a server on 127.0.0.1.

    uv run python -m models.measure.http_load [--seconds 20] [--connections 16] [--photo PHOTO] [--fake]
        [--endpoints score,scan] [--checkout DIR] [--polite]

Starts the service (`api.app:create_app`, as `mcr serve` does; with ``--fake``, with the fake detector;
``--checkout``: another checkout's, by its own .venv) on a free loopback port, then runs wrk for
``POST /v1/score`` (a notation hand) and ``POST /v1/scan`` (the photo, multipart) and prints req/s and
p50/p95 latency as a Markdown table; ``errors`` counts answers other than 2xx (a full photo queue's 503s).
``--polite``: /v1/scan alone, loaded by clients that honour a 503's Retry-After (wrk retries at once), each
status's answers and latencies apart.
Needs `apt-get install wrk`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import httpx
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
FAKE_APP = "tests.api.fake_app:create"  # the service with the test suite's fake detector (a checkout's tests/)
FAKE_TILES = "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 5s | 5s"  # what the fake reads: a pure straight, 5s set apart

REPORT = """
done = function(summary, latency, requests)
  io.write(string.format("RESULT %d %d %d %.1f %.1f %.1f\\n", summary.requests, summary.duration,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write
      + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000))
end
"""
BOUNDARY = "mcrlensbenchmark"


def encode(ext: str, width: int = 320, height: int = 240) -> bytes:
    """A small photo-like image (a gradient with a rectangle) in the given format."""
    image = np.zeros((height, width, 3), np.uint8)
    image[:] = np.linspace(40, 200, width, dtype=np.uint8)[None, :, None]
    cv2.rectangle(image, (width // 4, height // 4), (width // 2, height // 2), (255, 255, 255), -1)
    ok, data = cv2.imencode(ext, image)
    if not ok:
        raise ValueError(f"OpenCV cannot encode {ext}")
    return data.tobytes()


class LiveServer:
    """An app factory (``module:function``) served by uvicorn in its own process on a free loopback port while
    the block runs, with ``env`` added to its environment: real sockets, its own GIL. ``checkout``: another
    checkout's service, run by its own ``.venv`` (the previous release, measured side by side)."""

    def __init__(self, factory: str, checkout: Path | None = None, **env: str) -> None:
        self.factory = factory
        self.root = checkout or ROOT  # another checkout is served by its own environment's Python
        self.python = str(checkout / ".venv" / "bin" / "python") if checkout else sys.executable
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._env = {**os.environ, **env}

    def __enter__(self) -> LiveServer:
        command = [self.python, "-m", "uvicorn", "--factory", self.factory, "--host",
                   "127.0.0.1", "--port", str(self.port), "--log-level", "warning"]
        self._process = subprocess.Popen(command, env=self._env, cwd=self.root)
        deadline = time.monotonic() + 180  # generous: start-up crawls on starved shared cores
        while time.monotonic() < deadline and self._process.poll() is None:
            try:
                httpx.get(f"{self.url}/healthz", timeout=1)
                return self
            except httpx.TransportError:
                time.sleep(0.1)
        self.__exit__()
        raise RuntimeError("the server did not start")

    @property
    def pid(self) -> int:
        """The server process's id (to read its memory)."""
        return self._process.pid

    def __exit__(self, *_: object) -> None:
        self._process.terminate()
        try:
            self._process.wait(10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()


def lua_post(body: bytes, content_type: str, folder: Path, name: str) -> Path:
    (folder / f"{name}.body").write_bytes(body)
    script = folder / f"{name}.lua"
    script.write_text(f'wrk.method = "POST"\nwrk.headers["Content-Type"] = "{content_type}"\n'
                      f'local f = io.open("{folder / (name + ".body")}", "rb")\nwrk.body = f:read("*a")\nf:close()\n'
                      + REPORT)
    return script


def run_wrk(url: str, script: Path, seconds: int, connections: int) -> dict[str, float]:
    command = ["wrk", f"-t{min(2, connections)}", f"-c{connections}", f"-d{seconds}s", "--timeout", "30s",
               "-s", str(script), url]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    found = re.search(r"RESULT (\d+) (\d+) (\d+) ([\d.]+) ([\d.]+) ([\d.]+)", done.stdout)
    if not found:
        raise SystemExit(f"unexpected wrk output:\n{done.stdout}\n{done.stderr}")
    requests, micros, errors = (int(found[i]) for i in (1, 2, 3))
    return {"requests": requests, "errors": errors, "rps": requests / (micros / 1e6),
            "p50": float(found[4]), "p95": float(found[5]), "p99": float(found[6])}


async def _polite(url: str, form: bytes, clients: int, seconds: int) -> dict[int, list[float]]:
    """``clients`` clients posting the photo form for ``seconds``, each waiting as a 503's ``Retry-After`` asks
    before its next try (as a phone app would): every answer's latency (s), by status (0: no answer, the
    connection lost)."""
    latencies: dict[int, list[float]] = {}
    headers = {"Content-Type": f"multipart/form-data; boundary={BOUNDARY}"}
    end = time.monotonic() + seconds

    async def client(http: httpx.AsyncClient) -> None:
        while time.monotonic() < end:
            start = time.monotonic()
            try:
                response = await http.post(url, content=form, headers=headers)
            except httpx.TransportError:  # a kept-alive connection the server closed while the client waited
                latencies.setdefault(0, []).append(time.monotonic() - start)
                continue
            latencies.setdefault(response.status_code, []).append(time.monotonic() - start)
            if response.status_code == 503:
                await asyncio.sleep(float(response.headers.get("Retry-After", "1")))

    async with httpx.AsyncClient(timeout=120, limits=httpx.Limits(max_connections=clients)) as http:
        await asyncio.gather(*(client(http) for _ in range(clients)))
    return latencies


def _ms(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, round(share * len(ordered)) - 1)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m models.measure.http_load", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--photo", type=Path, help="photo for /v1/scan (default: a synthetic one)")
    parser.add_argument("--fake", action="store_true", help="serve the fake detector instead of the model")
    parser.add_argument("--checkout", type=Path, help="serve this checkout (with its own .venv) instead of this one")
    parser.add_argument("--endpoints", default="score,scan", help="which to load, of score and scan (default both)")
    parser.add_argument("--polite", action="store_true", help="load /v1/scan with clients that wait as a 503's "
                        "Retry-After asks (not wrk), its answers' latencies by status")
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: apt-get install wrk")
    photo = args.photo.read_bytes() if args.photo else encode(".jpg", 960, 320)
    factory = FAKE_APP if args.fake else "api.app:create_app"
    with LiveServer(factory, args.checkout, FAKE_TILES=FAKE_TILES, MCR_MAX_UPLOAD_MB="15") as server, \
            tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        score = lua_post(json.dumps({"hand": "[567m,2][567s,3]567p234p1s1s", "win": "self_drawn"}).encode(),
                         "application/json", folder, "score")
        form = (f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="photo"; filename="hand.jpg"\r\n'
                f"Content-Type: image/jpeg\r\n\r\n").encode() + photo + f"\r\n--{BOUNDARY}--\r\n".encode()
        scan = lua_post(form, f"multipart/form-data; boundary={BOUNDARY}", folder, "scan")
        check = httpx.post(f"{server.url}/v1/scan", content=form, timeout=60,
                           headers={"Content-Type": f"multipart/form-data; boundary={BOUNDARY}"})
        check.raise_for_status()
        tiles = len(check.json()["tiles"])
        if args.polite:
            by_status = asyncio.run(_polite(f"{server.url}/v1/scan", form, args.connections, args.seconds))
            print(f"/v1/scan, {args.connections} polite clients for {args.seconds} s, scan photo {len(photo) // 1024} KB "
                  f"({tiles} tiles read), {os.cpu_count()} cores")
            print("| status | answers | per s | p50 ms | p95 ms | slowest ms |\n|---|---|---|---|---|---|")
            for status, took in sorted(by_status.items()):
                print(f"| {status} | {len(took)} | {len(took) / args.seconds:.1f} | {_ms(took, 0.5):.0f} | "
                      f"{_ms(took, 0.95):.0f} | {max(took) * 1000:.0f} |")
            return
        scripts = {"score": score, "scan": scan}
        results = {f"/v1/{name}": run_wrk(f"{server.url}/v1/{name}", scripts[name], args.seconds, args.connections)
                   for name in args.endpoints.split(",")}
    detector = "fake detector" if args.fake else f"model {os.environ.get('MCR_MODEL', 'shipped')}"
    print(f"wrk -t{min(2, args.connections)} -c{args.connections} -d{args.seconds}s, {detector}, "
          f"scan photo {len(photo) // 1024} KB ({tiles} tiles read), {os.cpu_count()} cores")
    print("| endpoint | requests | errors | req/s | p50 ms | p95 ms | p99 ms |\n|---|---|---|---|---|---|---|")
    for name, r in results.items():
        print(f"| `{name}` | {r['requests']} | {r['errors']} | {r['rps']:.1f} | {r['p50']:.0f} | {r['p95']:.0f} | "
              f"{r['p99']:.0f} |")


if __name__ == "__main__":
    main()
