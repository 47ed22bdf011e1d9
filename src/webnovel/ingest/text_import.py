"""Bringing an existing book in: a novel's text cut into chapters, and a cast file. Pure
functions over text; committing is the facade's job (names the text suggests: `name_finder`).

A whole novel in one file is cut at its chapter headings (第十二章, 第12章, 第一百零三回, 第3节,
with or without a title; 楔子, 序章, 引子 and 序言 open a prologue). 卷 headings are kept as the
volume of the chapters after them, also when a line holds both (第一卷 少年 第一章 陨落); a
Markdown heading (# 第一章 …) is a heading too. Chapters are numbered in the order they appear, from the
number the import starts at, so a book with a prologue, a skipped or a repeated number is still
imported whole and in order. A chapter's title is its heading's words (`heading_parts`: 下山 for
「第2章 下山」), since the book says the number itself; the facade keeps the whole heading as the
title where the heading's number is not the chapter's (`book.importing.imported_title`).

Text that stands under no chapter heading (a title page, an author's note or a 简介 before the
first chapter, a volume's opening words after its 卷 heading) is front matter: it is not a
chapter (chapters start at 1 with the book's own first chapter, and a 简介 would tell the memory
what happens later), but it is never dropped: it is kept with the chapter that follows it.
"""

from __future__ import annotations

import csv
import io
import re
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..errors import InvalidInput
from ..messages import say
from ..untrusted.toml_errors import toml_problem
from .text_files import read_text, refuse_links_outside

_MARKDOWN = r"(?:#{1,6}[ \t]*)?"  # a Markdown heading's marks (# 第一章 …, in a .md file)
_NUMERAL = r"[0-9０-９零〇一二三四五六七八九十百千万两壹贰叁肆伍陆柒捌玖拾佰仟]+"
CHAPTER_HEADING = re.compile(
    rf"^[ \t\u3000]*{_MARKDOWN}(第{_NUMERAL}[章回节節](?:[ \t\u3000]*[:：.、]?[ \t\u3000]*\S.*)?"
    r"|(?:楔子|序章|序言|引子)(?:[ \t\u3000]*[:：]?[ \t\u3000]*\S.*)?)[ \t\u3000]*$",
    re.MULTILINE,
)
VOLUME_HEADING = re.compile(
    rf"^[ \t\u3000]*{_MARKDOWN}(第{_NUMERAL}[卷部](?:[ \t\u3000]*[:：]?[ \t\u3000]*\S.*)?)[ \t\u3000]*$",
    re.MULTILINE,
)
# a volume and its chapter on one line (第一卷 少年 第一章 陨落, 第二卷第三章): the volume, then
# the chapter
VOLUME_AND_CHAPTER = re.compile(
    rf"^[ \t\u3000]*{_MARKDOWN}(第{_NUMERAL}[卷部][^\n]*?)[ \t\u3000]*"
    rf"(第{_NUMERAL}[章回节節](?:[ \t\u3000]*[:：.、]?[ \t\u3000]*\S.*)?)[ \t\u3000]*$",
    re.MULTILINE,
)
MAX_TITLE_CHARS = 60  # a longer "heading" is a sentence that happens to start with 第N章
# a numbered heading: its number as written, then its words after any separator (第一章：陨落,
# 第1章 下山, 第三回、风起, 第2章——夜, 第五章陨落的天才)
_NUMBERED = re.compile(rf"第({_NUMERAL})[章回节節][\s:：.．、,，·\-—–]*(.*)", re.DOTALL)


@dataclass(frozen=True)
class ImportedChapter:
    heading: str  # the heading line as written (a file's name when it has none)
    text: str
    volume: str | None = None
    source: str = ""
    front_matter: str = ""  # text before the heading that belongs to no chapter


