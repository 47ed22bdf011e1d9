"""The folder layout is a contract: memory's layers import only downwards, the values import no
layer, memory knows nothing of the facade, consumers reach memory only through the facade, ingest
knows neither, and a reader loads no write path.
The contracts are in pyproject.toml ([tool.importlinter]); docs/design.md draws the tree."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

cli = pytest.importorskip("importlinter.cli")

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_hold(capsys: pytest.CaptureFixture[str]) -> None:
    folder = os.getcwd()
    os.chdir(ROOT)
    try:
        code = cli.lint_imports(config_filename="pyproject.toml", no_cache=True, no_logo=True)
    finally:
        os.chdir(folder)
    report = capsys.readouterr().out
    assert code == cli.EXIT_STATUS_SUCCESS, report
    assert "9 kept, 0 broken" in report
