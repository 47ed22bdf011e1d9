"""`webnovel mcp`: the book served over stdio with the official MCP SDK.

Each tool is one facade call; results are the CONTRACT's JSON shapes as structured content (a
list comes wrapped as `{"result": [...]}`, the SDK's convention for non-object output). Domain
errors and bad input come back as tool errors carrying the CLI's message, and the server goes
on serving. Tools are coroutines that call the facade directly, so calls run one at a time on
the event loop: the book's SQLite connection is never shared between threads.
"""

from __future__ import annotations

import json
from typing import Any

from .. import __version__
from ..book.project import Project
from ..errors import InvalidInput, WebnovelError
from ..ingest.sample_book import sample_chapters
from ..memory.packs.budget_manager import Task
from ..memory.schema import ThreadFilter, missing_fact
from ..memory.write.chapter_schema import CHAPTER_RESULT_SCHEMA
from .prompts import extraction_prompt

INSTRUCTIONS = (
    "Long-term memory for one serialized novel. Before writing chapter N call build_memory_pack "
    "(task chapter_write); after writing, extract the chapter result, call review_draft, fix "
    "blocking issues, then commit_chapter. Ask get_fact / get_history / get_relations / "
    "list_threads / search_memory for continuity questions; answers are as of any chapter."
)


