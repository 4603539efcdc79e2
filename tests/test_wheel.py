"""The wheel carries the runtime only (scoring, vision with its label formats, api) and the shipped ONNX models,
which the runtime finds there (`vision.weights`); no training workbench, no top-level `datasets` or `models`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from vision import weights

ROOT = Path(__file__).resolve().parents[1]
RUNTIME = ["scoring", "vision", "api"]
MAX_BYTES = 16_000_000  # the detector is 10.7 MB, the readers and the refiner 0.7-0.9 MB each, the code far less


def test_the_wheel_is_configured_as_the_runtime_and_the_shipped_models() -> None:
    wheel = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert wheel["packages"] == RUNTIME
    assert wheel["force-include"] == {f"models/{name}": f"vision/shipped/{name}" for name in weights.SHIPPED}
    assert all((ROOT / "models" / name).is_file() for name in weights.SHIPPED)


@pytest.mark.slow
def test_the_built_wheel_holds_the_runtime_and_reads_a_photo_from_its_own_files(tmp_path: Path) -> None:
    if shutil.which("uv") is None:
        pytest.skip("uv is not on PATH (.ci/run installs it)")
    subprocess.run(["uv", "build", "--wheel", "-o", str(tmp_path / "dist")], cwd=ROOT, check=True,
                   capture_output=True)
    (built,) = (tmp_path / "dist").glob("*.whl")
    assert built.stat().st_size < MAX_BYTES
    with zipfile.ZipFile(built) as wheel:
        names = wheel.namelist()
        wheel.extractall(tmp_path / "site")
    assert {name.split("/")[0] for name in names} == {*RUNTIME, next(n for n in names if ".dist-info/" in n).split("/")[0]}
    assert sorted(n for n in names if not n.endswith((".py", ".typed")) and ".dist-info/" not in n
                  and not n.startswith("api/static/")) == sorted(f"vision/shipped/{name}" for name in weights.SHIPPED)
    # From the wheel's own files (they come first on the path): the models found in vision/shipped, a photo read.
    probe = ("import json, sys; from vision import weights; from api.cli import main; "
             "print(json.dumps(str(weights.models_dir()))); sys.exit(main(['scan', sys.argv[1], '--json']))")
    done = subprocess.run([sys.executable, "-c", probe, str(ROOT / "examples" / "hand.jpg")], capture_output=True,
                          text=True, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path / "site")})
    assert done.returncode == 0, done.stderr
    found, scanned = done.stdout.splitlines()[0], json.loads("\n".join(done.stdout.splitlines()[1:]))
    assert json.loads(found) == str(tmp_path / "site" / "vision" / "shipped")
    assert scanned["hand"] is not None
