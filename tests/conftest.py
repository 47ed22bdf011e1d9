from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

import webnovel

from saga import Saga, generate_saga


@pytest.fixture
def book(tmp_path: Path) -> Iterator[webnovel.Project]:
    project = webnovel.init_project(tmp_path / "book", title="测试之书")
    yield project
    project.close()


@pytest.fixture(scope="session")
def saga300() -> Saga:
    return generate_saga(300, seed=11)


@pytest.fixture(scope="session")
def saga_book(
    tmp_path_factory: pytest.TempPathFactory, saga300: Saga
) -> Iterator[webnovel.Project]:
    """A 300-chapter generated saga committed through the API (read-only for tests)."""
    project = webnovel.init_project(tmp_path_factory.mktemp("saga") / "book", title="saga")
    for result in saga300.results:
        project.commit(result)
    yield project
    project.close()


@pytest.fixture(autouse=True)
def a_user_of_our_own(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every test runs as a user with empty config and state folders and no WEBNOVEL_*
    variables, so the developer's own endpoints and keys never take part (nor get used)."""
    home = tmp_path_factory.mktemp("user")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    for name in list(os.environ):
        if name.startswith("WEBNOVEL_") or name == "OPENAI_API_KEY":
            monkeypatch.delenv(name)
