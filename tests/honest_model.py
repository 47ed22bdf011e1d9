"""A model that writes only what its request shows it, as a real one does.

It knows the sample serial's gold results, but answers chapter N as a model that has read only
the request: an earlier entity the request does not list is registered again in entities_new
(as the chapter that introduced it did), and a thread the request does not list is planted
again instead of advanced or resolved. So memory equals the gold only when every request
carries what memory knew through the chapter before it.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from chat_server import Reply, gold_results

SHOWN_ENTITY = re.compile(r"^- ([^：\s（]+)：", re.MULTILINE)
SHOWN_THREAD = re.compile(r"^- ([^：\s（]+)（", re.MULTILINE)
REFERENCES = (
    ("entities_appeared", "id"),
    ("state_changes", "entity_id"),
    ("relationships_new", "from"),
    ("relationships_new", "to"),
    ("knowledge_changes", "entity_id"),
    ("knowledge_changes", "from"),
)
REFERENCE_LISTS = (("scenes", "characters"), ("timeline_events", "participants"))


def _section(text: str, title: str) -> str:
    start = text.find(title)
    if start < 0:
        return ""
    end = text.find("\n\n", start)
    rest = text[start:end] if end >= 0 else text[start:]
    # the next section's heading ends this one (they are separated by one newline)
    for heading in ("未回收的线索", "秘密", "已知实体", "【"):
        cut = rest.find("\n" + heading)
        if cut > 0:
            rest = rest[:cut]
    return rest


class HonestModel:
    def __init__(self) -> None:
        self.gold = gold_results()
        self.intros: dict[str, tuple[int, dict[str, Any]]] = {}  # id -> (chapter, entity_new)
        self.plants: dict[str, dict[str, Any]] = {}
        for chapter, result in sorted(self.gold.items()):
            for entity in result.get("entities_new", []):
                self.intros.setdefault(entity["id"], (chapter, entity))
            for thread in result.get("plot_threads", []):
                if thread.get("action", "plant") == "plant":
                    self.plants.setdefault(thread["id"], thread)
        self.by_name = {
            name: entity_id
            for entity_id, (_, e) in self.intros.items()
            for name in (entity_id, e["name"], *e.get("aliases", []))
        }

    def answer(self, chapter: int, request: str) -> dict[str, Any]:
        result = copy.deepcopy(self.gold[chapter])
        shown_entities = set(SHOWN_ENTITY.findall(_section(request, "已知实体")))
        shown_threads = set(SHOWN_THREAD.findall(_section(request, "未回收的线索")))
        introduced_here = {e["id"] for e in result.get("entities_new", [])}
        referenced: list[str] = []
        for key, field in REFERENCES:
            referenced += [i[field] for i in result.get(key, []) if isinstance(i.get(field), str)]
        for key, field in REFERENCE_LISTS:
            referenced += [r for i in result.get(key, []) for r in i.get(field, [])]
        for reference in dict.fromkeys(referenced):
            entity_id = self.by_name.get(reference)
            if entity_id is None or entity_id in introduced_here or entity_id in shown_entities:
                continue
            first, intro = self.intros[entity_id]
            if first >= chapter:
                continue
            result.setdefault("entities_new", []).append(copy.deepcopy(intro))
            introduced_here.add(entity_id)
        threads = []
        for thread in result.get("plot_threads", []):
            action = thread.get("action", "plant")
            if action != "plant" and thread["id"] not in shown_threads:
                planted = self.plants.get(thread["id"])
                if planted is not None:
                    thread = copy.deepcopy(planted)
            threads.append(thread)
        if threads:
            result["plot_threads"] = threads
        return result

    def script(self, number: int, body: dict[str, Any]) -> Reply | None:
        user = body["messages"][-1]["content"]
        found = re.search(r"请输出第(\d+)章的章节结果", body["messages"][1]["content"])
        if not found or len(body["messages"]) > 2:  # a repair turn: answer as the first time
            found = found or re.search(r"请输出第(\d+)章的章节结果", user)
        assert found is not None
        import json

        answer = self.answer(int(found.group(1)), body["messages"][1]["content"])
        return Reply(json.dumps(answer, ensure_ascii=False))
