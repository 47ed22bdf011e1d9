"""Names a module gives others, each written once, some fetched only when first used.

A module that re-exports names (`book/values.py`, for the adapters) writes each as an explicit
re-export, `from M import Name as Name`: at module level for a name it loads now, under
`if TYPE_CHECKING:` for one whose module is heavy (search, packs, review), which the type checker
reads and a run never executes. `lazy_exports` makes that block the run's map too: the module's
`__getattr__` (PEP 562) reads the module's own source once, on the first name asked for, and
fetches each such name from its module then. So a record is named once, where its type comes
from, and naming a light one costs a fresh process (an agent's `webnovel fact`) nothing more.

`__all__` is answered alike: every name re-exported, eager or lazy, and every public function or
class the module defines.
"""

from __future__ import annotations

import ast
import importlib
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any


def lazy_exports(module_name: str) -> Callable[[str], Any]:
    """The `__getattr__` of module `module_name`: `__getattr__ = lazy_exports(__name__)`."""

    def __getattr__(name: str) -> Any:
        module = sys.modules[module_name]
        exported, lazy = _exports(str(module.__file__))
        if name == "__all__":
            value: Any = list(exported)
        elif name in lazy:
            value = getattr(importlib.import_module(lazy[name], module.__package__), name)
        else:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        setattr(module, name, value)  # found once: the next use does not come back here
        return value

    return __getattr__


@cache
def _exports(path: str) -> tuple[tuple[str, ...], dict[str, str]]:
    """Every name the module at `path` exports (sorted), and the lazy ones' modules (relative,
    as written: `..memory.records`)."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    exported: set[str] = set()
    lazy: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_"):
            exported.add(node.name)
        for found, module in _reexports(node):
            exported.add(found)
            if module is not None:
                lazy[found] = module
    return tuple(sorted(exported)), lazy


def _reexports(node: ast.stmt) -> list[tuple[str, str | None]]:
    """The names `node` re-exports (`import Name as Name`), each with its module when it sits
    under `if TYPE_CHECKING:` (fetched lazily), else None (loaded with the module)."""
    if isinstance(node, ast.ImportFrom):
        return [(a.name, None) for a in node.names if a.asname == a.name]
    if not (isinstance(node, ast.If) and _is_type_checking(node.test)):
        return []
    return [
        (alias.name, "." * inner.level + (inner.module or ""))
        for inner in node.body
        if isinstance(inner, ast.ImportFrom)
        for alias in inner.names
        if alias.asname == alias.name
    ]


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )
