"""What is said about the author's own decisions on who is who: renaming an entity (`rename`)
and taking a rename back. Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "rename_name_text": (
        "新名字应为非空字符串",
        "the new name is a non-empty string",
    ),
    "rename_same_name": (
        "「{name}」已经是这个实体的名字，无需改名",
        "「{name}」 is already this entity's name; nothing to rename",
    ),
    "rename_name_taken": (
        "无法改名为「{name}」：它已是 {holder}（{holder_id}）的名字或别名。若是同一人，请用 "
        "webnovel candidates merge 合并；否则换一个名字",
        "cannot rename to 「{name}」: it is already the name or an alias of {holder} "
        "({holder_id}). If they are one person, merge them (webnovel candidates merge); "
        "otherwise choose another name",
    ),
    "rename_not_introduced": (
        "「{name}」从未在任何章节结果中登场（只被提到过），没有可改的名字；请先确认它为实体",
        "「{name}」 was never introduced in a chapter result (only named), so it has no name to "
        "change; accept it as an entity first",
    ),
    "rename_from_chapter": (
        "无法从第{chapter}章起给「{name}」改名：它在第{first}章才登场，改名须从第{first}章或"
        "之后某个已提交的章节开始",
        "cannot rename 「{name}」 from chapter {chapter}: it is introduced in chapter {first}, "
        "and a rename starts from that chapter or a later committed one",
    ),
    "rename_from_no_chapter": (
        "无法从第{chapter}章起给「{name}」改名：本书没有已提交的第{chapter}章",
        "cannot rename 「{name}」 from chapter {chapter}: the book has no committed chapter "
        "{chapter}",
    ),
    "rename_nothing_to_undo": (
        "「{name}」没有可撤销的改名",
        "「{name}」 has no rename to undo",
    ),
    "rename_done": (
        "已把「{old}」改名为「{name}」（{entity_id}），自第{start}章起；「{old}」保留为别名。"
        "重写了第{chapters}章",
        "renamed 「{old}」 to 「{name}」 ({entity_id}) from chapter {start}; 「{old}」 stays an "
        "alias. Chapters rewritten: {chapters}",
    ),
    "rename_undone": (
        "已撤销「{old}」→「{name}」的改名，第{chapters}章恢复原样",
        "undid the rename 「{old}」 → 「{name}」; chapters {chapters} are as they were",
    ),
}
