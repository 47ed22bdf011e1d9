"""The Chinese help of the revising commands (impact, publish, status, sync), kept apart from
help_words.py's table, which takes it in."""

from __future__ import annotations

HELP: dict[str, str] = {
    "what committing a chapter result (or retracting a chapter) would change in the rest of "
    "the book, chapter by chapter, with the published line; writes nothing": "改稿前先看影响：提交这一章的新结果（或撤回这一章）会让后面哪些章节出什么问题，按章列出并标出发布线；不写入任何内容",
    "the revised chapter-result JSON file, or - for standard input": "改过的章节结果 JSON 文件，- 表示标准输入",
    "the chapter the result is for (when it does not say it)": "结果对应的章节号（结果里没写时）",
    "the revised chapter's text (Markdown)": "改过的本章正文（Markdown）",
    "the impact of retracting the chapter instead": "改为查看撤回该章的影响",
    "mark chapters 1..N as published: readers have them, so revising or retracting them then "
    "needs --force, and says what it would contradict": "把第 1–N 章标为已发布：读者已读过，此后改写或撤回它们需加 --force，并先说明会与什么矛盾",
    "the last published chapter (0 clears the line)": "已发布的最后一章（0 表示撤掉发布线）",
    "with --check: commit anyway; also commit a published chapter's revision": "配合 --check：仍然写入（矛盾记为冲突）；也用于改写已发布的章节",
    "retract it even if it is published (logged as a revision of a published chapter)": "即使该章已发布也撤回（日志记为对已发布章节的修订）",
    "chapter files edited since their commit, gone, or never committed, and chapters whose "
    "memory is stale": "列出改动过的章节文件：提交后又被手改的、文件不见了的、章节文件夹里从未提交的，以及记忆待更新（stale）的章节",
    "take the texts of chapters edited by hand in again: text and search are updated, and "
    "each is marked stale until a new result is committed": "重新读入手改过的章节正文：更新正文与检索，并把这些章节标为记忆待更新（stale），直到提交新的章节结果",
    "have the model read each stale chapter again and show what its new result changes": "让模型重新阅读每个记忆待更新的章节，并先显示新章节结果会带来的影响",
    "with --extract: commit the model's new results": "配合 --extract：提交模型给出的新章节结果",
    "with --extract --yes: a published chapter's new result too": "配合 --extract --yes：已发布章节的新结果也提交",
}
