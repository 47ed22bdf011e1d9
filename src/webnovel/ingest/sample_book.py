"""The bundled sample serial: chapter results and chapter texts, in chapter order.

Shipped inside the wheel as `webnovel/sample_book`; in a source checkout it is
`examples/sample-book` at the repository root.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ProjectNotFound
from ..untrusted import json_limits


@dataclass(frozen=True)
class SampleChapter:
    number: int
    result: dict[str, Any]
    text: str | None


def sample_book_dir() -> Path:
    package = Path(__file__).resolve().parents[1]  # webnovel/
    for candidate in (package / "sample_book", package.parents[1] / "examples" / "sample-book"):
        if (candidate / "book.toml").exists():
            return candidate
    raise ProjectNotFound.of("sample_book_missing")


def sample_meta(folder: Path | None = None) -> dict[str, Any]:
    folder = folder or sample_book_dir()
    return tomllib.loads((folder / "book.toml").read_text(encoding="utf-8"))


def sample_chapters(folder: Path | None = None) -> Iterator[SampleChapter]:
    folder = folder or sample_book_dir()
    for path in sorted((folder / "results").glob("*.json")):
        result = json_limits.loads(path.read_text(encoding="utf-8"), str(path))
        text_path = folder / "chapters" / f"{path.stem}.md"
        text = text_path.read_text(encoding="utf-8") if text_path.exists() else None
        yield SampleChapter(int(result["chapter"]), result, text)