def split_chapters(text: str, source: str = "") -> tuple[list[ImportedChapter], list[str]]:
    """The chapters of a whole novel, and warnings (no headings: one chapter)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    marks = [
        (m.start(), m.end(), "chapter", m.group(1).strip())
        for m in CHAPTER_HEADING.finditer(text)
        if len(m.group(1).strip()) <= MAX_TITLE_CHARS
    ]
    both = [  # each as a volume mark with no text, then the chapter's
        mark
        for m in VOLUME_AND_CHAPTER.finditer(text)
        if len(m.group(0).strip()) <= MAX_TITLE_CHARS
        for mark in (
            (m.start(), m.start(), "volume", m.group(1).strip()),
            (m.start(), m.end(), "chapter", m.group(2).strip()),
        )
    ]
    on_one_line = {start for start, *_ in both}
    marks += both + [
        (m.start(), m.end(), "volume", m.group(1).strip())
        for m in VOLUME_HEADING.finditer(text)
        if m.start() not in on_one_line
    ]
    marks.sort()
    if not any(kind == "chapter" for *_, kind, _ in marks):
        body = text.strip()
        warning = say("no_chapter_headings", source=source or say("the_text"))
        return ([ImportedChapter(Path(source).stem or "全文", body, None, source)], [warning])
    chapters: list[ImportedChapter] = []
    volume: str | None = None
    loose = [text[: marks[0][0]]]  # text under no chapter heading, waiting for the next chapter
    for i, (_, end, kind, heading) in enumerate(marks):
        stop = marks[i + 1][0] if i + 1 < len(marks) else len(text)
        if kind == "volume":
            volume = heading
            loose.append(text[end:stop])
            continue
        front = "\n\n".join(part.strip() for part in loose if part.strip())
        loose = []
        chapters.append(ImportedChapter(heading, text[end:stop].strip("\n"), volume, source, front))
    warnings = []
    if any(part.strip() for part in loose):  # a volume heading with no chapter after it
        tail = "\n\n".join(part.strip() for part in loose if part.strip())
        last = chapters[-1]
        chapters[-1] = replace(last, text=f"{last.text}\n\n{volume}\n{tail}")
        warnings.append(say("volume_without_chapters", source=source or say("the_text")))
    return chapters, warnings


def heading_parts(heading: str) -> tuple[str | None, str]:
    """A numbered heading's number as written and its words: (「一千九百九十八」, 「第1998回目」)
    for 「第一千九百九十八章 第1998回目」, (「2」, 「」) for 「第2章」; (None, the heading) for one
    with no number (楔子, 序章：雪夜, a file's name)."""
    numbered = _NUMBERED.fullmatch(heading.strip())
    if numbered is None:
        return None, heading.strip()
    return numbered.group(1), numbered.group(2).strip()


def natural_key(path: Path) -> list[object]:
    """第2章.txt before 第10章.txt, 2.md before 10.md: numbers compare as numbers."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path.name)]


def read_chapters(path: Path) -> tuple[list[ImportedChapter], list[str], dict[str, int]]:
    """A novel file cut at its headings, or a folder of chapter files in natural order (each
    file one chapter, titled by its first heading or its name; what stands before a heading
    near its top is the chapter's front matter); warnings; and how many files were read in
    each encoding (`UTF-8`, `GB18030`, `BIG5`, `UTF-16LE`, `UTF-16BE`)."""
    if path.is_dir():
        files = sorted(
            (p for p in path.iterdir() if p.is_file() and p.suffix in (".txt", ".md")),
            key=natural_key,
        )
        if not files:
            raise InvalidInput.of("no_chapter_files", path=path)
        refuse_links_outside(path, files)
        chapters = []
        encodings: dict[str, int] = {}
        for file in files:
            chapter, encoding = read_chapter_file(file)
            if chapter.heading == file.stem:  # no heading inside: the file may hold nothing
                _refuse_empty(file, chapter.text + chapter.front_matter)
            encodings[encoding.upper()] = encodings.get(encoding.upper(), 0) + 1
            chapters.append(chapter)
        notes = [
            say("files_read_as", count=count, encoding=name)
            for name, count in encodings.items()
            if name != "UTF-8"
        ]
        return chapters, notes, encodings
    text, encoding = read_text(path)
    _refuse_empty(path, text)
    chapters, warnings = split_chapters(text, str(path))
    if encoding != "utf-8":
        warnings.insert(0, say("text_read_as", encoding=encoding.upper(), path=path))
    return chapters, warnings, {encoding.upper(): 1}


def _refuse_empty(path: Path, text: str) -> None:
    """A file with no text (0 bytes, or only blanks) is a download or a copy that failed, not
    a chapter: importing it would commit an empty chapter at the end of the book."""
    if not text.strip():
        raise InvalidInput.of("import_file_empty", path=path)


def read_chapter_file(file: Path) -> tuple[ImportedChapter, str]:
    """One file of a folder of chapter files, as its import reads it (titled by its first
    heading or its name; what stands before a heading near its top is its front matter), and
    the encoding it was read in. `status` reads an imported chapter file again the same way."""
    text, encoding = read_text(file)
    heading = CHAPTER_HEADING.search(text)
    written = heading.group(1).strip() if heading else file.stem
    near_top = heading is not None and heading.start() < 200
    body = text[heading.end() :] if heading and near_top else text
    front = text[: heading.start()].strip() if heading and near_top else ""
    return ImportedChapter(written, body.strip("\n"), None, str(file), front), encoding


def chapter_result(
    number: int, chapter: ImportedChapter, title: str, word_count: int
) -> dict[str, object]:
    """The minimal chapter result an imported chapter is committed with (its title and its
    `word_count` decided by the facade: the title by the number it is committed as, the count
    as a commit's text is counted). A heading that is only a number gives no title."""
    result: dict[str, object] = {"chapter": number, "word_count": word_count}
    if title:
        result["title"] = title
    meta: dict[str, str] = {}
    if chapter.volume:
        meta["volume"] = chapter.volume
    if chapter.front_matter:
        meta["front_matter"] = chapter.front_matter
    if meta:
        result["chapter_meta"] = meta
    return result


# -- the cast -------------------------------------------------------------------------------


def read_cast(path: Path) -> list[dict[str, Any]]:
    """Entities from a TOML (`[[entity]]` tables) or CSV (id, name, aliases, type) file, as
    `entities_new` items. Aliases in CSV are separated by 、 ; or |."""
    text, _ = read_text(path)
    if path.suffix.lower() == ".toml":
        try:
            rows = tomllib.loads(text).get("entity", [])
        except tomllib.TOMLDecodeError as exc:
            raise InvalidInput.of("cast_unparsable", path=path, error=toml_problem(exc)) from exc
        if not isinstance(rows, list):
            raise InvalidInput.of("cast_not_tables", path=path)
    else:
        rows = list(csv.DictReader(io.StringIO(text)))
    cast = []
    for i, row in enumerate(rows, start=1):
        if not isinstance(row, dict) or not row.get("id") or not row.get("name"):
            raise InvalidInput.of("cast_entry_incomplete", path=path, index=i)
        aliases = row.get("aliases") or []
        if isinstance(aliases, str):
            aliases = [a.strip() for a in re.split(r"[、;|；]", aliases) if a.strip()]
        cast.append(
            {
                "id": str(row["id"]).strip(),
                "name": str(row["name"]).strip(),
                "aliases": [str(a) for a in aliases],
                "type": str(row.get("type") or "角色").strip(),
            }
        )
    return cast
