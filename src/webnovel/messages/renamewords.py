"""The words of the rename control on an entity's dashboard page (`rename` from the page, and its
undo): the form's labels, what a rename or its undoing did. Refusals are the facade's own
(identity.py: `rename_name_taken` names the entity holding the name). Part of the one catalogue
(`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "page_rename_heading": ("改名", "Rename"),
    "page_rename_intro": (
        "给「{name}」换一个名字：旧名字保留为别名，之前章节里的提及照样找得到它。"
        "改名记在你自己的决定里，重新抽取或导入都不会改回去",
        "give 「{name}」 another name: the old one stays an alias, so earlier chapters still "
        "find it. The rename is kept among your own decisions: extracting or importing again "
        "never undoes it",
    ),
    "page_rename_new_name": ("新名字", "new name"),
    "page_rename_from": ("自第几章起", "from chapter"),
    "page_rename_from_default": (
        "留空即登场那一章",
        "blank: where introduced",
    ),
    "page_rename_submit": ("改名", "Rename"),
    "page_rename_undo": (
        "撤销改名「{old}」→「{name}」（自第{chapter}章起）",
        "Undo the rename 「{old}」 → 「{name}」 (from chapter {chapter})",
    ),
    "page_rename_undo_plain": (
        "撤销改名「{old}」→「{name}」",
        "Undo the rename 「{old}」 → 「{name}」",
    ),
    "page_rename_refused": ("没有改名：{reason}", "nothing was renamed: {reason}"),
    "rename_unknown_action": (
        "改名表单的操作只能是 rename 或 undo，收到「{action}」",
        "the rename form's action is rename or undo, got 「{action}」",
    ),
    "page_renamed": (
        "已把「{old}」改名为「{name}」，自第{chapter}章起；「{old}」保留为别名",
        "renamed 「{old}」 to 「{name}」 from chapter {chapter}; 「{old}」 stays an alias",
    ),
    "page_rename_undone": (
        "已撤销改名「{old}」→「{name}」，名字恢复为「{old}」",
        "the rename 「{old}」 → 「{name}」 is undone; the name is 「{old}」 again",
    ),
}
