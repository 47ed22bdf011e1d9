"""What is said at the edges a product trial found: a chapter with no title, and the like.
Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    # -- resume: the latest chapter has no title (a bare agent result) ---------------------------
    # -- `rename X` without the new name (cli/commands.py, said after the usage) ----------------
    "rename_needs_new_name": (
        "缺少必填参数：new_name（新名字，如 webnovel rename 韩啸 韩啸天；撤销上一次改名用 --undo）",
        "the following argument is required: new_name (the new name, as in webnovel rename "
        "韩啸 韩啸天; --undo takes the last rename back)",
    ),
    # -- the overview's 最近提交: a rename, its undoing, a retraction (dashboard/commit_lines.py) ---
    "commit_did_rename": ("改名 {old}→{new}", "renamed {old} → {new}"),
    "commit_did_unrename": (
        "撤销改名（{old}→{new}）",
        "rename undone ({old} → {new})",
    ),
    "commit_did_retract": ("撤回第{chapter}章", "chapter {chapter} retracted"),
    # -- the same, wherever a chapter is named with its title ------------------------------------
}
