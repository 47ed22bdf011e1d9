"""What search and its servers say, added by the search branch (long passages, answers that
run off a server's event loop). Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "book_closed_while_answering": (
        "这本书已经关闭，检索或记忆包无法再回答",
        "The book is closed: a search or a memory pack can no longer be answered",
    ),
}
