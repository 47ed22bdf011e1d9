"""`webnovel mcp`: the book served over stdio with the official MCP SDK.

The query tools are made from the table of queries (queries/table.py): one tool per entry that
names one, its input schema from the entry's arguments. The tools that write (commit, retract)
and those that read a chapter's text or build a pack are declared here the same way. Results are
the CONTRACT's JSON shapes as structured content, with the same compact JSON as text (a pack
asked for as a prompt or text is that text alone: tools.py says why); domain errors and bad
arguments come back as tool errors carrying their code and sentence, and the server goes on serving.
Tools are coroutines that call the facade directly, so calls run one at a time on the event
loop: the book's SQLite connection is never shared between threads. The two that search
(`search_memory`, `build_memory_pack`) run in a worker thread on a second handle on the book
(book/long_reads.py), so a long search holds up no other call.
"""

from __future__ import annotations

import json
from typing import Any

from .. import __version__
from ..book.project import Project
from ..book.values import chapter_result_schema
from ..errors import InvalidInput
from ..ingest.sample_book import sample_chapters
from ..messages import say
from ..queries import QUERIES, Arg, Query
from ..queries.beyond import beyond_end, with_note
from ..queries.table import CHAPTER_TEXT_CHARS
from .prompts import extraction_prompt
from .tools import Json, Prompt, Resource, Text, Tool, ToolServer

# Only commit_chapter, where an agent writes a chapter result, advertises its full JSON Schema (a
# test pins that clients see it); review_draft and impact_of_revision take the same object and
# say so in a line (`result_like_commit`): every session pays for the tool list, and three
# copies of the schema were two thirds of it. The server checks every result against the full
# schema whichever tool it is given to, and its error names each bad path.
RESULT = Arg(
    name="result",
    type="object",
    help="help_tool_result",
    required=True,
    # `$schema` names the dialect of a schema document; inside a property it is out of place
    schema={k: v for k, v in chapter_result_schema().items() if k != "$schema"},
)
CHAPTER = Arg(name="chapter", type="int", help="help_the_chapter", required=True)


def result_like_commit(help_key: str) -> Arg:
    """An optional chapter result whose schema is commit_chapter's, said in a line rather than
    repeated: `{"type": "object", "description": …}`."""
    return Arg(name="result", type="object", help=help_key)


def create_server(project: Project) -> ToolServer:
    """The server for one open book (the MCP SDK is imported when it is run)."""
    instructions = say("mcp_instructions")  # in the server's language, as it starts
    server = ToolServer("webnovel-memory", instructions=instructions, version=__version__)
    for tool in _write_tools(project) + _reading_tools(project):
        server.add_tool(tool)
    for query in QUERIES:
        if query.tool is not None:
            server.add_tool(query_tool(project, query))
    _add_prompt_and_resources(server, project)
    return server


def query_tool(project: Project, query: Query[Any]) -> Tool:
    """A query of the table as a tool: its MCP arguments, its answer as its JSON."""

    async def call(arguments: dict[str, Any]) -> Json | Text:
        def answer_of(book: Project) -> Json | Text:
            answer = query.run(book, arguments)
            beyond = beyond_end(book, query, arguments)  # asked past the book's end: said
            shape = str(arguments.get("format"))  # the pack's: its JSON, or only its rendering
            if shape in query.formats or shape == "text":
                text = query.formats.get(shape, query.text)(answer)
                return Text(f"{beyond.note()}\n\n{text}" if beyond else text)
            return with_note(query.to_json(answer), beyond)

        if query.long:  # a search: in a worker thread, while other calls are answered
            return await project.long_reads().run(answer_of)
        return answer_of(project)

    assert query.tool is not None
    description = say(query.tool_help)  # in the server's language, when the server is made
    return Tool(name=query.tool, description=description, args=query.mcp_args, call=call)


