"""Reading an author's text files: chapters and outlines in the encodings Chinese editors save.

A chapter saved by a Chinese Windows editor is often GB18030 (GBK), or Big5 for traditional
text, rather than UTF-8. Both decode almost any byte pair, so when both succeed the one that
yields the everyday characters of Chinese prose wins. A file that is none of them is refused with
its name. Chapter results are JSON and must be UTF-8 (`read_utf8`).
"""

from __future__ import annotations

from pathlib import Path

from .errors import InvalidInput

# Characters frequent in both simplified and traditional prose: right decodings are full of
# them, wrong ones (Big5 bytes read as GBK, or the reverse) almost never.
_EVERYDAY = frozenset("的一是不了人我在有他她你也就出上地中大子可要去之而道得到着著心自己手头頭")
_FALLBACKS = ("gb18030", "big5")


def read_text(path: Path) -> tuple[str, str]:
    """(text, encoding) of a text file in UTF-8 (with or without a byte-order mark), GB18030
    or Big5."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        pass
    decoded: list[tuple[int, str, str]] = []
    for encoding in _FALLBACKS:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        decoded.append((sum(ch in _EVERYDAY for ch in text), text, encoding))
    if not decoded:
        raise InvalidInput(f"{path}: is not text in UTF-8, GB18030 or Big5")
    _, text, encoding = max(decoded, key=lambda d: d[0])
    return text, encoding


def read_utf8(path: Path) -> str:
    """A file that must be UTF-8 (a chapter result); a byte-order mark is allowed."""
    try:
        return path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidInput(
            f"{path}: is not UTF-8 (byte {exc.start}); save the chapter result as UTF-8 JSON"
        ) from exc
