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
}
