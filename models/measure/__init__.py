"""Measuring programs: each prints a figure the README or the model card quotes, as
``uv run python -m models.measure.<name>``; the test suite checks their behaviour on a few inputs."""

from __future__ import annotations

import sys
from collections.abc import Callable


def measured(measure: Callable[[], None]) -> int:
    """A measuring program's exit status: 0, or 2 with its error printed (a missing folder, a bad option), no
    traceback."""
    try:
        measure()
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
