"""Shared fixtures: the installed tile styles, and a skip with the install line when there are none."""

from __future__ import annotations

import shutil

import pytest

from datasets import faces


def installed_styles() -> tuple[str, ...]:
    if shutil.which("rsvg-convert") is None:
        return ()
    return tuple(s.name for s in faces.installed())


@pytest.fixture(scope="session")
def styles() -> tuple[str, ...]:
    names = installed_styles()
    if not names:
        pytest.skip("no tile style installed: apt-get install librsvg2-bin kdegames-mahjongg-data-kf5 "
                    "xmahjongg (see .ci/run)")
    return names
