"""The `mcr` program's exit: a run that loaded Ray skips the interpreter's teardown (`api.cli.program`), with its
output and exit status intact; any other run exits as usual."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_program(ray_loaded: bool) -> subprocess.CompletedProcess[str]:
    """`mcr` with no command (help on stdout, status 2) in a fresh interpreter, with an exit handler that tells
    whether the interpreter's teardown ran."""
    probe = "\n".join([
        "import atexit, sys, types",
        "atexit.register(lambda: print('teardown ran', file=sys.stderr))",
        *(["sys.modules['ray'] = types.ModuleType('ray')"] if ray_loaded else []),
        "sys.argv = ['mcr']",
        "from api.cli import program",
        "program()",
    ])
    return subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=120)


@pytest.mark.parametrize("ray_loaded", [True, False])
def test_the_program_keeps_its_output_and_status_and_skips_teardown_only_after_ray(ray_loaded: bool) -> None:
    done = run_program(ray_loaded)
    assert done.returncode == 2
    assert "usage: mcr" in done.stdout  # written through a pipe, i.e. buffered: flushed before the exit
    assert ("teardown ran" in done.stderr) is not ray_loaded
