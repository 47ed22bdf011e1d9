"""Chapter → retrieval chunks: the chapter summary, each scene's summary, and slices of the text.

Slices follow the result's scenes when they carry `content`, otherwise paragraphs packed into
slices of a few hundred characters, so a quoted passage reads as prose. No slice holds more than
SLICE_CHARS characters of text, whatever its paragraphs: a longer paragraph is cut at sentence
ends, a longer sentence at its clauses, and a longer clause at SLICE_CHARS. Every search scores
and quotes slices, so a chapter that is one 1 MB paragraph costs a search no more than a chapter
of ordinary paragraphs (a whole paragraph as one slice made each search rescore and quote all of
it). Later kinds (long summaries, thread and relationship blocks) use the same shape.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..write.chapter_inputs import ChapterResult

SLICE_CHARS = 400  # the most characters of text a slice holds
# 「第十二回」, 「第3章：」: the heading's number, which names no event
_HEADING_NUMBER = re.compile(r"^\s*第[^章回节節\s]{1,12}[章回节節][\s:：.、]*")
SENTENCE_END = re.compile(r"(?<=[。！？!?…])")
CLAUSE_END = re.compile(r"(?<=[，；：、,;:\s])")
CUT_AT = (SENTENCE_END, CLAUSE_END)  # where a long paragraph is cut, first choice first
HEADING_CHARS = 80  # a longer line that starts with # is text, not a Markdown heading


@dataclass(frozen=True, kw_only=True)
class Chunk:
    chunk_id: str
    chapter: int
    kind: str
    seq: int
    text: str
    entities: tuple[str, ...] = ()


def chapter_chunks(result: ChapterResult, text: str | None) -> list[Chunk]:
    n = result.chapter
    chunks: list[Chunk] = []
    title = chapter_title_words(result.title)
    if title:
        # The title as its own passage: a 回目's two half-lines name the chapter's events and
        # people, so a question made of them finds this chapter, not the one before it.
        chunks.append(
            Chunk(chunk_id=f"ch{n}:title", chapter=n, kind="chapter_title", seq=-1, text=title)
        )
    if result.summary:
        chunks.append(
            Chunk(
                chunk_id=f"ch{n}:summary",
                chapter=n,
                kind="chapter_summary",
                seq=0,
                text=result.summary,
            )
        )
    for scene in result.scenes:
        if scene.summary:
            chunks.append(
                Chunk(
                    chunk_id=f"ch{n}:scene{scene.index}:summary",
                    chapter=n,
                    kind="scene_summary",
                    seq=scene.index,
                    text=scene.summary,
                    entities=scene.characters,
                )
            )
    scene_texts = [s for s in result.scenes if s.content and s.content.strip("…. ")]
    if scene_texts:
        for scene in scene_texts:
            for i, piece in enumerate(slice_text(scene.content or "")):
                chunks.append(
                    Chunk(
                        chunk_id=f"ch{n}:scene{scene.index}:slice{i}",
                        chapter=n,
                        kind="scene_slice",
                        seq=scene.index * 1000 + i,
                        text=piece,
                        entities=scene.characters,
                    )
                )
    elif text:
        for i, piece in enumerate(slice_text(text)):
            chunks.append(
                Chunk(
                    chunk_id=f"ch{n}:slice{i}",
                    chapter=n,
                    kind="scene_slice",
                    seq=1000 + i,
                    text=piece,
                )
            )
    return _unique_ids(chunks)


def chapter_title_words(title: str | None) -> str:
    """A chapter title without its number: 「夺状元枪挑小梁王　反武场放走岳鹏举」."""
    return _HEADING_NUMBER.sub("", title or "").strip()


def _unique_ids(chunks: list[Chunk]) -> list[Chunk]:
    """A result may give two scenes one index: their chunks keep the first's id and number the
    rest (`~2`, `~3`), since a chunk's id is its key in the index."""
    seen: dict[str, int] = {}
    out = []
    for chunk in chunks:
        times = seen[chunk.chunk_id] = seen.get(chunk.chunk_id, 0) + 1
        out.append(chunk if times == 1 else replace(chunk, chunk_id=f"{chunk.chunk_id}~{times}"))
    return out


def slice_text(text: str, size: int = SLICE_CHARS) -> list[str]:
    """The text's paragraphs packed into slices of at most `size` characters (besides the line
    breaks between the paragraphs of a slice); a Markdown heading line is left out."""
    pieces: list[str] = []
    for line in text.splitlines():
        paragraph = line.strip()
        if not paragraph or (line.startswith("#") and len(paragraph) <= HEADING_CHARS):
            continue
        pieces += _cut(paragraph, size, CUT_AT) if len(paragraph) > size else [paragraph]
    slices: list[str] = []
    current = ""
    for piece in pieces:
        if current and len(current) + len(piece) > size:
            slices.append(current)
            current = ""
        current = f"{current}\n{piece}" if current else piece
    if current:
        slices.append(current)
    return slices


def _cut(text: str, size: int, marks: tuple[re.Pattern[str], ...]) -> list[str]:
    """`text` cut after the first of `marks` (sentence ends, then clause ends) and its parts
    packed into pieces of at most `size` characters; a part longer than that is cut at the
    next mark, and past the last, every `size` characters. Linear in the text."""
    if not marks:
        return [text[i : i + size] for i in range(0, len(text), size)]
    out: list[str] = []
    current = ""
    for part in marks[0].split(text):
        for piece in _cut(part, size, marks[1:]) if len(part) > size else (part,):
            if current and len(current) + len(piece) > size:
                out.append(current)
                current = ""
            current += piece
    if current:
        out.append(current)
    return out
