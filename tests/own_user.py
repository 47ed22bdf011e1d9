"""Each test runs as a user of its own: empty config and state folders and no WEBNOVEL_*
variables, so the developer's own endpoints and keys never take part (nor get used)."""

from __future__ import annotations

import os

import pytest


def as_a_user_of_our_own(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """conftest's autouse fixture does this for every test; a fixture wider than a test is set
    up before it and does it itself, in a MonkeyPatch.context() of its own."""
    home = tmp_path_factory.mktemp("user")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    for name in list(os.environ):
        if name.startswith("WEBNOVEL_") or name == "OPENAI_API_KEY":
            monkeypatch.delenv(name)
