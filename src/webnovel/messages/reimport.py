"""What importing a book's text again says: an empty file refused, the chapters whose results
were kept, the cast a replaced import result introduced, `sync` of published chapters, and
`status` of a novel's file outside the book. Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    # -- an empty file (ingest/text_import.py) ------------------------------------------------
    "import_file_empty": (
        "{path} 是空的（没有正文），已拒绝，什么也没有写入。可能是下载或复制失败：换一个完整的文件再导入",
        "{path} is empty (no text): refused, nothing was written. A download or a copy may have "
        "failed: import a complete file",
    ),
    # -- chapters an import leaves their results (book/kept_results.py) -----------------------
    "import_kept_dry": (
        "章节结果不是导入生成的（由代理、作者或 extract 提交），导入时保留：{chapters}；"
        "其中正文有改动的只换正文，标为记忆待更新",
        "results not made by an import (committed by an agent, the author or extract) are kept: "
        "{chapters}; where the text changed, only the text is replaced and the chapter marked "
        "stale",
    ),
    "import_kept": (
        "章节结果不是导入生成的，已保留：{chapters}",
        "results not made by an import, kept: {chapters}",
    ),
    "import_kept_stale": (
        "其中正文有改动、已标为记忆待更新（请重新抽取或提交新的章节结果）：{chapters}",
        "of those, the text changed and the chapter is marked stale (extract again or commit a "
        "new result): {chapters}",
    ),
    # -- `sync` (book/hand_edits.py) ---------------------------------------------------------
    "sync_done_remade": (
        "已重新读入第{chapters}章的正文，并按新正文重新生成了导入的章节结果（记忆已更新）",
        "took in the edited text of chapter(s) {chapters} and made their import results again "
        "from it (memory is up to date)",
    ),
    "help_sync_force_published": (
        "改动已发布章节的记忆时也读入（日志记为已发布章节的修订，同 import text --force）；"
        "配合 --extract --yes：已发布章节的新结果也提交",
        "take in edits that change a published chapter's memory too (logged as a revision of a "
        "published chapter, as import text --force is); with --extract --yes: a published "
        "chapter's new result too",
    ),
    # -- `status` of an imported file outside the book (cli/status_lines.py) -------------------
    "status_outside_imported": (
        "第{chapter}章的正文文件在书的文件夹之外，不读取：{path}（要让 status 照看它，把它复制进书的"
        "文件夹，再对那份副本运行一次 webnovel import text：正文未变的章节不会改动，只记下新位置）",
        "chapter {chapter}'s text file is outside the book's folder and is not read: {path} (for "
        "status to watch it, copy it into the book's folder and run webnovel import text on the "
        "copy once: chapters whose text is the same are left alone, only the new place is "
        "remembered)",
    ),
    "status_outside_imported_run": (
        "第{first}–{last}章（共{count}章）的正文文件在书的文件夹之外，不读取：{path}（要让 status "
        "照看它，把它复制进书的文件夹，再对那份副本运行一次 webnovel import text：正文未变的章节"
        "不会改动，只记下新位置）",
        "the text file of chapters {first}–{last} ({count} chapters) is outside the book's folder "
        "and is not read: {path} (for status to watch it, copy it into the book's folder and run "
        "webnovel import text on the copy once: chapters whose text is the same are left alone, "
        "only the new place is remembered)",
    ),
    # -- a retracted chapter committed again (memory/write/write_pipeline.py) -----------------
    "commit_restored_text": (
        "第{chapter}章恢复撤回前的正文（本次未附正文；要替换请附上 --text）",
        "chapter {chapter} gets back the text it had before it was retracted (none came with "
        "this commit; pass --text to replace it)",
    ),
    # -- a result committed over an imported chapter (book/kept_cast.py) ---------------------
    "commit_kept_cast": (
        "第{chapter}章：新结果没有登记 {names}；这些实体是本章导入时（--cast 或找到的名字）登记的，书中仍在"
        "引用，已保留其登记（entities_new）",
        "chapter {chapter}: the new result does not register {names}; this chapter's import "
        "registered them (--cast or names found) and the book still refers to them, so their "
        "registration (entities_new) is kept",
    ),
    "commit_kept_import_words": (
        "第{chapter}章：新结果没有{kept}，沿用导入时的",
        "chapter {chapter}: the new result gives no {kept}; the import's are kept",
    ),
    "kept_import_title": ("标题", "title"),
    "kept_import_volume": ("卷名", "volume"),
    "kept_import_front_matter": ("章前文字（front_matter）", "front matter"),
    "hint_unknown_entity_replaced": (
        "「{name}」由第{chapter}章现在的结果登记（webnovel result {chapter} 可看），新结果没有登记它："
        "把那条 entities_new 抄进新结果，或在新结果里登记",
        "「{name}」 is registered by chapter {chapter}'s current result (see webnovel result "
        "{chapter}), which the new result leaves out: copy that entities_new item into the new "
        "result, or register it there",
    ),
}
