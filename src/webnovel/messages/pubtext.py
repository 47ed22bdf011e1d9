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
}
