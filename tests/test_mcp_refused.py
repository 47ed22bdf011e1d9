"""`webnovel mcp` on a book it refuses to open still serves: `initialize` answers (its
instructions say why first), the tools are listed, and every call answers with the refusal as
a tool error, `{"code", "message", "details"}`, so the agent can tell its author. The SDK's real
client talks to the real `webnovel mcp` process over its stdio."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

import webnovel

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mcp") is None, reason="the [mcp] extra is not installed"
)


def serve(root: Path, body: Any) -> tuple[Any, str]:
    """`body(client, initialized)` against `webnovel --project ROOT mcp`, and its stderr."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    errlog = root.parent / "mcp-stderr.log"

    async def main() -> Any:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "webnovel", "--project", str(root), "mcp"],
            env=dict(os.environ),
        )
        with errlog.open("w", encoding="utf-8") as err:
            async with (
                stdio_client(params, errlog=err) as (read, write),
                ClientSession(read, write) as session,
            ):
                initialized = await session.initialize()
                return await body(session, initialized)

    out = asyncio.run(main())
    return out, errlog.read_text(encoding="utf-8")


def test_a_refused_config_is_said_by_every_call(tmp_path: Path) -> None:
    root = tmp_path / "book"
    with webnovel.init_project(root, title="t"):
        pass
    (root / ".webnovel" / "config.toml").write_text("[store\nurl = ", encoding="utf-8")

    async def body(session: Any, initialized: Any) -> dict[str, Any]:
        tools = await session.list_tools()
        fact = await session.call_tool("get_fact", {"subject": "林砚", "field": "realm"})
        commit = await session.call_tool("commit_chapter", {"result": {"chapter": 1}})
        return {
            "instructions": initialized.instructions,
            "tools": {t.name for t in tools.tools},
            "fact": fact,
            "commit": commit,
        }

    out, stderr = serve(root, body)
    assert "commit_chapter" in out["tools"] and "get_fact" in out["tools"]
    for answer in (out["fact"], out["commit"]):
        assert answer.is_error
        error = json.loads(answer.content[0].text)
        assert set(error) == {"code", "message", "details"}
        assert error["code"] == "invalid_config"
        assert "config.toml" in error["message"]
    assert out["instructions"].startswith("注意：这本书未能打开")
    assert "config.toml" in out["instructions"]
    assert "错误：" in stderr and "config.toml" in stderr  # and the author sees it too
