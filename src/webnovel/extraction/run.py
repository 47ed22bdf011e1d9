"""Extracting a range of chapters, in chapter order, each asked what memory knows just before it.

Chapter N's request carries memory as of chapter N−1 (with `[llm] batch` B > 1, as of the
chapter before N's batch of B: 1–B, B+1–2B, …), including what this run committed for the
chapters before it. So the request a chapter gets is a function of the book as the chapters
before it left it, the texts, the prompt version and the model: the same at any concurrency.

`--concurrency K` only asks ahead: the next K−1 chapters' requests go out with memory as it
stands, and when a chapter's turn to commit comes its request is built again; if it would now
show anything else (its predecessors' commits changed it), it is asked again with the new
request and the early answer is not used (it stays in the answer cache, paid for). So K can
only buy time, and it may cost requests: never a different memory. Answers are validated and
repaired in the worker threads (validation is pure); the main thread checks what only memory
can see (a cast rewrite) and commits, strictly in chapter order.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn

from ..book import author_layer, candidate_queue
from ..errors import (
    EndpointFailed,
    ExtractionFailed,
    InvalidChapterResult,
    InvalidConfig,
    WebnovelError,
)
from ..memory.packs.recipes import estimate_tokens
from ..memory.write.chapter_schema import CHAPTER_RESULT_SCHEMA
from ..memory.write.import_shape import is_minimal
from ..messages import say
from .answer_cache import AnswerCache, answer_key
from .answers import answer_excerpt, parse_answer, repair_request
from .chat_client import ChatClient, Completion, RequestsFailed, Usage
from .context import (
    MEMORY_CHARS,
    MemoryContext,
    ending_passage,
    memory_context,
    settled_cast,
)
from .identity import Cast, cast_rewrites, reconcile, rejected_names, unknown_references
from .merge import merge_with_stored, source_title
from .prompt import PROMPT_VERSION, build_messages, schema_note, system_prompt
from .report import (
    Estimate,
    ExtractedChapter,
    ExtractedTotal,
    ExtractionReport,
    PlannedChapter,
    PlannedTotal,
)
from .settings import LLMSettings

if TYPE_CHECKING:
    from .handle import Extracting

MAX_REPAIRS = 2
REQUEST_EXTRA = 10_000  # characters a request carries besides its chapter's text, at most
OVERHEAD = 200  # the headings, fences and the closing ask around the parts
MIN_MEMORY_CHARS = 1_000  # what memory may say however long the instructions grow
MAX_OUTPUT_CAP = 32768  # a cut-off answer is asked again with twice the limit, up to this
OUTPUT_SHARE = 0.35  # estimated output tokens per token of chapter text (a dry run's guess)
Progress = Callable[[int, int], None]


@dataclass
class ChapterOutcome:
    chapter: int
    result: dict[str, Any] | None = None
    problem: str | None = None
    usage: Usage = field(default_factory=Usage)
    requests: int = 0
    cache_hits: int = 0
    repairs: int = 0
    history: list[dict[str, str]] = field(default_factory=list)  # the conversation so far
    request: list[dict[str, str]] = field(default_factory=list)  # its first turn, as asked
    answer: str = ""  # the last answer's text
    answered: bool = False  # an answer came (else the endpoint failed, or none was asked)
    keys: list[str] = field(default_factory=list)  # the kept answers this conversation used
    unsettled: list[str] = field(default_factory=list)  # cast rewrites the repairs left


@dataclass(frozen=True)
class Planned:
    chapter: int
    title: str | None
    text: str
    stored: dict[str, Any] | None
    author: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # the author's layer
    rejected: tuple[str, ...] = ()  # names the author rejected as candidates, that the text holds
    commit_id: str | None = None  # the version the chapter stood on when planned


def plan(book: Extracting, start: int | None, end: int | None, force: bool) -> list[Planned]:
    """The stored chapters in the range that have a text and (unless `force`) stand only on a
    text import's minimal result, in chapter order."""
    chosen = []
    refused = candidate_queue.rejected(book.store)
    decided = author_layer.decisions(book.store)
    for row in book.chapters():
        number = row["chapter"]
        if (start is not None and number < start) or (end is not None and number > end):
            continue
        stored = book.stored_commit(number)
        text = (stored or {}).get("text") or ""
        result = (stored or {}).get("result")
        if text.strip() and (force or is_minimal(result)):
            author = author_layer.for_chapter(decided, number)
            rejected = tuple(n for n in refused if n in text)
            chosen.append(
                Planned(
                    number,
                    source_title(result),
                    text,
                    result,
                    author,
                    rejected,
                    (stored or {}).get("commit_id"),
                )
            )
    return chosen


