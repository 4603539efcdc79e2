"""Settings from MCR_* variables, OpenAPI documentation, and `mcr serve` serving for real."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time

import httpx
import pytest

from api.cli import main
from api.settings import MB, Settings, get_settings
from tests.api.conftest import ROOT, make_client


def test_settings_come_from_the_environment():
    settings = Settings.from_env({"MCR_MAX_UPLOAD_MB": "2.5", "MCR_MAX_PIXELS": "1000", "MCR_INFERENCE_WORKERS": "3",
                                  "MCR_MODEL": "/tmp/x.onnx", "MCR_LEDGER": "/tmp/sheets.sqlite3"})
    assert (settings.max_upload_bytes, settings.max_pixels, settings.inference_workers) == (int(2.5 * MB), 1000, 3)
    assert str(settings.model_path) == "/tmp/x.onnx" and str(settings.ledger_path) == "/tmp/sheets.sqlite3"
    assert Settings.from_env({}).max_upload_bytes == 15 * MB


@pytest.mark.parametrize(("env", "names"), [
    ({"MCR_MAX_UPLOAD_MB": "lots"}, "MCR_MAX_UPLOAD_MB"),
    ({"MCR_INFERENCE_WORKERS": "0"}, "inference_workers"),
    ({"MCR_CONF": "1.5"}, "conf"),
])
def test_bad_settings_name_the_variable(env, names):
    with pytest.raises(ValueError, match=names):
        Settings.from_env(env)


def test_every_endpoint_is_documented_with_an_operation_id():
    schema = make_client().get("/openapi.json").json()
    operations = {(path, method): op for path, item in schema["paths"].items() for method, op in item.items()}
    assert {path for path, _ in operations} >= {"/healthz", "/v1/model", "/v1/tiles", "/v1/score", "/v1/hand",
                                                "/v1/detect", "/v1/scan", "/v1/waits", "/v1/matches"}
    assert all(op.get("operationId") and op.get("description") for op in operations.values())
    assert schema["components"]["schemas"]["ScoreRequest"]["examples"]
    assert schema["components"]["schemas"]["ScanForm"]["additionalProperties"] is False


def test_tiles_endpoint_is_the_vocabulary():
    from scoring.tiles import CLASS_NAMES

    faces = make_client().get("/v1/tiles").json()
    assert [f["code"] for f in faces] == list(CLASS_NAMES)
    assert {"code": "5p", "kind": "p", "rank": 5, "en": "5 Dots", "zh": "五筒"} in faces


def test_the_page_and_its_assets_are_served_without_outside_links():
    client = make_client()
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    match = client.get("/match")
    assert match.status_code == 200 and "match.js" in match.text and "https://" not in match.text
    for asset in ("app.js", "common.js", "tiles.js", "waits.js", "match.js", "style.css"):
        response = client.get(f"/{asset}")
        assert response.status_code == 200
        assert "http://" not in response.text and "https://" not in response.text
    assert "https://" not in page.text and "http://" not in page.text


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_the_api_documentation_renders_from_the_service_alone(page: str) -> None:
    """Swagger UI and ReDoc: every script, style and icon the page loads is served here (no CDN: a table without
    internet still gets the API's documentation), and the schema it renders is the service's own."""
    client = make_client()
    html = client.get(page)
    assert html.status_code == 200 and "text/html" in html.headers["content-type"]
    loaded = [*re.findall(r"""(?:src|href)=["']([^"']+)["']""", html.text),
              *re.findall(r"""url: ?["']([^"']+)["']""", html.text)]  # the assets, the schema (Swagger UI's `url`)
    assert loaded and all(url.startswith("/") and not url.startswith("//") for url in loaded), loaded
    assert "/openapi.json" in html.text and client.get("/openapi.json").json()["info"]["title"] == "MCR Lens"
    for url in loaded:
        asset = client.get(url)
        assert asset.status_code == 200 and len(asset.content) > 0, url
    assert not re.search(r"(?:src|href|url)\s*[=:]\s*[\"']?(?:https?:)?//", html.text)


def test_unknown_paths_are_a_json_404():
    response = make_client().get("/v1/nothing")
    assert (response.status_code, response.json()["error"]) == (404, "not_found")


@pytest.mark.parametrize(("argv", "names"), [(["serve", "--port", "0"], "--port"),
                                             (["serve", "--workers", "0"], "--workers")])
def test_serve_refuses_bad_arguments(capsys, argv, names):
    assert main(argv) == 2
    assert names in capsys.readouterr().err


def test_serve_reports_a_bad_setting_as_one_line(monkeypatch, capsys):
    get_settings.cache_clear()
    monkeypatch.setenv("MCR_MAX_PIXELS", "many")
    try:
        assert main(["serve", "--port", "8123"]) == 2
    finally:
        get_settings.cache_clear()
    assert "MCR_MAX_PIXELS" in capsys.readouterr().err


def test_mcr_serve_answers_on_loopback():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "api.cli", "serve", "--port", str(port)], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 180  # generous: start-up crawls on starved shared cores
        while True:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and server.poll() is None, "mcr serve did not start"
                time.sleep(0.2)
        assert health.json()["status"] == "ok"
        scored = httpx.post(f"http://127.0.0.1:{port}/v1/score", json={"hand": "[567m,2][567s,3]567p234p1s1s"})
        assert scored.json()["is_win"] is True
    finally:
        server.terminate()
        server.wait(10)


@pytest.mark.parametrize(("workers", "expected"), [(1, 4), (2, 2), (8, 1)])
def test_serve_shares_the_cores_between_worker_processes(monkeypatch, workers, expected):
    """The cores this process may run on (a container narrows them to 4 of the machine's 64), as `mcr label`
    counts them, shared between the worker processes."""
    import uvicorn

    monkeypatch.delenv("MCR_INFERENCE_WORKERS", raising=False)
    monkeypatch.setattr("os.cpu_count", lambda: 64)
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    get_settings.cache_clear()
    try:
        assert main(["serve", "--workers", str(workers)]) == 0
        assert os.environ["MCR_INFERENCE_WORKERS"] == str(expected)
        assert get_settings().inference_workers == expected
    finally:
        get_settings.cache_clear()


def test_inference_workers_default_to_the_cores_this_process_may_use(monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 64)
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    assert Settings().inference_workers == 3
