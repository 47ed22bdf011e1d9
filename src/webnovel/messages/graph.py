"""The relation graph's and the recent commits' own sentences (dashboard)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "graph_no_faction": ("未标阵营", "no faction recorded"),
    "commits_chapter": ("第{chapter}章", "chapter {chapter}"),
    "commits_chapters": ("第{first}–{last}章", "chapters {first}–{last}"),
    "commits_accepted": (
        "接受候选人名 ×{count}（{span}）",
        "candidate names accepted ×{count} ({span})",
    ),
    "commits_merged": (
        "合并候选人名 ×{count}（{span}）",
        "candidate names merged ×{count} ({span})",
    ),
    "commits_named": (
        "接受、合并候选人名 ×{count}（{span}）",
        "candidate names accepted or merged ×{count} ({span})",
    ),
    "commits_new": ("提交新章 ×{count}（{span}）", "new chapters committed ×{count} ({span})"),
    "commits_more": ("……及更早的 {count} 条", "… and {count} earlier"),
    "commit_did_accept": ("接受「{name}」为{type}", "accepted 「{name}」 as {type}"),
    "commit_did_merge": ("「{name}」并为{into}的别名", "「{name}」 merged as an alias of {into}"),
    "commit_did_rewrite": ("重新提交", "committed again"),
}