def _write_tools(project: Project) -> list[Tool]:
    """Commit, retract and review: the write loop (the pack is a query of the table)."""

    async def commit_chapter(a: dict[str, Any]) -> Json:
        report = project.commit(
            a["result"], text=a["text"], check=a["check"], force=a["force"], weigh=True
        )
        project.flush()
        project.embed_in_background()  # with an embedder named: a detached child, as the CLI
        return report.to_dict()

    async def retract_chapter(a: dict[str, Any]) -> Json:
        report = project.retract(a["chapter"], force=a["force"])
        project.flush()
        return report.to_dict()

    async def restore_chapter(a: dict[str, Any]) -> Json:
        report = project.restore(a["chapter"], a["commit_id"], force=a["force"])
        project.flush()
        return report.to_dict()

    async def review_draft(a: dict[str, Any]) -> Json:
        result, draft = a["result"], a["draft"]
        if result is None and draft is None:
            raise InvalidInput.of("review_needs_result")
        data = dict(
            project.review(result if result is not None else draft, chapter=a["chapter"]).to_dict()
        )
        if result is None:
            data["notes"] = [say("review_draft_old_name")]
        return data

    return [
        Tool(
            name="commit_chapter",
            description=say("tool_commit_chapter"),
            args=(
                RESULT,
                Arg(
                    name="text",
                    type="str",
                    help="help_tool_text",
                    max_chars=CHAPTER_TEXT_CHARS,
                ),
                Arg(name="check", type="bool", default=True, help="help_tool_check"),
                Arg(name="force", type="bool", default=False, help="help_tool_commit_force"),
            ),
            call=commit_chapter,
        ),
        Tool(
            name="retract_chapter",
            description=say("tool_retract_chapter"),
            args=(
                CHAPTER,
                Arg(name="force", type="bool", default=False, help="help_tool_retract_force"),
            ),
            call=retract_chapter,
        ),
        Tool(
            name="restore_chapter",
            description=say("tool_restore_chapter"),
            args=(
                CHAPTER,
                Arg(name="commit_id", type="str", help="help_tool_restore_commit_id"),
                Arg(name="force", type="bool", default=False, help="help_tool_retract_force"),
            ),
            call=restore_chapter,
        ),
        Tool(
            name="review_draft",
            description=say("tool_review_draft"),
            args=(
                result_like_commit("help_tool_draft_as_commit"),
                Arg(name="chapter", type="int", help="help_review_chapter"),
                Arg(name="draft", type="object", help="help_tool_draft_old_name"),
            ),
            call=review_draft,
        ),
        _impact_tool(project),
    ]


def _impact_tool(project: Project) -> Tool:
    """What a revision would do before it is made: the commit's write path, rolled back."""

    async def impact_of_revision(a: dict[str, Any]) -> Json:
        if a["result"] is None and not a["retract"]:
            raise InvalidInput.of("impact_needs_result")
        found = project.impact(
            a["result"], chapter=a["chapter"], text=a["text"], retract=a["retract"]
        )
        return found.to_dict()

    return Tool(
        name="impact_of_revision",
        description=say("tool_impact_of_revision"),
        args=(
            result_like_commit("help_tool_revised_as_commit"),
            Arg(name="chapter", type="int", help="help_tool_result_chapter"),
            Arg(
                name="text",
                type="str",
                help="help_tool_revised_text",
                max_chars=CHAPTER_TEXT_CHARS,  # a chapter's, not a name's 2,000 characters
            ),
            Arg(name="retract", type="bool", default=False, help="help_tool_impact_retract"),
        ),
        call=impact_of_revision,
    )


def _reading_tools(project: Project) -> list[Tool]:
    """From a chapter's stored text to its result: a skeleton to complete, or a model's read."""

    async def prefill_chapter(a: dict[str, Any]) -> Json:
        return project.prefill(a["chapter"])

    async def extract_chapter(a: dict[str, Any]) -> Json:
        return project.extract(chapter=a["chapter"], force=a["force"]).to_dict()

    return [
        Tool(
            name="prefill_chapter",
            description=say("tool_prefill_chapter"),
            args=(CHAPTER,),
            call=prefill_chapter,
        ),
        Tool(
            name="extract_chapter",
            description=say("tool_extract_chapter"),
            args=(
                CHAPTER,
                Arg(name="force", type="bool", default=False, help="help_tool_extract_force"),
            ),
            call=extract_chapter,
        ),
    ]


def _add_prompt_and_resources(server: ToolServer, project: Project) -> None:
    def extraction(a: dict[str, Any]) -> str:
        example = next(iter(sample_chapters())).result
        return extraction_prompt(a["chapter"], a["chapter_text"], chapter_result_schema(), example)

    server.add_prompt(
        Prompt(
            name="extract_chapter_result",
            description=say("mcp_prompt_extract_description"),
            args=(
                CHAPTER,
                Arg(
                    name="chapter_text",
                    type="str",
                    default="",
                    help="help_tool_text",
                    max_chars=CHAPTER_TEXT_CHARS,
                ),
            ),
            render=extraction,
        )
    )
    server.add_resource(
        Resource(
            uri="webnovel://stats",
            description=say("mcp_resource_stats"),
            mime_type="application/json",
            read=lambda: json.dumps(project.stats().to_dict(), ensure_ascii=False),
        )
    )
    server.add_resource(
        Resource(
            uri="webnovel://scratchpad",
            description=say("mcp_resource_scratchpad"),
            mime_type="application/json",
            read=lambda: project.scratchpad(),  # looked up when read: a refused book raises then
        )
    )
