"""What the facade says of a book's texts beside its memory (`book/book_texts.py`). Part of the
one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "outline_skipped": ("大纲 {path} 无法读取，已跳过：{error}", "outline {path} skipped: {error}"),
}
