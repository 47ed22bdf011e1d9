"""Reading an author's text files: chapters and outlines in the encodings Chinese editors save.

A chapter saved by a Chinese Windows editor is often GB18030 (GBK), or Big5 for traditional
text, rather than UTF-8. Both decode almost any byte pair, so when both succeed the one that
yields the everyday characters of Chinese prose wins. A file that is none of them is refused with
its name. Chapter results are JSON and must be UTF-8 (`read_utf8`).

Every read is bounded: a file (or `/dev/zero`, or a pipe) larger than the limit for its kind is
refused with its name before it can exhaust memory. The limits are far above any real chapter
(the longest serials are about 30 M characters, 90 MB, in one file).
"""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

from .errors import InvalidInput

MAX_TEXT_BYTES = 200_000_000  # a whole novel in one file, an outline, a chapter's text
MAX_RESULT_BYTES = 64_000_000  # a chapter result (JSON)

# Characters frequent in both simplified and traditional prose: right decodings are full of
# them, wrong ones (Big5 bytes read as GBK, or the reverse) almost never.
_EVERYDAY = frozenset("的一是不了人我在有他她你也就出上地中大子可要去之而道得到着著心自己手头頭")
_FALLBACKS = ("gb18030", "big5")


def read_bounded(source: Path | BinaryIO, limit: int, name: str | None = None) -> bytes:
    """The bytes of a file or stream, refused (naming it) when there are more than `limit`."""
    if isinstance(source, Path):
        with source.open("rb") as handle:
            data = handle.read(limit + 1)
    else:
        data = source.read(limit + 1)
    if len(data) > limit:
        shown = name or (str(source) if isinstance(source, Path) else "标准输入")
        raise InvalidInput(
            f"{shown}：超过 {limit // 1_000_000} MB 的上限，不像是一章或一本书，已拒绝读取"
        )
    return data


def read_text(path: Path, limit: int = MAX_TEXT_BYTES) -> tuple[str, str]:
    """(text, encoding) of a text file in UTF-8 (with or without a byte-order mark), GB18030
    or Big5; at most `limit` bytes."""
    data = read_bounded(path, limit)
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


def read_utf8(path: Path, limit: int = MAX_RESULT_BYTES) -> str:
    """A file that must be UTF-8 (a chapter result); a byte-order mark is allowed."""
    try:
        return read_bounded(path, limit).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidInput(
            f"{path}: is not UTF-8 (byte {exc.start}); save the chapter result as UTF-8 JSON"
        ) from exc


def refuse_links_outside(root: Path, paths: list[Path]) -> None:
    """Refuse, naming them, the paths under `root` that are links leading outside it: a folder
    from someone else could otherwise pull in `/etc/passwd` or a key file as a chapter."""
    inside = root.resolve()
    outside = [p for p in paths if not p.resolve().is_relative_to(inside)]
    if outside:
        named = "、".join(f"{p} → {p.resolve()}" for p in outside[:10])
        more = f" 等 {len(outside)} 个" if len(outside) > 10 else ""
        raise InvalidInput(
            f"{root} 里有指向文件夹外的链接，已拒绝导入：{named}{more}；"
            "请删除这些链接，或把文件本身复制进来"
        )
