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
    # a remembered text file outside the book's folder: never read (docs/security.md)
    "status_outside": (
        "第{chapter}章的正文文件在书的文件夹之外，不读取：{path}（要让 status 照看它，把它放进书的文件夹，"
        "再用 commit --text 提交）",
        "chapter {chapter}'s text file is outside the book's folder and is not read: {path} (for "
        "status to watch it, put it in the book's folder and commit it with --text)",
    ),
    "status_outside_run": (
        "第{first}–{last}章（共{count}章）的正文文件在书的文件夹之外，不读取：{path}",
        "the text file of chapters {first}–{last} ({count} chapters) is outside the book's folder "
        "and is not read: {path}",
    ),
}
