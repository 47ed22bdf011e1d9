"""What `import text` and `sync` say of a published chapter's text they replaced, and of a
chapter the author retracted that a re-imported text still holds. Part of the one catalogue
(`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    # -- a published chapter's text replaced (book/revising.py text_revised) -----------------
    "published_text_revised": (
        "其中已发布的章节（读者已读过，已发布至第{line}章）正文有改动：{chapters}；"
        "提交日志已记为已发布章节的修订（webnovel log）。只改正文不需要 --force，改动记忆的仍需要",
        "of those, published chapters (readers have read them; published through chapter "
        "{line}) whose text changed: {chapters}; the commit log marks them revisions of "
        "published chapters (webnovel log). A text alone needs no --force; a change of memory "
        "still does",
    ),
    # -- a chapter the author retracted, in an imported text (book/retracted_in_import.py) ----
    "import_retracted_kept_out": (
        "作者收回过的章节（retract），文件里仍是收回时的正文，没有导入，收回仍有效：{chapters}。"
        "确要带回，加 --force 再导入一次，或 webnovel restore {chapter}",
        "chapters the author retracted, whose text in the file is still the one retracted, were "
        "not imported (the retraction stands): {chapters}. To bring them back, import again "
        "with --force, or webnovel restore {chapter}",
    ),
    "import_retracted_kept_out_dry": (
        "作者收回过的章节（retract），文件里仍是收回时的正文，将不导入：{chapters}"
        "（加 --force 才会带回）",
        "chapters the author retracted, whose text in the file is still the one retracted, "
        "would not be imported: {chapters} (--force brings them back)",
    ),
    "import_retracted_back": (
        "作者收回过的章节（retract），已按文件的正文重新导入：{chapters}。"
        "要再收回，用 webnovel retract {chapter}",
        "chapters the author retracted were imported again from the file's text: {chapters}. "
        "To take one back again: webnovel retract {chapter}",
    ),
    "import_retracted_back_dry": (
        "作者收回过的章节（retract），将按文件的正文重新导入：{chapters}",
        "chapters the author retracted would be imported again from the file's text: {chapters}",
    ),
}
