"""What a commit or a retraction says of the conflicts it changed (`cli/render.commit_text`):
those it added and took away, not every open one of later chapters. Part of the one catalogue
(`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "commit_conflict_removed_line": ("  矛盾已消除：{message}", "  conflict gone: {message}"),
    "commit_conflicts_not_shown": (
        "  ……另有 {count} 处未列出（--format json 列出全部）",
        "  … {count} more not shown (--format json lists them all)",
    ),
    "commit_conflicts_other_open": (
        "  另有 {count} 处未解决的矛盾，本次未改动（webnovel conflicts 列出）",
        "  {count} other open conflicts, not changed by this (webnovel conflicts lists them)",
    ),
}
