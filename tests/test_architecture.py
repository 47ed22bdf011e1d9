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
    assert "10 kept, 0 broken" in report


def test_every_name_the_facade_gives_the_adapters_resolves_and_light_ones_stay_light() -> None:
    """The adapters name memory's types through `webnovel.book.values`; each name it lists must
    resolve, and naming the light ones must not load search, packs or review (a fresh `fact`)."""
    import subprocess
    import sys

    import webnovel.book.values as values

    for name in values.__all__:
        assert getattr(values, name) is not None, name
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from webnovel.book.values import Entity, Together; "
            "print(' '.join(m for m in sys.modules if m.startswith('webnovel.memory.')))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    heavy = ("retrieval", "packs.orchestrator", "review", "write.write_pipeline")
    assert not [m for m in loaded if any(f"memory.{h}" in m for h in heavy)], loaded


def test_at_most_four_plain_modules_sit_at_the_top_of_the_package() -> None:
    """The top of `webnovel/` holds packages, each a room named for what it holds; the few plain
    modules left there are what every room uses (the book's config, the one error tree) and the
    package's own entry points. A new loose module goes into the room it belongs to."""
    top = sorted(path.name for path in (ROOT / "src" / "webnovel").glob("*.py"))
    assert len(top) <= 4, top


def test_no_module_is_over_six_hundred_lines() -> None:
    """A module holds one idea: past 600 lines it holds several, and the one that grew is split
    by what it holds (write_pipeline's conflict records, project's texts and projections)."""
    long = {
        str(path.relative_to(ROOT)): lines
        for path in (ROOT / "src" / "webnovel").rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 600
    }
    assert long == {}
