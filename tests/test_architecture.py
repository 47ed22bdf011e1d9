"""The folder layout is a contract: memory's layers import only downwards, the values import no
layer, memory knows nothing of the facade, consumers reach memory only through the facade, ingest
knows neither, and a reader loads no write path.
The contracts are in pyproject.toml ([tool.importlinter]); docs/design.md draws the tree."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_hold(capsys: pytest.CaptureFixture[str]) -> None:
    cli = pytest.importorskip("importlinter.cli")  # only this test needs import-linter
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


def test_each_name_the_facade_gives_the_adapters_is_written_once() -> None:
    """A name of `book/values.py` is written in one place, the import that says where it comes
    from (`import Name as Name`, under `if TYPE_CHECKING:` when fetched on first use): no map
    of lazy names, no `__all__` list, no second import naming it again."""
    import webnovel.book.values as values

    tree = ast.parse((ROOT / "src" / "webnovel" / "book" / "values.py").read_text("utf-8"))
    written: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.alias):
            found = node.asname or node.name
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found = node.value
        elif isinstance(node, ast.Name | ast.FunctionDef):
            found = node.id if isinstance(node, ast.Name) else node.name
        else:
            continue
        written[found] = written.get(found, 0) + 1
    assert len(values.__all__) > 30 and not hasattr(values, "Nonexistent")
    assert {name: written.get(name, 0) for name in values.__all__ if written.get(name) != 1} == {}


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


def test_no_function_is_over_eighty_lines() -> None:
    """A function says one thing: past 80 lines (its docstring counted) it says several, and the
    part that can be named goes into a function of its own."""
    long = {
        f"{path.relative_to(ROOT)}:{node.name}": node.end_lineno - node.lineno + 1
        for path in (ROOT / "src" / "webnovel").rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > 80
    }
    assert long == {}


def _imported_modules(tree: ast.Module, name: str, is_package: bool, known: set[str]) -> set[str]:
    """Every module of the package that `name` imports: at module level, inside a function (that
    only hides a circle) or under `if TYPE_CHECKING:` (a circle the type checker walks, and a
    reader too). A relative import is resolved against `name`, and `from package import x` names
    the submodule `x` when there is one."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = name.split(".")
                anchor = parts if is_package else parts[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in known else base)
    return {module for module in found if module in known and module != name}


def _modules_that_import_each_other() -> set[tuple[str, str]]:
    source = ROOT / "src"
    paths = {}
    for path in (source / "webnovel").rglob("*.py"):
        parts = list(path.relative_to(source).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        paths[".".join(parts)] = path
    known = set(paths)
    imports = {
        name: _imported_modules(
            ast.parse(path.read_text(encoding="utf-8")), name, path.name == "__init__.py", known
        )
        for name, path in paths.items()
    }
    return {
        (first, second)
        for first, targets in imports.items()
        for second in targets
        if first < second and first in imports[second]
    }


def test_no_module_imports_a_module_that_imports_it_even_for_the_type_checker() -> None:
    """A module that imports a module importing it is a circle: neither can be read, tested or
    loaded alone. None is left (issue 41): a helper of `Project` takes what it uses (the
    storage, the pipeline, the config, a `BookReader`, or a Protocol of the methods it calls,
    `book/handles.py`), never `Project`, and a record is not named through a module that
    imports it back."""
    assert _modules_that_import_each_other() == set()


def test_the_facade_reads_memory_one_way_through_its_reader() -> None:
    """`BookReader.store` is the one reader (memory/read/reading.py): each family of memory
    (entities, chains, commits, records, observability, time) with its reads as of a chapter
    beside its rows as they stand. Nothing in the facade or extraction reads beside it: no
    second `reading` object, no store's `parts` taken from the storage, no query function
    called on the book's connection (a read is then found in one place, its family's)."""
    from webnovel.book.reader import BookReader

    assert not hasattr(BookReader, "reading")
    beside = []
    for folder in ("book", "extraction"):
        for path in sorted((ROOT / "src" / "webnovel" / folder).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute) and node.attr in {"reading", "parts"}:
                    beside.append(f"{path.name}:{node.lineno} .{node.attr}")
                elif (
                    isinstance(node, ast.ImportFrom)
                    and node.module == "memory.read"
                    and any(alias.name == "items" for alias in node.names)
                ):
                    beside.append(f"{path.name}:{node.lineno} memory.read.items")
    assert beside == []
