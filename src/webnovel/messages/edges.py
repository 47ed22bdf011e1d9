"""What is said at the edges a product trial found: a chapter with no title, and the like.
Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    # -- resume: the latest chapter has no title (a bare agent result) ---------------------------
    "resume_last_chapter_untitled": (
        "上一章：第{chapter}章 {summary}",
        "last chapter: chapter {chapter} {summary}",
    ),
}
