"""Text renderings for a Chinese author at a terminal; JSON output is the objects' `to_dict()`.

Labels are Chinese, entities are named by name (with the id where it helps), and columns are
padded by display width: a CJK character takes two columns.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..book.words import ADVICE_KIND, COMMIT_STATUS, CONFLICT_KIND, SEVERITY, chapter_named
from ..messages import say

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..book.candidate_queue import Settled
    from ..book.renaming import Renamed
    from ..book.reports import FrontMatter, Summarized, TextImport, UpstreamImport
    from ..book.values import CommitReport, ReviewReport
    from ..extraction.report import ExtractionReport, PlannedTotal
    from ..ingest.name_finder import Candidate

from ..queries.text import (  # the queries' renderers, where commands and the demo found them
    chapter_list,
    conflicts_text,
    cooccurrence_text,
    entities_text,
    evidence_text,
    fact_text,
    fields_text,
    history_text,
    interval,
    knows_text,
    mapping_text,
    pad,
    relations_text,
    resume_text,
    rules_text,
    search_text,
    secrets_text,
    table,
    threads_text,
    timeline_text,
    value_text,
    width,
)

__all__ = [
    "chapter_list",
    "conflicts_text",
    "cooccurrence_text",
    "entities_text",
    "evidence_text",
    "fact_text",
    "fields_text",
    "history_text",
    "interval",
    "knows_text",
    "mapping_text",
    "pad",
    "relations_text",
    "resume_text",
    "rules_text",
    "search_text",
    "secrets_text",
    "table",
    "threads_text",
    "timeline_text",
    "value_text",
    "width",
]


def to_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


def commit_text(report: CommitReport) -> str:
    counts = report.counts
    status = COMMIT_STATUS.get(report.status, report.status)
    lines = [
        say("commit_head", chapter=report.chapter, status=status, commit=report.commit_id),
        say(
            "commit_counts",
            added=counts.added,
            superseded=counts.superseded,
            contradicted=counts.contradicted,
            tentative=counts.tentative,
        ),
    ]
    lines += _conflict_lines(report)
    lines += [say("commit_warning_line", warning=w) for w in report.warnings]
    lines += _normalized_lines(report.normalized, report.own_words)
    return "\n".join(lines)


def _normalized_lines(notes: Sequence[str], own_words: Sequence[str]) -> list[str]:
    """What intake rewrote, as an author reads it: their own Chinese words (「境界」 for realm)
    are how the book is meant to be written, not news, so only the rest is said."""
    return [say("normalized_line", note=n) for n in notes if n not in own_words]


SHOWN_CONFLICTS = 20  # of those a commit added, and of those it took away: the JSON has all


def _conflict_lines(report: CommitReport) -> list[str]:
    """The conflicts a commit or retraction added and took away, and one line counting the
    other open ones: not every open conflict of later chapters again (a death in a 2,000-
    chapter book printed 1,913 on every later commit, hiding the new one among them)."""
    if report.open_conflicts is None:  # it changed nothing (unchanged)
        return [say("commit_conflict_line", message=c.message) for c in report.conflicts]
    lines: list[str] = []
    for key, conflicts in (
        ("commit_conflict_line", report.conflicts_added),
        ("commit_conflict_removed_line", report.conflicts_removed),
    ):
        lines += [say(key, message=c.message) for c in conflicts[:SHOWN_CONFLICTS]]
        if len(conflicts) > SHOWN_CONFLICTS:
            lines.append(say("commit_conflicts_not_shown", count=len(conflicts) - SHOWN_CONFLICTS))
    other = report.open_conflicts - len(report.conflicts_added)
    if other > 0:
        lines.append(say("commit_conflicts_other_open", count=other))
    return lines


def review_text(report: ReviewReport) -> str:
    normalized = _normalized_lines(report.normalized, report.own_words)
    if not report.issues:
        return "\n".join([say("review_clean", chapter=report.chapter), *normalized])
    lines = [
        say(
            "review_head",
            chapter=report.chapter,
            issues=len(report.issues),
            blocking=len(report.blocking),
        )
    ]
    lines += normalized
    for issue in report.issues:
        severity = SEVERITY.get(issue.severity, issue.severity)
        kind = CONFLICT_KIND.get(issue.category) or ADVICE_KIND.get(issue.category, "")
        lines.append(
            say(
                "review_issue",
                severity=severity,
                kind=kind or issue.category,
                message=issue.message,
            )
        )
        if issue.contradicts_published:
            shown = "、".join(map(str, issue.contradicts_published))
            lines.append("    " + say("review_contradicts_published", chapters=shown))
        if issue.fix_hint:
            lines.append(say("review_fix_hint", hint=issue.fix_hint))
    return "\n".join(lines)


def import_text(report: TextImport) -> str:
    rows = [[say("column_chapter"), say("column_title"), say("column_volume"), say("column_chars")]]
    rows += [
        [say("chapter_n", n=c.chapter), c.title, c.volume or "", str(c.chars)]
        for c in report.chapters
    ]
    lines = [table(rows)]
    if report.dry_run:
        lines.append(say("import_found_dry", chapters=len(report.chapters)))
        if report.kept:
            lines.append(say("import_kept_dry", chapters=chapter_list(report.kept)))
    else:
        lines.append(
            say("import_committed", committed=report.committed, unchanged=report.unchanged)
        )
        lines += [
            say(key, chapters=chapter_list(chapters))
            for key, chapters in (
                ("import_text_changed", report.text_changed),
                ("import_added", report.added),
                ("import_result_changed", report.result_changed),
                ("import_kept", report.kept),
                ("import_kept_stale", sorted(set(report.kept) & set(report.text_changed))),
            )
            if chapters
        ]
        if report.published_revised:
            lines.append(published_revised(report.published_revised, report.published_through))
    dry = "_dry" if report.dry_run else ""
    lines += [
        say(key + dry, chapters=chapter_list(chapters), chapter=chapters[0])
        for key, chapters in (
            ("import_retracted_kept_out", report.retracted_kept_out),
            ("import_retracted_back", report.retracted_back),
        )
        if chapters
    ]
    lines += _front_matter_lines(report.front_matter, dry=report.dry_run)
    lines += [
        say(
            "import_doubled_line",
            title=d.title,
            chars=d.chars,
            chapter=d.same_as,
            percent=round(d.similarity * 100, 1),
        )
        for d in report.doubled
    ]
    if report.candidate_names:
        lines.append(say("import_candidates_head"))
        lines += [
            say("import_candidate_line", name=c.name, count=c.count, chapter=c.first_chapter)
            for c in report.candidate_names
        ]
    return "\n".join(lines)


def published_revised(chapters: Sequence[int], line: int | None) -> str:
    """The published chapters whose text `import text` or `sync` replaced: readers have read
    them, so it is said, and the log marks each a revision of a published chapter."""
    return say("published_text_revised", chapters=chapter_list(chapters), line=line)


def _front_matter_lines(items: list[FrontMatter], dry: bool) -> list[str]:
    """Text under no chapter heading (a title page, a 简介, a volume's opening words): said
    where it went, so that nothing an import leaves out of the chapters goes unmentioned."""
    return [
        say(
            "front_matter_will_keep" if dry else "front_matter_kept",
            chapter=f.chapter,
            named=chapter_named(f.chapter, f.title),
            chars=f.chars,
            first_line=f.first_line,
            kept_in=f.kept_in,
        )
        for f in items
    ]


def summarized_text(report: Summarized) -> str:
    return say(
        "summarized_line",
        chapters=report.chapters,
        summarized=report.summarized,
        unchanged=report.unchanged,
        skipped=report.skipped,
    )


# the records an upstream import counts, each named by its catalogue key `upstream_<record>`
UPSTREAM_COUNTS = (
    "entities_new",
    "state_changes",
    "relationships_new",
    "plot_threads",
    "world_rules",
    "scenes",
    "entities_appeared",
    "timeline_events",
)


def upstream_text(report: UpstreamImport) -> str:
    lines = [
        say(
            "upstream_head",
            title=report.title,
            genre=report.genre or say("upstream_no_genre"),
            source=report.source,
            chapters=report.chapters,
            texts=report.texts,
        )
    ]
    rows = [[say("column_record"), say("column_count")]] + [
        [say(f"upstream_{key}"), str(report.counts.get(key, 0))] for key in UPSTREAM_COUNTS
    ]
    lines.append(table(rows))
    if report.dry_run:
        lines.append(say("dry_run_nothing_written"))
    else:
        lines.append(
            say(
                "upstream_committed",
                committed=report.committed,
                unchanged=report.unchanged,
                conflicts=report.conflicts,
            )
        )
    if report.unmapped:
        lines.append(say("upstream_unmapped_head"))
        lines += [
            say("upstream_unmapped_line", what=w, count=n) for w, n in report.unmapped.items()
        ]
    return "\n".join(lines)


# an extracted chapter's status, named by its catalogue key `extract_status_<status>`
EXTRACT_STATUS = frozenset({"committed", "unchanged", "failed", "planned", "cached"})


def _status(status: str) -> str:
    return say(f"extract_status_{status}") if status in EXTRACT_STATUS else status


def _currency(report: ExtractionReport) -> str:
    """The prices' currency as the author wrote it, or that it was not said."""
    currency = (report.prices or {}).get("currency")
    return str(currency) if currency else say("currency_unsaid")


def _money(value: Any) -> str:
    return "—" if value is None else f"{value:.4f}"


def extract_text(report: ExtractionReport) -> str:
    """The per-chapter and total report of `webnovel extract` (or its dry run)."""
    from ..extraction.report import PlannedTotal

    if isinstance(report.total, PlannedTotal):
        return _planned_text(report, report.total)
    cost = say("cost_column", currency=_currency(report))
    rows = [
        [
            say("column_chapter"),
            say("column_title"),
            say("column_status"),
            say("column_requests"),
            say("column_input"),
            say("column_cached"),
            say("column_output"),
            cost,
            say("column_conflicts"),
        ]
    ]
    for r in report.extracted:
        t = r.tokens
        rows.append(
            [
                say("chapter_n", n=r.chapter),
                r.title or "",
                _status(r.status)
                + (say("extract_repairs", repairs=r.repairs) if r.repairs else "")
                + (say("extract_from_cache") if r.cache_hits and not r.requests else ""),
                str(r.requests),
                f"{t.input:,}",
                f"{t.cached:,}",
                f"{t.output:,}",
                _money(r.cost),
                str(r.conflicts),
            ]
        )
    total = report.total
    t = total.tokens
    rows.append(
        [
            say("row_total"),
            say("chapters_count", chapters=total.chapters),
            say("extract_total_written", committed=total.committed, unchanged=total.unchanged),
            str(total.requests),
            f"{t.input:,}",
            f"{t.cached:,}",
            f"{t.output:,}",
            _money(total.cost),
            "",
        ]
    )
    lines = [table(rows)]
    if report.model:
        lines.append(
            say(
                "extract_model_line",
                model=report.model,
                endpoint=report.endpoint,
                mode=report.response_mode or "—",
            )
        )
    for r in report.extracted:
        lines += [say("extract_warning_line", chapter=r.chapter, warning=w) for w in r.warnings]
    replaced = [r.chapter for r in report.extracted if r.replaced]
    if replaced:  # what extraction is for, said once for the run, not once per chapter
        lines.append(
            say("extract_replaced_line", count=len(replaced), chapters=chapter_list(replaced))
        )
    lines += [row.message for row in report.skipped]  # why a chapter asked for was not read
    if report.prices and not report.prices.get("currency"):
        lines.append(say("currency_how"))
    return "\n".join(lines)


def _planned_text(report: ExtractionReport, total: PlannedTotal) -> str:
    """A dry run: what would be asked, and its estimated tokens and cost."""
    cost = say("cost_column_estimated", currency=_currency(report))
    rows = [
        [
            say("column_chapter"),
            say("column_title"),
            say("column_status"),
            say("column_requests"),
            say("column_input_estimated"),
            say("column_output_estimated"),
            cost,
        ]
    ]
    rows += [
        [
            say("chapter_n", n=r.chapter),
            r.title or "",
            _status(r.status),
            str(r.requests),
            f"{r.estimated_tokens.input:,}",
            f"{r.estimated_tokens.output:,}",
            _money(r.estimated_cost),
        ]
        for r in report.planned
    ]
    rows.append(
        [
            say("row_total"),
            say("chapters_count", chapters=total.chapters),
            say("extract_total_cached", cached=total.cached),
            str(total.requests),
            f"{total.estimated_tokens.input:,}",
            f"{total.estimated_tokens.output:,}",
            _money(total.estimated_cost),
        ]
    )
    note = say("extract_dry_run") + ("" if report.prices else say("extract_no_prices"))
    if report.prices and not report.prices.get("currency"):
        note += "\n" + say("currency_how")
    return "\n".join([table(rows), note, *(row.message for row in report.skipped)])


def candidates_text(items: Sequence[Candidate]) -> str:
    if not items:
        return say("candidates_none")
    rows = [[say("column_name"), say("column_times_seen"), say("column_first_seen")]]
    rows += [[c.name, str(c.count), say("chapter_n", n=c.first_chapter)] for c in items]
    return table(rows) + "\n" + say("candidates_how")


def candidate_done_text(done: Settled) -> str:
    if done.action == "rejected":
        return say("candidate_rejected", name=done.name)
    if done.action == "undone":
        chapters = "、".join(map(str, done.chapters))
        return say(
            "candidate_undone" if chapters else "candidate_unrejected",
            name=done.name,
            chapters=chapters,
        )
    where = say("candidate_where", first=done.chapters[0], chapters=len(done.chapters))
    if done.action == "accepted":
        return say("candidate_accepted", name=done.name, entity=done.entity_id, where=where)
    return say("candidate_merged", name=done.name, entity=done.entity_id, where=where)


def renamed_text(done: Renamed) -> str:
    chapters = "、".join(map(str, done.chapters)) or "—"
    if done.action == "undone":
        return say("rename_undone", old=done.old_name, name=done.name, chapters=chapters)
    return say(
        "rename_done",
        old=done.old_name,
        name=done.name,
        entity_id=done.entity_id,
        start=done.from_chapter,
        chapters=chapters,
    )
