"""The runtime (scoring, vision, api) imports nothing of the training workbench (`models`, `datasets`): the HTTP
service and the `mcr` parser load neither, nor PyYAML or torch, and no runtime module names them but the two
commands that run the workbench (`mcr train`, `mcr synth`), which check for a checkout first."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from api.cli import main

ROOT = Path(__file__).resolve().parents[1]
WORKBENCH = ("models", "datasets")
RUNTIME = ("scoring", "vision", "api")
WORKBENCH_COMMANDS = {Path("api/cli/train.py"), Path("api/cli/synth.py")}


def loaded_after(code: str) -> set[str]:
    """The top-level packages a fresh interpreter has loaded after running ``code``."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


@pytest.mark.parametrize(("code", "forbidden"), [
    ("import api.app", {*WORKBENCH, "yaml", "torch", "ultralytics"}),
    ("from api.cli import build_parser; build_parser()", {*WORKBENCH, "yaml", "torch", "cv2"}),
    ("import vision.scan, vision.labels.batch, vision.evaluation", {*WORKBENCH, "torch", "ultralytics"}),
])
def test_the_runtime_loads_nothing_of_the_workbench(code: str, forbidden: set[str]) -> None:
    assert not loaded_after(code) & forbidden


def workbench_imports(path: Path) -> list[str]:
    """The workbench modules a source file imports, anywhere in it (a function's lazy import included)."""
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
    return [name for name in names if name.split(".")[0] in WORKBENCH]


def test_no_runtime_module_imports_the_workbench() -> None:
    found = {str(path.relative_to(ROOT)): workbench_imports(path)
             for package in RUNTIME for path in sorted((ROOT / package).rglob("*.py"))
             if path.relative_to(ROOT) not in WORKBENCH_COMMANDS}
    assert {path: names for path, names in found.items() if names} == {}
    assert all(workbench_imports(ROOT / path) for path in WORKBENCH_COMMANDS)  # the two that do, lazily


@pytest.mark.parametrize(("command", "package"), [("train", "models"), ("synth", "datasets")])
def test_a_workbench_command_outside_a_checkout_says_so(
        command: str, package: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("api.cli.REPOSITORY", tmp_path)  # as installed from the wheel: no workbench beside the runtime
    assert main([command]) == 2
    assert f"mcr {command} runs in a checkout of the repository (it needs its {package}/ folder)" in \
        capsys.readouterr().err
