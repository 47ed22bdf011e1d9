"""What `status` and `sync` say of many chapters from one file at once (an imported novel's
file gone, chapters it gained). Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "status_missing_run": (
        "第{first}–{last}章（共{count}章）的正文文件不见了，无法重新读取：{path}",
        "the text file of chapters {first}–{last} ({count} chapters) is gone and cannot be read "
        "again: {path}",
    ),
    "status_uncommitted_run": (
        "{path} 里有尚未提交的章节：第{first}–{last}章（共{count}章；webnovel import text 导入）",
        "{path} holds chapters never committed: {first}–{last} ({count}; webnovel import text)",
    ),
}
