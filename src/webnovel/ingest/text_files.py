"""Reading an author's text files: chapters and outlines in the encodings Chinese editors save.

A chapter saved by a Chinese Windows editor is often GB18030 (GBK), or Big5 for traditional
text, rather than UTF-8. Both decode almost any byte pair, so when both succeed the one that
yields the everyday characters of Chinese prose wins. A byte-order mark decides: UTF-8, or
UTF-16 (little or big endian) as Windows Notepad saves "Unicode". A file that is none of them is
refused naming the first byte that cannot be read, by offset, line and column, in the encoding it
most looks like, so that the author can find it in an editor. Chapter results are JSON and must be
UTF-8 (`read_utf8`).

Every read is bounded: a file (or `/dev/zero`, or a pipe) larger than the limit for its kind is
refused with its name before it can exhaust memory. The limits are far above any real chapter
(the longest serials are about 30 M characters, 90 MB, in one file).
"""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

from ..errors import InvalidInput
from ..messages import say

MAX_TEXT_BYTES = 200_000_000  # a whole novel in one file, an outline, a chapter's text
MAX_RESULT_BYTES = 64_000_000  # a chapter result (JSON)

# Characters frequent in both simplified and traditional prose: right decodings are full of
# them, wrong ones (Big5 bytes read as GBK, or the reverse) almost never.
_EVERYDAY = frozenset("的一是不了人我在有他她你也就出上地中大子可要去之而道得到着著心自己手头頭")
_FALLBACKS = ("gb18030", "big5")
_SCORED_CHARS = 100_000  # how much of a decoding is scored for everyday characters
_SCORED_BYTES = 400_000  # at least that many characters in any of the encodings
# A byte-order mark names its encoding; UTF-32's marks would start with UTF-16's, and no editor
# a Chinese author uses saves UTF-32, so they are not looked for.
_BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16le"), (b"\xfe\xff", "utf-16be"))


def read_bounded(source: Path | BinaryIO, limit: int, name: str | None = None) -> bytes:
    """The bytes of a file or stream, refused (naming it) when there are more than `limit`."""
    if isinstance(source, Path):
        with source.open("rb") as handle:
            data = handle.read(limit + 1)
    else:
        data = source.read(limit + 1)
    if len(data) > limit:
        shown = name or (str(source) if isinstance(source, Path) else say("standard_input"))
        raise InvalidInput.of("text_too_big", name=shown, mb=limit // 1_000_000)
    return data


def read_text(path: Path, limit: int = MAX_TEXT_BYTES) -> tuple[str, str]:
    """(text, encoding) of a text file in UTF-8, GB18030, Big5, or UTF-16 with a byte-order
    mark; at most `limit` bytes. The encoding is the codec's name: `utf-8` (with or without a
    mark), `gb18030`, `big5`, `utf-16le` or `utf-16be`."""
    return decode_text(read_bounded(path, limit), str(path))


def decode_text(data: bytes, name: str) -> tuple[str, str]:
    """`read_text` for bytes already read; `name` is what a refusal calls them."""
    for mark, encoding in _BOMS:
        if data.startswith(mark):
            try:
                return data[len(mark) :].decode(encoding), encoding
            except UnicodeDecodeError as exc:
                where = _where(data, len(mark), encoding, exc)
                raise InvalidInput.of(
                    "text_bad_after_bom", path=name, encoding=encoding.upper(), where=where
                ) from exc
    failures: list[UnicodeDecodeError] = []
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as exc:
        failures.append(exc)
    decoded: list[tuple[int, str, str]] = []
    for encoding in _FALLBACKS:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError as exc:
            failures.append(exc)
            continue
        decoded.append((_everyday(text), text, encoding))
    # The encoding whose readable part holds the most prose is the one the author meant: when
    # that part stops at a bad byte (a UTF-8 book with one broken character, which GB18030
    # would read whole as gibberish), that byte is the one to show.
    score, first_bad = max(
        ((_everyday(data[: min(e.start, _SCORED_BYTES)], e.encoding), e) for e in failures),
        key=lambda found: (found[0], found[1].start),
    )
    best = max(decoded, key=lambda d: d[0], default=None)
    if best is None or score > 2 * best[0] + 2:  # clearly more prose, not a chance hit or two
        encoding = first_bad.encoding
        where = _where(data, 0, encoding, first_bad)
        raise InvalidInput.of("text_undecodable", path=name, encoding=encoding.upper(), where=where)
    return best[1], best[2]


def _everyday(text: str | bytes, encoding: str = "") -> int:
    """How many everyday characters the first 100,000 characters hold (bytes: as `encoding`):
    plenty to tell prose from gibberish, and quick on a whole novel."""
    if isinstance(text, bytes):
        text = text.decode(encoding, errors="ignore")
    return sum(ch in _EVERYDAY for ch in text[:_SCORED_CHARS])


def _where(data: bytes, body: int, encoding: str, exc: UnicodeDecodeError) -> str:
    """Where the first bad byte is: its offset in the file, and its line and column (counted
    in characters) in the text as read so far."""
    offset = body + exc.start
    before = data[body:offset].decode(encoding, errors="replace")
    line = before.count("\n") + 1
    column = len(before) - before.rfind("\n")
    bad = data[offset : min(body + exc.end, offset + 4)]
    return say(
        "text_bad_byte",
        line=line,
        column=column,
        offset=offset,
        bytes=" ".join(f"0x{b:02X}" for b in bad),
    )


def read_utf8(path: Path, limit: int = MAX_RESULT_BYTES) -> str:
    """A file that must be UTF-8 (a chapter result); a byte-order mark is allowed."""
    try:
        return read_bounded(path, limit).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidInput.of("result_not_utf8", path=path, byte=exc.start) from exc


def refuse_links_outside(root: Path, paths: list[Path]) -> None:
    """Refuse, naming them, the paths under `root` that are links leading outside it: a folder
    from someone else could otherwise pull in `/etc/passwd` or a key file as a chapter."""
    inside = root.resolve()
    outside = [p for p in paths if not p.resolve().is_relative_to(inside)]
    if outside:
        named = say("argument_list_separator").join(f"{p} → {p.resolve()}" for p in outside[:10])
        more = say("links_more", count=len(outside)) if len(outside) > 10 else ""
        raise InvalidInput.of("links_outside", root=root, named=named, more=more)
