"""Load benchmark of the HTTP API with `wrk` (Debian package) against a server on 127.0.0.1.

    uv run python -m tests.api.benchmark_http [--seconds 20] [--connections 16] [--photo PHOTO] [--fake]

Starts the service (`api.app:create_app`, as `mcr serve` does; with ``--fake``, with the fake detector)
on a free loopback port, then runs wrk for
``POST /v1/score`` (a notation hand) and ``POST /v1/scan`` (the photo, multipart) and prints req/s and
p50/p95 latency as a Markdown table. Needs `apt-get install wrk`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import httpx

from tests.api.conftest import HAND, LiveServer, encode

REPORT = """
done = function(summary, latency, requests)
  io.write(string.format("RESULT %d %d %d %.1f %.1f %.1f\\n", summary.requests, summary.duration,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write
      + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000))
end
"""
BOUNDARY = "mcrlensbenchmark"


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--photo", type=Path, help="photo for /v1/scan (default: a synthetic one)")
    parser.add_argument("--fake", action="store_true", help="serve the fake detector instead of the model")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: apt-get install wrk")
    photo = args.photo.read_bytes() if args.photo else encode(".jpg", 960, 320)
    factory = "tests.api.fake_app:create" if args.fake else "api.app:create_app"
    with LiveServer(factory, FAKE_TILES=HAND, MCR_MAX_UPLOAD_MB="15") as server, \
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
        results = {"/v1/score": run_wrk(f"{server.url}/v1/score", score, args.seconds, args.connections),
                   "/v1/scan": run_wrk(f"{server.url}/v1/scan", scan, args.seconds, args.connections)}
    detector = "fake detector" if args.fake else f"model {os.environ.get('MCR_MODEL', 'shipped')}"
    print(f"wrk -t{min(2, args.connections)} -c{args.connections} -d{args.seconds}s, {detector}, "
          f"scan photo {len(photo) // 1024} KB ({tiles} tiles read), {os.cpu_count()} cores")
    print("| endpoint | requests | errors | req/s | p50 ms | p95 ms | p99 ms |\n|---|---|---|---|---|---|---|")
    for name, r in results.items():
        print(f"| `{name}` | {r['requests']} | {r['errors']} | {r['rps']:.1f} | {r['p50']:.0f} | {r['p95']:.0f} | "
              f"{r['p99']:.0f} |")


if __name__ == "__main__":
    main()