class EndpointNeeded(InvalidConfig):
    """A run without a model configured reached a request whose answer is not kept."""


def batch_anchor(chapter: int, batch: int) -> int:
    """The chapter whose memory a chapter's request carries: the last before its batch."""
    return ((chapter - 1) // batch) * batch


class Extraction:
    """One run over planned chapters; `report()` is what the CLI prints."""

    def __init__(
        self,
        book: Extracting,
        settings: LLMSettings,
        client: ChatClient | None,
        cache: AnswerCache,
        concurrency: int,
        no_endpoint: str | None = None,
    ) -> None:
        self.book = book
        # why no model can be asked (the settings' error), when the run goes on kept answers
        self.no_endpoint = no_endpoint
        self.settings = settings
        self.client = client
        self.cache = cache
        self.concurrency = concurrency
        self.system = system_prompt()
        self.schema_note = schema_note(CHAPTER_RESULT_SCHEMA)
        self.stable_chars = len(self.system) + len(self.schema_note)  # sent once, either way
        self.rows: list[PlannedChapter | ExtractedChapter] = []
        self._contexts: dict[tuple[int, tuple[str, ...], int, int], MemoryContext] = {}
        # chapters asked ahead, then again with fuller memory: the early ask that went out
        self.reasked: dict[int, Future[ChapterOutcome]] = {}
        self._stop = threading.Event()
        self._said_again: set[str] = set()  # entities said to be registered again, this run

    # -- requests -------------------------------------------------------------------------------

    def messages_for(self, item: Planned, planned: list[Planned]) -> list[dict[str, str]]:
        """The request for `item` from memory as it stands: as of the chapter before it (or
        before its batch), centred on the entities its text (its batch's texts) names."""
        anchor = batch_anchor(item.chapter, self.settings.batch)
        texts = tuple(
            i.text for i in planned if batch_anchor(i.chapter, self.settings.batch) == anchor
        )
        previous = self.book.stored_commit(item.chapter - 1) if item.chapter > 1 else None
        ending = ending_passage(previous["text"]) if previous and previous.get("text") else None
        settled = settled_cast(item.stored, item.author, item.rejected)
        # what the request's other parts leave of its 10,000 characters beside the chapter
        rest = self.stable_chars + len(ending or "") + len(settled or "") + len(item.title or "")
        budget = min(MEMORY_CHARS, max(MIN_MEMORY_CHARS, REQUEST_EXTRA - rest - OVERHEAD))
        key = (anchor, texts, budget, self.book.commit_seq())  # memory changes with each commit
        memory = self._contexts.get(key)
        if memory is None:
            memory = memory_context(self.book, anchor, texts, budget)
            self._contexts = {key: memory}
        return build_messages(
            self.system, memory, item.chapter, item.title, item.text, ending, settled
        )

    def estimate(self, items: list[Planned]) -> ExtractionReport:
        """A dry run: the requests, their estimated tokens and cost; sends nothing."""
        for item in items:  # memory as it stands: a later chapter's request will show more
            messages = self.messages_for(item, items)
            cached = self.cache.get(self._key(messages)) is not None
            tokens_in = sum(estimate_tokens(m["content"]) for m in messages)
            tokens_out = int(estimate_tokens(item.text) * OUTPUT_SHARE) + 300
            tokens = Estimate(input=0 if cached else tokens_in, output=0 if cached else tokens_out)
            self.rows.append(
                PlannedChapter(
                    chapter=item.chapter,
                    title=item.title,
                    status="cached" if cached else "planned",
                    requests=0 if cached else 1,
                    estimated_tokens=tokens,
                    estimated_cost=self._cost(tokens.input, 0, tokens.output),
                )
            )
        return self.report(dry_run=True)

    # -- the run --------------------------------------------------------------------------------

    def run(self, items: list[Planned], progress: Progress | None = None) -> ExtractionReport:
        asked: dict[int, tuple[list[dict[str, str]], Future[ChapterOutcome]]] = {}
        with ThreadPoolExecutor(max_workers=self.concurrency) as pool:
            for done, item in enumerate(items, start=1):
                for ahead in items[done - 1 : done - 1 + self.concurrency]:
                    if ahead.chapter not in asked:
                        messages = self.messages_for(ahead, items)
                        asked[ahead.chapter] = (
                            messages,
                            pool.submit(self.converse, ahead, messages),
                        )
                early, future = asked.pop(item.chapter)
                messages = self.messages_for(item, items)  # every chapter before is in now
                if messages != early:  # asked before its predecessors committed: ask again
                    if not future.cancel():  # it went out: its cost is counted
                        self.reasked[item.chapter] = future
                    future = pool.submit(self.converse, item, messages)
                self._commit(item, future)
                if progress:
                    progress(done, len(items))
        return self.report(dry_run=False)

    def _commit(self, item: Planned, future: Future[ChapterOutcome]) -> None:
        outcome = future.result()  # converse says an endpoint's failure as the outcome's problem
        outcome, cast = self._settled(item, outcome)
        if outcome.result is None and outcome.keys and not outcome.requests and self.client:
            # only kept answers, and they failed: kept by an earlier version that kept failures
            # too. Forget them and ask afresh, once, rather than fail on a replay.
            self.cache.forget(outcome.keys)
            outcome, cast = self._settled(item, self.converse(item, outcome.request))
        if outcome.result is None:
            self._fail(item, outcome, outcome.problem or "")
        result, warnings, again = reconcile(outcome.result, cast)
        for entity_id, said in again.items():  # once per entity in a run, not per chapter
            if entity_id not in self._said_again:
                self._said_again.add(entity_id)
                warnings.append(said)
        try:
            report = self.book.commit(result, text=item.text)
        except InvalidChapterResult as exc:
            self._fail(item, outcome, "; ".join(exc.problems))
        # replacing the version the plan saw is what extraction is for: the report sums it up
        # in one line; a version someone else committed meanwhile is still said as a warning
        planned = (
            say("commit_replaced_version", chapter=item.chapter, previous=item.commit_id)
            if item.commit_id
            else None
        )
        replaced = item.commit_id if planned in report.warnings else None
        self.rows.append(
            self._row(
                item,
                outcome,
                report.status,
                conflicts=len(report.conflicts),
                warnings=[
                    *warnings,
                    *outcome.unsettled,
                    *(w for w in report.warnings if w != planned),
                ],
                replaced=replaced,
            )
        )

    def _settled(self, item: Planned, outcome: ChapterOutcome) -> tuple[ChapterOutcome, Cast]:
        try:
            return self._settle_identity(item, outcome)
        except WebnovelError as exc:
            self._fail(item, outcome, str(exc))

    def _fail(self, item: Planned, outcome: ChapterOutcome, problem: str) -> NoReturn:
        """The chapter is rejected: the run stops, and the answers its conversation used are
        forgotten, so that a next run asks again instead of replaying what failed."""
        self._stop.set()
        self.cache.forget(outcome.keys)
        if outcome.answered:  # the author sees what the model said, not only why it failed
            problem = say(
                "problem_and_excerpt", problem=problem, excerpt=answer_excerpt(outcome.answer)
            )
        self.rows.append(self._row(item, outcome, "failed", problem=problem))
        raise ExtractionFailed(item.chapter, problem, self.report(False))

    def propose(self, item: Planned) -> dict[str, Any]:
        """The result the model reads from one chapter, as a run would commit it, committed
        nowhere (`sync --extract` shows its impact first)."""
        outcome = self.converse(item, self.messages_for(item, [item]))
        outcome, cast = self._settled(item, outcome)
        if outcome.result is None:
            self._fail(item, outcome, outcome.problem or "")
        result, _, _ = reconcile(outcome.result, cast)
        return result

    def _cast(self, chapter: int) -> Cast:
        """What memory knows before `chapter`: its cast, their fields, its threads."""
        entities = self.book.entities(as_of=chapter - 1)
        threads = self.book.threads("all", as_of=chapter - 1) if chapter > 1 else []

        def fields_of(entity_id: str) -> set[str]:
            states = self.book.states([entity_id], as_of=chapter - 1)
            return {i.field for i in states.get(entity_id, [])}

        return Cast(entities, threads, fields_of)

    def _settle_identity(
        self, item: Planned, outcome: ChapterOutcome
    ) -> tuple[ChapterOutcome, Cast]:
        """Memory's own check of a valid answer, now that every chapter before is committed:
        what memory cannot place goes back to the model while the repair budget lasts."""
        cast = self._cast(item.chapter)
        if outcome.result is None:
            return outcome, cast

        def check(result: dict[str, Any]) -> list[str]:
            reconciled, _, _ = reconcile(result, cast)
            return (
                cast_rewrites(reconciled, cast)
                + unknown_references(reconciled, cast)
                + rejected_names(reconciled, item.rejected)
            )

        problems = check(outcome.result)
        if not problems:
            return outcome, cast
        if outcome.repairs >= MAX_REPAIRS:
            outcome.unsettled = problems
            return outcome, cast
        outcome.repairs += 1
        outcome.history += [
            {"role": "assistant", "content": outcome.answer},
            {"role": "user", "content": repair_request(problems)},
        ]
        return self.converse(item, outcome.history, outcome, check), cast

    def converse(
        self,
        item: Planned,
        messages: list[dict[str, str]],
        outcome: ChapterOutcome | None = None,
        check: Callable[[dict[str, Any]], list[str]] | None = None,
    ) -> ChapterOutcome:
        """Ask, validate, and ask again quoting each problem, at most MAX_REPAIRS times in all.
        Given an `outcome`, its conversation goes on (its repair turn already asked). `check`
        finds what only memory can see (a cast rewrite): such problems are asked about while
        the budget lasts; after it, the result stands and the commit records them."""
        if outcome is None:
            outcome = ChapterOutcome(item.chapter, history=list(messages), request=list(messages))
        try:
            return self._converse(item, outcome, check)
        except EndpointFailed as exc:  # the endpoint failed: the chapter fails, saying why
            outcome.result, outcome.problem = None, str(exc)
            return outcome

    def _converse(
        self,
        item: Planned,
        outcome: ChapterOutcome,
        check: Callable[[dict[str, Any]], list[str]] | None,
    ) -> ChapterOutcome:
        marks = {"model": self.settings.model, "prompt_version": PROMPT_VERSION}
        while True:
            if self._stop.is_set():
                outcome.problem = say("extract_run_stopped")
                return outcome
            answer, problem = self._ask(item.chapter, outcome.history, outcome)
            if answer is None:
                outcome.problem = problem
                return outcome
            outcome.answer, outcome.answered = answer.content, True
            parsed = parse_answer(answer.content)
            problems = parsed.problems
            outcome.result = None
            if parsed.data is not None:
                merged = merge_with_stored(
                    parsed.data, item.stored, item.chapter, marks, item.author
                )
                try:  # the commit's own reading: intake's normal forms, then validation
                    self.book.pipeline.read(merged, item.chapter)
                except InvalidChapterResult as exc:
                    problems = tuple(exc.problems)
                else:
                    outcome.result = merged
                    problems = tuple(check(merged)) if check else ()
            if not problems:
                outcome.unsettled = []
                return outcome
            if outcome.repairs >= MAX_REPAIRS:
                if outcome.result is not None:  # only memory's findings: the commit records them
                    outcome.unsettled = list(problems)
                    return outcome
                outcome.problem = say(
                    "answer_still_unfit", repairs=MAX_REPAIRS, problem=_shown(problems)
                )
                return outcome
            outcome.problem = _shown(problems)
            outcome.repairs += 1
            outcome.history += [
                {"role": "assistant", "content": answer.content},
                {"role": "user", "content": repair_request(problems)},
            ]

    def _ask(
        self, chapter: int, history: list[dict[str, str]], outcome: ChapterOutcome
    ) -> tuple[Completion | None, str | None]:
        key = self._key(history)
        cached = self.cache.get(key)
        if cached is not None:
            outcome.cache_hits += 1
            outcome.keys.append(key)
            return cached, None
        if self.client is None:  # only kept answers were expected: say why one is not enough
            why = self.no_endpoint or say("no_model")
            raise EndpointNeeded(say("extract_needs_endpoint", chapter=chapter, why=why))
        limit = self.settings.max_output_tokens
        while True:
            try:
                answer = self.client.complete(
                    history, CHAPTER_RESULT_SCHEMA, limit, self.schema_note
                )
            except RequestsFailed as exc:  # what went out counts, answered or not
                outcome.requests += exc.attempts
                raise
            outcome.requests += answer.attempts
            outcome.usage = outcome.usage + answer.usage
            if answer.finish_reason != "length":  # a cut-off answer is never kept
                self.cache.put(key, chapter, self.settings.model, PROMPT_VERSION, answer)
                outcome.keys.append(key)
                return answer, None
            if limit >= MAX_OUTPUT_CAP:
                return None, say("answer_truncated", limit=limit)
            limit = min(MAX_OUTPUT_CAP, limit * 2)

    def _key(self, messages: list[dict[str, str]]) -> str:
        return answer_key(PROMPT_VERSION, self.settings.model, messages)

    # -- the report -----------------------------------------------------------------------------

    def _row(
        self, item: Planned, outcome: ChapterOutcome, status: str, **more: Any
    ) -> ExtractedChapter:
        usage, requests, cache_hits = outcome.usage, outcome.requests, outcome.cache_hits
        early = self.reasked.get(item.chapter)
        if early is not None:  # what the early ask cost counts too
            try:
                spent = early.result()
            except WebnovelError:
                spent = ChapterOutcome(item.chapter)
            usage, requests = usage + spent.usage, requests + spent.requests
            cache_hits += spent.cache_hits
        return ExtractedChapter(
            chapter=item.chapter,
            title=item.title,
            status=status,
            requests=requests,
            cache_hits=cache_hits,
            repairs=outcome.repairs,
            tokens=usage,
            cost=self._cost(usage.input, usage.cached, usage.output),
            asked_again=item.chapter in self.reasked,
            **more,
        )

    def _cost(self, input_tokens: int, cached: int, output: int) -> float | None:
        prices = self.settings.prices
        return prices.cost(input_tokens, cached, output) if prices else None

    def report(self, dry_run: bool) -> ExtractionReport:
        rows = list(self.rows)
        total: PlannedTotal | ExtractedTotal
        if dry_run:
            planned = [r for r in rows if isinstance(r, PlannedChapter)]
            estimate = Estimate(
                input=sum(r.estimated_tokens.input for r in planned),
                output=sum(r.estimated_tokens.output for r in planned),
            )
            total = PlannedTotal(
                chapters=len(rows),
                requests=sum(r.requests for r in rows),
                estimated_tokens=estimate,
                estimated_cost=self._cost(estimate.input, 0, estimate.output),
                cached=sum(r.status == "cached" for r in rows),
            )
        else:
            done = [r for r in rows if isinstance(r, ExtractedChapter)]
            tokens = sum((r.tokens for r in done), Usage())
            total = ExtractedTotal(
                chapters=len(rows),
                requests=sum(r.requests for r in rows),
                tokens=tokens,
                cost=self._cost(tokens.input, tokens.cached, tokens.output),
                cache_hits=sum(r.cache_hits for r in done),
                committed=sum(r.status == "committed" for r in rows),
                unchanged=sum(r.status == "unchanged" for r in rows),
                failed=sum(r.status == "failed" for r in rows),
            )
        return ExtractionReport(
            dry_run=dry_run,
            model=self.settings.model or None,
            endpoint=self.settings.endpoint.base_url if self.settings.endpoint else None,
            response_mode=self.client.response_mode if self.client else None,
            prompt_version=PROMPT_VERSION,
            batch=self.settings.batch,
            concurrency=self.concurrency,
            prices=self.settings.prices.to_dict() if self.settings.prices else None,
            chapters=rows,
            total=total,
        )


def _shown(problems: tuple[str, ...] | list[str]) -> str:
    more = say("problems_more", count=len(problems) - 5) if len(problems) > 5 else ""
    return "; ".join(problems[:5]) + more
