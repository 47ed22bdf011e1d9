"""What each MCP tool's answer costs on the wire, on `webnovel demo`'s sample book.

An agent pays for every character a tool sends back. The SDK's real client calls every tool
over the server `webnovel mcp` runs, and each answer is measured as the JSON-RPC result the
stdio transport writes (`model_dump_json(by_alias=True, exclude_unset=True)`).

    python benchmarks/mcp_answer_sizes.py            # prints a Markdown table
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import webnovel
from webnovel.ingest.sample_book import sample_book_dir, sample_chapters, sample_meta

OUTLINE = "林砚与苏晚晴在寒潭边遭遇韩啸，得知周伯之死另有隐情。"
PACK = {"task": "chapter_write", "chapter": 13, "outline": OUTLINE, "budget_tokens": 4000}


def calls(draft: dict[str, Any]) -> dict[str, tuple[str, dict[str, Any]]]:
    """One representative call of every tool (the label says which, when a tool has several)."""
    return {
        "build_memory_pack (prompt)": ("build_memory_pack", {**PACK, "format": "prompt"}),
        "build_memory_pack (text)": ("build_memory_pack", {**PACK, "format": "text"}),
        "build_memory_pack (json)": ("build_memory_pack", {**PACK, "format": "json"}),
        "get_fact": ("get_fact", {"subject": "林砚", "field": "境界"}),
        "get_history": ("get_history", {"subject": "林砚"}),
        "get_relations": ("get_relations", {"subject": "林砚"}),
        "list_threads": ("list_threads", {"status": "all"}),
        "list_rules": ("list_rules", {}),
        "get_timeline": ("get_timeline", {}),
        "search_memory": ("search_memory", {"text": "青灯的来历", "top_k": 10}),
        "list_conflicts": ("list_conflicts", {"include_settled": True}),
        "resume": ("resume", {}),
        "list_entities": ("list_entities", {}),
        "knows": ("knows", {"subject": "林砚"}),
        "list_secrets": ("list_secrets", {}),
        "get_chapter": ("get_chapter", {"chapter": 12}),
        "prefill_chapter": ("prefill_chapter", {"chapter": 12}),
        "review_draft": ("review_draft", {"result": draft}),
        "impact_of_revision": ("impact_of_revision", {"result": draft}),
        "get_clock": ("get_clock", {}),
        "commit_chapter": ("commit_chapter", {"result": draft, "force": True}),
        "retract_chapter": ("retract_chapter", {"chapter": 13}),
        "restore_chapter": ("restore_chapter", {"chapter": 13}),  # the retracted one, back
    }


def demo_book(root: Path) -> Path:
    """The book `webnovel demo` builds: the sample chapters with their texts."""
    meta = sample_meta()
    with webnovel.init_project(root, title=meta["title"], genre=meta.get("genre")) as book:
        for chapter in sample_chapters():
            book.commit(chapter.result, text=chapter.text)
    return root


def answer_sizes(root: Path) -> dict[str, dict[str, Any]]:
    """Each call's answer: its size on the wire, whether it was an error, and its text."""
    from mcp import Client

    from webnovel.mcp import create_server

    draft_file = sample_book_dir() / "drafts" / "013-draft-with-mistakes.json"
    draft = json.loads(draft_file.read_text(encoding="utf-8"))

    async def main() -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        with webnovel.open_project(root) as book:
            async with Client(create_server(book).lowlevel()) as client:
                for label, (tool, arguments) in calls(draft).items():
                    result = await client.call_tool(tool, arguments)
                    wire = result.model_dump_json(by_alias=True, exclude_unset=True)
                    out[label] = {"chars": len(wire), "error": result.is_error, "result": result}
        return out

    return asyncio.run(main())


def table(sizes: dict[str, dict[str, Any]]) -> str:
    lines = ["| tool (call) | answer on the wire (characters) |", "| --- | ---: |"]
    lines += [f"| `{label}` | {size['chars']:,} |" for label, size in sizes.items()]
    return "\n".join(lines)


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        sizes = answer_sizes(demo_book(Path(folder) / "demo-book"))
    print(table(sizes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
