"""The Data Agent's instructions for extracting a chapter result: the catalogue's
(`messages/mcpprompts.py`), in the language of the moment the prompt is asked for."""

from __future__ import annotations

import json
from typing import Any

from ..messages import say


def extraction_prompt(
    chapter: int, chapter_text: str, schema: dict[str, Any], example: dict[str, Any]
) -> str:
    parts = [
        say("mcp_extraction_rules", chapter=chapter),
        say("mcp_prompt_schema"),
        json.dumps(schema, ensure_ascii=False),
        say("mcp_prompt_example"),
        json.dumps(example, ensure_ascii=False, indent=1),
    ]
    if chapter_text:
        parts += [say("mcp_prompt_chapter_text", chapter=chapter), chapter_text]
    return "\n\n".join(parts)