def create_server(project: Project) -> Any:
    """Build the server for one open book (imports the MCP SDK only when called)."""
    from mcp.server import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    server = MCPServer("webnovel-memory", instructions=INSTRUCTIONS, version=__version__)

    def call(fn: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except WebnovelError as exc:
            raise ToolError(str(exc)) from exc

    _add_write_tools(server, project, call)
    _add_reading_tools(server, project, call)
    _add_query_tools(server, project, call)
    _add_ledger_tools(server, project, call)
    _add_prompt_and_resources(server, project)
    _speak_plainly(server, ToolError)
    return server


def _speak_plainly(server: Any, tool_error: type[Exception]) -> None:
    """Tool errors carry the CLI's one clear sentence: the SDK's "Error executing tool …" prefix
    is dropped, and an argument that fails the input schema is named, without pydantic's text."""
    from pydantic import ValidationError

    original = server.call_tool

    async def call_tool(name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await original(name, arguments, context)
        except tool_error as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                raise tool_error(_argument_problems(name, cause)) from cause
            message = str(exc).removeprefix(f"Error executing tool {name}: ")
            raise tool_error(message) from exc

    server.call_tool = call_tool


def _argument_problems(tool: str, error: Any) -> str:
    problems = []
    for item in error.errors():
        argument = ".".join(str(part) for part in item.get("loc", ())) or "arguments"
        if item.get("type") == "missing":
            problems.append(f"argument '{argument}' is required")
        else:
            problems.append(f"argument '{argument}': {item.get('msg', 'is not valid')}")
    return f"{tool}: " + "; ".join(problems)


def _add_write_tools(server: Any, project: Project, call: Any) -> None:
    """Commit, review and pack: the write loop."""

    @server.tool(
        description="把章节结果写入记忆（见 chapter-result schema）。默认先审阅（check=true）："
        "有阻断问题时不写入，错误信息逐条列出问题与修改建议；确属有意为之时传 force=true 强制写入，"
        "矛盾会记为冲突。Write a chapter result; refused when review blocks unless force."
    )
    async def commit_chapter(
        result: dict[str, Any], text: str | None = None, check: bool = True, force: bool = False
    ) -> dict[str, Any]:
        report = call(project.commit, result, text=text, check=check, force=force)
        project.flush()
        return dict(report.to_dict())

    @server.tool(
        description="撤回已提交的一章：记忆如同从未提交过它；提交仍留在日志中，标为已撤回。"
    )
    async def retract_chapter(chapter: int) -> dict[str, Any]:
        report = call(project.retract, chapter)
        project.flush()
        return dict(report.to_dict())

    @server.tool(
        description="审阅章节结果草稿：按写入时的同一套规则对照记忆检查，不写入任何内容。"
        "参数 result 与 commit_chapter 相同（旧名 draft 仍然接受）。"
    )
    async def review_draft(
        result: dict[str, Any] | None = None,
        chapter: int | None = None,
        draft: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        if result is None and draft is None:
            raise InvalidInput("review_draft 需要参数 result（章节结果草稿）")
        report = call(project.review, result if result is not None else draft, chapter=chapter)
        data = dict(report.to_dict())
        if result is None:
            data["notes"] = ["参数 draft 已更名为 result（与 commit_chapter 一致），旧名仍可用"]
        return data

    @server.tool(
        description="按 token 预算为某任务与章节组装记忆包。task：chapter_write（写作）、"
        "consistency_check（一致性检查）、continuity_query（连续性提问）、review（审阅）。"
    )
    async def build_memory_pack(
        task: Task,
        chapter: int,
        outline: str | None = None,
        query: str | None = None,
        budget_tokens: int | None = None,
        format: str = "json",
    ) -> dict[str, Any]:
        pack = call(
            project.build_memory_pack,
            task,
            chapter,
            outline=outline,
            query=query,
            budget_tokens=budget_tokens,
        )
        data = dict(pack.to_dict())
        if format in ("prompt", "text"):
            data["rendered"] = pack.render(format)
        return data

    _advertise_chapter_result_schema(server)


# The SDK derives input schemas from signatures; the two tools that take a chapter result
# advertise its full JSON Schema instead of "an object" (a test pins that clients see it).
CHAPTER_RESULT_ARGUMENTS = {"commit_chapter": "result", "review_draft": "result"}


def _advertise_chapter_result_schema(server: Any) -> None:
    original = server.list_tools

    async def list_tools() -> Any:
        tools = await original()
        for tool in tools:
            argument = CHAPTER_RESULT_ARGUMENTS.get(tool.name)
            if argument is not None:
                tool.input_schema["properties"][argument] = CHAPTER_RESULT_SCHEMA
        return tools

    server.list_tools = list_tools


def _add_reading_tools(server: Any, project: Project, call: Any) -> None:
    """From a chapter's stored text to its result: a skeleton to complete, or a model's read."""

    @server.tool(
        description="根据已存正文为已提交的一章生成章节结果骨架：谁出场、可能的新名字、上一章结尾在哪。"
        "补全后再 commit_chapter，比从头抽取省得多。"
    )
    async def prefill_chapter(chapter: int) -> dict[str, Any]:
        return dict(call(project.prefill, chapter))

    @server.tool(
        description="让用户配置的模型（OpenAI 兼容端点，来自用户的 WEBNOVEL_LLM_* 环境变量或用户"
        "配置）读一章已存的正文，并把读出的结果写入记忆；给希望由引擎调用模型的宿主用。默认只处理"
        "仅有导入结果的章（force 为真时任何章）；回答存在书中，不会重复付费。返回请求数、token 与费用。"
    )
    async def extract_chapter(chapter: int, force: bool = False) -> dict[str, Any]:
        report = call(project.extract, chapter, chapter, force=force)
        return dict(report)


def _add_query_tools(server: Any, project: Project, call: Any) -> None:
    """Continuity questions, as of any chapter."""

    @server.tool(
        description="某实体（id、名字或别名）的一个字段，当前或截至某章。字段可写键或中文名：realm 或 境界。"
    )
    async def get_fact(subject: str, field: str, as_of: int | None = None) -> dict[str, Any]:
        entity = call(project.entity, subject)
        item = call(project.fact, entity.id, field, as_of=as_of)
        return dict(item.to_dict()) if item else missing_fact(entity.id, project.field_key(field))

    @server.tool(description="实体各字段的每个版本：有效区间、状态与证据。")
    async def get_history(
        subject: str, field: str | None = None, as_of: int | None = None
    ) -> list[dict[str, Any]]:
        return [i.to_dict() for i in call(project.history, subject, field, as_of=as_of)]

    @server.tool(description="某章时与该实体有关的关系（出或入）。")
    async def get_relations(subject: str, as_of: int | None = None) -> list[dict[str, Any]]:
        return [r.to_dict() for r in call(project.relations, subject, as_of=as_of)]

    @server.tool(
        description="线索台账。status：open（未回收）、resolved（已回收）、abandoned（已放弃）、"
        "overdue（已逾期）、all（全部）。"
    )
    async def list_threads(
        status: ThreadFilter = "open", as_of: int | None = None
    ) -> list[dict[str, Any]]:
        return [t.to_dict() for t in call(project.threads, status=status, as_of=as_of)]

    @server.tool(description="某章时生效的世界规则，可只看一个领域。")
    async def list_rules(
        as_of: int | None = None, domain: str | None = None
    ) -> list[dict[str, Any]]:
        return [r.to_dict() for r in call(project.rules, as_of=as_of, domain=domain)]

    @server.tool(description="按故事顺序排列的事件。")
    async def get_timeline(
        start: int | None = None,
        end: int | None = None,
        entity: str | None = None,
        as_of: int | None = None,
    ) -> list[dict[str, Any]]:
        return [e.to_dict() for e in call(project.timeline, start, end, entity, as_of=as_of)]

    @server.tool(
        description="某一章发生了什么：摘要、各场景的人物与地点、事件、变化、涉及的线索与秘密、冲突。"
        "按章节号询问时用它，不要用检索。"
    )
    async def get_chapter(chapter: int) -> dict[str, Any]:
        return dict(call(project.chapter, chapter).to_dict())

    @server.tool(
        description="在摘要、场景与正文中检索，不超过某章。每条结果有 0–1 的相关度（字面与语义两部分）、"
        "命中的词与片段；证据不足的标为 weak；问题中的词哪里都没有时返回空。"
    )
    async def search_memory(
        text: str, top_k: int = 10, as_of: int | None = None
    ) -> list[dict[str, Any]]:
        return [h.to_dict() for h in call(project.search, text, top_k=top_k, as_of=as_of)]

    @server.tool(description="书中的实体及其别名，截至某章已登场的。")
    async def list_entities(
        as_of: int | None = None, entity_type: str | None = None
    ) -> list[dict[str, Any]]:
        return [e.to_dict() for e in call(project.entities, as_of, entity_type)]


def _add_ledger_tools(server: Any, project: Project, call: Any) -> None:
    """Who knows what, the open conflicts, and where the book stands."""

    @server.tool(description="某角色知道或怀疑哪些秘密：从何时起、如何得知、从谁那里。")
    async def knows(subject: str, as_of: int | None = None) -> list[dict[str, Any]]:
        return [k.to_dict() for k in call(project.knows, subject, as_of=as_of)]

    @server.tool(description="故事的秘密：谁知道、读者是否知道、预计何时揭晓。")
    async def list_secrets(as_of: int | None = None) -> list[dict[str, Any]]:
        return [s.to_dict() for s in call(project.secrets, as_of=as_of)]

    @server.tool(description="未决冲突及双方证据，截至某章。")
    async def list_conflicts(as_of: int | None = None) -> list[dict[str, Any]]:
        return [c.to_dict() for c in call(project.conflicts, as_of=as_of)]

    @server.tool(description="全书进度：接着写之前的简报（含缺章）。")
    async def resume() -> dict[str, Any]:
        return dict(call(project.resume))


def _add_prompt_and_resources(server: Any, project: Project) -> None:
    @server.prompt(description="数据代理：读完一章后，按 schema 抽取结构化的章节结果。")
    def extract_chapter_result(chapter: int, chapter_text: str = "") -> str:
        example = next(iter(sample_chapters())).result
        return extraction_prompt(chapter, chapter_text, CHAPTER_RESULT_SCHEMA, example)

    @server.resource(
        "webnovel://stats",
        mime_type="application/json",
        description="记忆的数量、大小与健康状况。",
    )
    def stats() -> str:
        return json.dumps(project.stats(), ensure_ascii=False)

    @server.resource(
        "webnovel://scratchpad",
        mime_type="application/json",
        description="语义记忆缓存（memory_scratchpad.json）。",
    )
    def scratchpad() -> str:
        return project.scratchpad()
