"""What `import text` says of a file's chapter numbers against the book's, and which chapters a
re-import changed. Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    # -- a file that numbers its chapters otherwise (book/heading_numbers.py) --------------------
    "import_numbering_starts_over": (
        "{path} 的章节编号从头开始：它的「{heading}」是第{says}章，本书已写到第{latest}章，"
        "接在书后会成为第{becomes}章。已拒绝，什么也没有写入。若它是本书的修订版，用 --start {says} "
        "按章号替换；若确要接在书后（另一部、从第一章重新编号的续篇），加 --append",
        "{path} numbers its chapters from the start again: its 「{heading}」 is chapter {says}, "
        "the book already runs to chapter {latest}, and appended it would become chapter "
        "{becomes}. Refused, nothing was written. If it is a revised edition of this book, "
        "--start {says} replaces chapters by number; to append it anyway (another part, a "
        "sequel numbered from chapter 1 again), add --append",
    ),
    "import_numbering_appended": (
        "{path} 的「{heading}」（第{says}章）按 --append 接在书后，成为第{becomes}章",
        "{path}'s 「{heading}」 (chapter {says}) is appended as asked (--append): it becomes "
        "chapter {becomes}",
    ),
    "import_numbering_skips": (
        "{path} 的「{heading}」是第{says}章，本书写到第{latest}章，它将成为第{becomes}章；"
        "要保留原书的章号，用 --start {says}",
        "{path}'s 「{heading}」 is chapter {says}, the book runs to chapter {latest}: it will be "
        "chapter {becomes}; to keep the source's numbers, use --start {says}",
    ),
    # -- which chapters an import wrote (cli/render.py) --------------------------------------------
    # {chapters} is 「第3、7、12–15章」 (queries/text.py chapter_list)
    "import_text_changed": ("正文有改动：{chapters}", "text changed: {chapters}"),
    "import_added": ("新增：{chapters}", "new: {chapters}"),
    "import_result_changed": (
        "正文未变、记忆更新：{chapters}",
        "same text, memory updated: {chapters}",
    ),
    # -- `import text --append`'s help (cli/) --------------------------------------------------------
    "help_import_append": (
        "章节编号从头开始的文件（如另一部、重新编号的续篇）也接在书后；默认拒绝，以免把另一部小说或修订版误接在后面",
        "append a file whose chapter numbers start over (another part, a sequel numbered from 1 "
        "again); by default it is refused, so that another novel or a revised edition is not "
        "appended by mistake",
    ),
}
