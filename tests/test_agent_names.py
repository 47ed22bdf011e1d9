"""A name that could mean two entities is not silently given to one of them in a write: a
newcomer introduced with a known entity's alias, and a state change naming an alias two
entities share, are blocking under `check` (MCP `commit_chapter`'s default), with the ids to
choose from in `details`. Over the SDK's real client."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

import webnovel

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mcp") is None, reason="the [mcp] extra is not installed"
)

ELDER = {
    "chapter": 1,
    "title": "长老",
    "entities_new": [
        {"id": "luchangfeng", "name": "陆长风", "type": "角色", "aliases": ["陆长老"]},
        {"id": "shenqing", "name": "沈青", "type": "角色"},
    ],
    "state_changes": [{"entity_id": "luchangfeng", "field": "location", "new": "青云峰"}],
}
NEWCOMER = {
    "chapter": 2,
    "title": "来客",
    "entities_new": [{"id": "lu2", "name": "陆鸣", "type": "角色", "aliases": ["陆长老"]}],
}
FOLLOWS = {
    "chapter": 3,
    "title": "追来",
    "entities_appeared": [{"id": "shenqing"}],
    "state_changes": [
        {"entity_id": "陆长老", "field": "location", "new": "山下小镇", "reason": "追来"}
    ],
}


def test_a_name_two_entities_may_mean_blocks_a_checked_commit(tmp_path: Path) -> None:
    from test_mcp import run_session, structured, tool_error

    root = tmp_path / "book"
    with webnovel.init_project(root, title="t") as book:
        book.commit(ELDER)

    async def body(client: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        call = client.call_tool
        out["newcomer"] = tool_error(await call("commit_chapter", {"result": NEWCOMER}))
        out["forced"] = structured(
            await call("commit_chapter", {"result": NEWCOMER, "force": True})
        )
        out["follows"] = tool_error(await call("commit_chapter", {"result": FOLLOWS}))
        out["review"] = structured(await call("review_draft", {"result": FOLLOWS}))
        return out

    out = run_session(root, body)
    newcomer = out["newcomer"]
    assert newcomer["code"] == "review_blocked"
    [taken] = newcomer["details"]["blocking"]
    assert taken["category"] == "alias_taken" and taken["entity_id"] == "lu2"
    assert taken["candidates"] == ["luchangfeng"] and taken["found"] == "陆长老"
    assert out["forced"]["status"] == "committed"
    follows = out["follows"]
    assert follows["code"] == "review_blocked"
    [ambiguous] = follows["details"]["blocking"]
    assert ambiguous["category"] == "ambiguous_alias"
    assert sorted(ambiguous["candidates"]) == ["lu2", "luchangfeng"]
    assert "candidates" in ambiguous["fix_hint"] and "adopted" in ambiguous["fix_hint"]
    assert any(
        i["category"] == "ambiguous_alias" and i["blocking"] for i in out["review"]["issues"]
    )
    with webnovel.open_project(root) as book:  # nothing went to either of them
        assert book.latest_chapter() == 2
        assert book.fact("lu2", "location") is None
        assert book.fact("luchangfeng", "location").value == "青云峰"


def test_a_namesake_of_another_type_or_the_same_chapter_stays_advice(tmp_path: Path) -> None:
    """A place sharing a person's alias, or two people of one name introduced together, are
    often meant: advice, not blocking."""
    with webnovel.init_project(tmp_path / "b", title="t") as book:
        book.commit(ELDER)
        place = {
            "chapter": 2,
            "entities_new": [{"id": "lu_hall", "name": "陆长老", "type": "地点"}],
        }
        kinds = [(i.category, i.blocking) for i in book.review(place).issues]
        assert ("name_taken", False) in kinds and not any(b for _, b in kinds)
        twins = {
            "chapter": 2,
            "entities_new": [
                {"id": "wang_a", "name": "王五", "type": "角色"},
                {"id": "wang_b", "name": "老王", "type": "角色", "aliases": ["王五"]},
            ],
        }
        assert not book.review(twins).blocking
