"""What an import says about the chapters a source holds: a chapter held twice, a heading number
over two texts, and the import report's own lines. Part of the one catalogue
(`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "doubled_chapter_left_out": (
        "「{title}」与第{chapter}章「{kept}」重复（正文 {percent}% 相同），未作为新章导入；"
        "其正文保存在导入报告的 doubled 中（要保留它，加 --keep-doubled）",
        "「{title}」 repeats chapter {chapter} 「{kept}」 ({percent}% of the text is the same) "
        "and was left out; its text is in the report's doubled (--keep-doubled keeps it)",
    ),
    "heading_number_repeated": (
        "「{title}」（第{chapter}章）与第{earlier_chapter}章「{earlier_title}」章回序号相同但正文不同，"
        "两章都已保留；请核对原书是否编号有误",
        "「{title}」 (chapter {chapter}) has the same heading number as chapter "
        "{earlier_chapter} 「{earlier_title}」 over a different text; both were kept",
    ),
    "import_doubled_line": (
        "重复章节：「{title}」（{chars} 字）与第{chapter}章正文 {percent}% 相同，未导入",
        "Repeated chapter: 「{title}」 ({chars} characters), {percent}% the same as chapter "
        "{chapter}, left out",
    ),
}
