"""The table of queries: every as-of question the CLI and the MCP server answer, declared once.

Each entry gives the command's name, the MCP tool's name (None: the CLI only), the arguments
(shared ones from declare.py), the facade call, the JSON and text renderers, the catalogue keys
of its help and its MCP description, and an example. `webnovel <name>` (cli/query_commands.py)
and the MCP tool (mcp/server.py) are made from it; tests/test_query_table.py checks each on every
surface. Adding a query: docs/design.md "Adding a query".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..book.values import THREAD_FILTER_WORDS, THREAD_FILTERS
from ..book.words import CHAPTER_TEMPLATES, TASKS, clock_text
from . import answers
from .answers import FactAnswer, PackAnswer, Versions, dicts
from .chapter_text import chapter_text
from .declare import AS_OF, CHAPTER, LIMIT, SUBJECT, TOP_K, Arg, Query
from .text import (
    conflicts_text,
    cooccurrence_text,
    entities_text,
    fact_text,
    fields_text,
    history_text,
    knows_text,
    relations_text,
    resume_text,
    rules_text,
    search_text,
    secrets_text,
    settled_text,
    stats_text,
    threads_text,
    timeline_text,
)

if TYPE_CHECKING:
    from ..book.project import Project
    from ..book.reports import BookStats
    from ..book.resume import Resume
    from ..book.values import (
        ChapterReport,
        Conflict,
        Entity,
        Knowledge,
        RelationEdge,
        SearchHit,
        Secret,
        StoryClock,
        Thread,
        TimelineEvent,
        Together,
        WorldRule,
    )


# -- the facade calls, typed (a test checks each one's parameters against its arguments) --------


def _entities(book: Project, as_of: int | None, entity_type: str | None) -> list[Entity]:
    return book.entities(as_of, entity_type)


def _relations(book: Project, subject: str, as_of: int | None) -> list[RelationEdge]:
    return book.relations(subject, as_of=as_of)


def _cooccurrence(book: Project, subject: str, as_of: int | None, limit: int) -> list[Together]:
    return book.cooccurrence(subject, as_of, limit)


def _threads(book: Project, status: str, as_of: int | None) -> list[Thread]:
    return book.threads(status=status, as_of=as_of)


def _rules(book: Project, as_of: int | None, domain: str | None) -> list[WorldRule]:
    return book.rules(as_of=as_of, domain=domain)


def _knows(book: Project, subject: str, as_of: int | None) -> list[Knowledge]:
    return book.knows(subject, as_of=as_of)


def _secrets(book: Project, as_of: int | None) -> list[Secret]:
    return book.secrets(as_of=as_of)


def _chapter(book: Project, chapter: int) -> ChapterReport:
    return book.chapter(chapter)


def _timeline(
    book: Project,
    start: int | None,
    end: int | None,
    entity: str | None,
    as_of: int | None,
    story: bool,
) -> list[TimelineEvent]:
    return book.timeline(start, end, entity, as_of=as_of, story=story)


def _clock(book: Project, as_of: int | None) -> StoryClock:
    return book.clock(as_of)


def _search(book: Project, text: str, top_k: int, as_of: int | None) -> list[SearchHit]:
    return book.search(text, top_k, as_of)


def _resume(book: Project) -> Resume:
    return book.resume()


def _stats(book: Project) -> BookStats:
    return book.stats()


# -- JSON and text of the answers ------------------------------------------------------------


def _conflicts_json(answer: list[Conflict] | Conflict | tuple[Conflict, ...]) -> Any:
    return dicts(list(answer)) if isinstance(answer, list | tuple) else answer.to_dict()


def _conflicts_text(answer: list[Conflict] | Conflict | tuple[Conflict, ...]) -> str:
    if isinstance(answer, list):
        return conflicts_text(answer)
    settled = answer if isinstance(answer, tuple) else (answer,)  # a tuple: several settled
    return "\n".join(settled_text(c.id, c.status, c.note) for c in settled)


OUTLINE_CHARS = 50_000  # a chapter's outline, however detailed, with room to spare
CHAPTER_TEXT_CHARS = 2_000_000  # a chapter's text: ten times the longest chapters of long serials

# -- the table ---------------------------------------------------------------------------------

QUERIES: tuple[Query[Any], ...] = (
    Query(
        name="entities",
        page="/characters",
        tool="list_entities",
        help="help_entities",
        tool_help="tool_list_entities",
        example="webnovel entities --type 角色 --as-of 4",
        args=(
            AS_OF.with_help("help_entities_as_of"),
            Arg(name="entity_type", flag="--type", type="str", help="help_entities_entity_type"),
        ),
        answer=_entities,
        to_json=dicts,
        text=entities_text,
    ),
    Query(
        name="fact",
        page="/characters/{subject}",
        tool="get_fact",
        help="help_fact",
        tool_help="tool_get_fact",
        example="webnovel fact 林砚 境界 --as-of 6",
        args=(
            SUBJECT,
            Arg(
                name="field",
                type="str",
                help="help_fact_field",
                # left out: an item's holder, anyone else's every field that holds, on the CLI
                # and over MCP alike (agents ask `get_fact {"subject": "断水剑"}` and expect that)
                positional=True,
                cli_optional=True,
            ),
            AS_OF,
        ),
        answer=answers.fact,
        to_json=FactAnswer.to_dict,
        text=fact_text,
    ),
    Query(
        name="fields",
        help="help_fields",
        example="webnovel fields",
        args=(),
        answer=answers.fields,
        to_json=dicts,
        text=fields_text,
    ),
    Query(
        name="history",
        page="/characters/{subject}",
        tool="get_history",
        help="help_history",
        tool_help="tool_get_history",
        example="webnovel history 林砚 境界 --as-of 8",
        args=(
            SUBJECT,
            Arg(
                name="field",
                type="str",
                help="help_history_field",
                positional=True,
                cli_optional=True,
            ),
            AS_OF.with_help("help_history_as_of"),
        ),
        answer=answers.history,
        to_json=Versions.to_dicts,
        text=history_text,
    ),
    Query(
        name="relations",
        page="/graph?center={subject}",
        tool="get_relations",
        help="help_relations",
        tool_help="tool_get_relations",
        example="webnovel relations 林砚 --as-of 5",
        args=(SUBJECT, AS_OF),
        answer=_relations,
        to_json=dicts,
        text=relations_text,
    ),
    Query(
        name="cooccurrence",
        help="help_cooccurrence",
        example="webnovel cooccurrence 林砚 --as-of 12",
        args=(SUBJECT, AS_OF, LIMIT),
        answer=_cooccurrence,
        to_json=dicts,
        text=cooccurrence_text,
    ),
    Query(
        name="threads",
        page="/threads",
        tool="list_threads",
        help="help_threads",
        tool_help="tool_list_threads",
        example="webnovel threads --status overdue",
        args=(
            Arg(
                name="status",
                type="str",
                default="open",
                choices=THREAD_FILTERS,
                words=THREAD_FILTER_WORDS,
                help="help_threads_status",
            ),
            AS_OF,
        ),
        answer=_threads,
        to_json=dicts,
        text=threads_text,
    ),
    Query(
        name="rules",
        tool="list_rules",
        help="help_rules",
        tool_help="tool_list_rules",
        example="webnovel rules --domain 修炼 --as-of 4",
        args=(AS_OF, Arg(name="domain", type="str", help="help_rules_domain")),
        answer=_rules,
        to_json=dicts,
        text=rules_text,
    ),
    Query(
        name="knows",
        page="/characters/{subject}",
        tool="knows",
        help="help_knows",
        tool_help="tool_knows",
        example="webnovel knows 林砚 --as-of 8",
        args=(SUBJECT, AS_OF),
        answer=_knows,
        to_json=dicts,
        text=knows_text,
    ),
    Query(
        name="secrets",
        tool="list_secrets",
        help="help_secrets",
        tool_help="tool_list_secrets",
        example="webnovel secrets --as-of 12",
        args=(AS_OF,),
        answer=_secrets,
        to_json=dicts,
        text=secrets_text,
    ),
    Query(
        name="chapter",
        page="/chapters/{chapter}",
        tool="get_chapter",
        help="help_chapter",
        tool_help="tool_get_chapter",
        example="webnovel chapter 3",
        args=(CHAPTER,),
        answer=_chapter,
        to_json=lambda report: report.to_dict(),
        text=chapter_text,
    ),
    Query(
        name="timeline",
        page="/timeline",
        tool="get_timeline",
        help="help_timeline",
        tool_help="tool_get_timeline",
        example="webnovel timeline --from 2 --to 6 --entity 林砚",
        args=(
            Arg(name="start", flag="--from", type="int", help="help_timeline_start"),
            Arg(name="end", flag="--to", type="int", help="help_timeline_end"),
            Arg(name="entity", type="str", help="help_timeline_entity"),
            AS_OF.with_help("help_timeline_as_of"),
            Arg(
                name="story",
                type="bool",
                default=False,
                help="help_timeline_story",
            ),
        ),
        answer=_timeline,
        to_json=dicts,
        text=timeline_text,
    ),
    Query(
        name="clock",
        tool="get_clock",
        help="help_clock",
        tool_help="tool_get_clock",
        example="webnovel clock --as-of 6",
        args=(AS_OF,),
        answer=_clock,
        to_json=lambda clock: clock.to_dict(),
        text=clock_text,
    ),
    Query(
        name="search",
        page="/search?q={text}",
        tool="search_memory",
        help="help_search",
        tool_help="tool_search_memory",
        example="webnovel search 青灯的来历 --top-k 3 --as-of 9",
        args=(
            Arg(
                name="text",
                type="str",
                help="help_search_text",
                required=True,
                positional=True,
                cli_words=True,  # webnovel search 黄天霸 盗马
            ),
            TOP_K,
            AS_OF.with_help("help_search_as_of"),
        ),
        answer=_search,
        to_json=dicts,
        text=search_text,
        indexes_first=True,
        long=True,
    ),
    Query(
        name="conflicts",
        page="/conflicts",
        tool="list_conflicts",
        help="help_conflicts",
        tool_help="tool_list_conflicts",
        example="webnovel conflicts --all --as-of 12\n"
        "  webnovel conflicts resolve c-1a2b3c --intentional --note 主角诈死",
        args=(
            Arg(
                name="include_settled",
                flag="--all",
                type="bool",
                default=False,
                help="help_conflicts_include_settled",
            ),
            AS_OF.with_help("help_conflicts_as_of"),
            # settling one is the CLI's: an agent leaves that to the author
            Arg(
                name="action",
                type="str",
                positional=True,
                cli_optional=True,
                choices=("resolve",),
                help="help_conflicts_action",
                mcp=False,
            ),
            Arg(
                name="conflict_id",
                type="str",
                positional=True,
                cli_optional=True,
                cli_words=True,  # several ids settle together: one death, many chapters
                metavar="ID",
                help="help_conflicts_conflict_id",
                mcp=False,
            ),
            Arg(
                name="intentional",
                type="bool",
                default=False,
                help="help_conflicts_intentional",
                mcp=False,
            ),
            Arg(name="note", type="str", help="help_conflicts_note", mcp=False),
        ),
        answer=answers.conflicts,
        to_json=_conflicts_json,
        text=_conflicts_text,
    ),
    Query(
        name="pack",
        page="/pack?task={task}",
        tool="build_memory_pack",
        help="help_pack",
        tool_help="tool_build_memory_pack",
        example="webnovel pack --chapter 13 --query 韩啸为何尾随林砚 --format prompt\n"
        "  webnovel pack --chapter 13 --outline outlines/013.md --template battle",
        args=(
            Arg(
                name="chapter",
                flag="--chapter",
                type="int",
                required=True,
                help="help_pack_chapter",
            ),
            Arg(
                name="task",
                type="str",
                default="chapter_write",
                choices=TASKS,
                help="help_pack_task",
            ),
            Arg(
                name="outline",
                type="str",
                cli_reads="text",
                help="help_pack_outline",
                max_chars=OUTLINE_CHARS,
            ),
            Arg(name="query", type="str", help="help_pack_query"),
            Arg(
                name="draft",
                type="object",
                cli_reads="json",
                help="help_pack_draft",
            ),
            Arg(
                name="budget_tokens",
                flag="--budget",
                metavar="BUDGET",
                type="int",
                help="help_pack_budget_tokens",
            ),
            Arg(
                name="template",
                type="str",
                choices=tuple(CHAPTER_TEMPLATES),
                help="help_pack_template",
            ),
            Arg(
                name="format",
                type="str",
                default="json",
                choices=("json", "prompt", "text"),
                help="help_pack_format_mcp",
                cli=False,  # the command line's own --format says it
            ),
            # a pack given to an agent (MCP, the CLI) is logged for the dashboard; a look at one
            # through the dashboard's /api/query/pack is not, or any page could grow the log
            Arg(
                name="record",
                type="bool",
                default=True,
                help="help_pack_record",
                cli=False,
                mcp=False,
            ),
        ),
        answer=answers.pack,
        to_json=PackAnswer.to_dict,
        text=lambda answer: answer.pack.render("text"),
        formats={"prompt": lambda answer: answer.pack.render("prompt")},
        long=True,
    ),
    Query(
        name="resume",
        page="/",
        tool="resume",
        help="help_resume",
        tool_help="tool_resume",
        example="webnovel resume --format text",
        args=(),
        answer=_resume,
        to_json=lambda brief: brief.to_dict(),
        text=resume_text,
    ),
    Query(
        name="stats",
        page="/",
        help="help_stats",
        example="webnovel stats --format json",
        args=(),
        answer=_stats,
        to_json=lambda stats: stats.to_dict(),
        text=stats_text,
    ),
)
