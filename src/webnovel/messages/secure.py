"""Sentences of the trust boundary's edges: chapter files leading outside the book, a received
book's store URL and the servers a password may go to (docs/security.md)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "status_link": (
        "第{chapter}章的章节文件是指向书的文件夹之外的链接，已拒绝，不读取、不提交：{path}（指向 {target}）；"
        "要提交它，把真正的文件放进书的文件夹",
        "chapter {chapter}'s file is a link leading outside the book's folder, refused (not read, "
        "not offered to commit): {path} (points to {target}); to commit it, put the real file in "
        "the book's folder",
    ),
}
