"""The next step an error points to, said by each surface in its own words (errors.py, `NextStep`):
`next_<action>_cli` a command at the terminal, `next_<action>_mcp` a tool and its arguments to
an agent (or, when no tool does it, that the author decides), `next_<action>_page` the
dashboard's page or control. Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    # -- a name that has come to mean two entities: merge them, or rename one ----------------
    "next_merge_or_rename_cli": (
        "。若是同一人，用 webnovel candidates merge {newer} --into {older} 合并；若是同名的两人，"
        "用 webnovel rename {newer} 新名字 给其中一个改名",
        ". If they are one person, merge them: webnovel candidates merge {newer} --into {older}; "
        "if they are two people of one name, rename one: webnovel rename {newer} NEW-NAME",
    ),
    "next_merge_or_rename_mcp": (
        "。要分清是谁，调用 get_history，subject 分别填 {newer} 和 {older}；是同一人（合并）"
        "还是同名的两人（给一个改名）由作者决定，没有工具做这件事：请把这两个 id 告诉作者",
        ". To tell them apart, call get_history with subject {newer}, then {older}; whether "
        "they are one person (merged) or two of one name (one renamed) is the author's "
        "decision and no tool makes it: tell the author these two ids",
    ),
    "next_merge_or_rename_page": (
        "。若是同名的两人，在 {newer} 的人物页用「改名」给其中一个改名；若是同一人，看板不合并"
        "实体，请在终端运行 webnovel candidates merge {newer} --into {older}",
        ". If they are two people of one name, rename one with 「Rename」 on {newer}'s "
        "character page; if they are one person, merge them at the terminal (the dashboard "
        "merges no entity): webnovel candidates merge {newer} --into {older}",
    ),
    # -- a conflict id the book does not know: every conflict, the settled ones too ----------
    "next_list_conflicts_cli": (
        "用 `webnovel conflicts --all` 查看全部",
        "see `webnovel conflicts --all`",
    ),
    "next_list_conflicts_mcp": (
        "调用 list_conflicts，include_settled 填 true，查看全部",
        "call list_conflicts with include_settled true to see them all",
    ),
    "next_list_conflicts_page": (
        "冲突页列出全部，已处理的在页末",
        "the conflicts page lists them all, the settled ones at its end",
    ),
    # -- a connection to the store lost mid-commit: did the chapter land? -------------------
    "next_see_resume_cli": (
        "可用 webnovel resume 查看它是否已提交",
        "webnovel resume shows whether it landed",
    ),
    "next_see_resume_mcp": (
        "书库恢复后调用 resume 查看它是否已提交",
        "call resume once the store is back to see whether it landed",
    ),
    "next_see_resume_page": (
        "书库恢复后刷新本页，页首的「共 N 章」即说明它是否已提交",
        "reload the page once the store is back: its 「N chapters in all」 says whether it landed",
    ),
    # -- a damaged book file that `rebuild` can make anew ------------------------------------
    "next_rebuild_cli": (
        "运行 webnovel rebuild 可用其中能读出的提交日志重建一个新文件（原文件改名留作 .damaged "
        "备查），之后 copy 等命令照常可用",
        "webnovel rebuild makes a new file from the commit log rows it can still read (the old "
        "file is kept beside it as .damaged), after which copy and every other command work again",
    ),
    "next_rebuild_mcp": (
        "没有工具能修复它：请告诉作者，在终端重建这本书（rebuild）可用其中能读出的提交日志重建"
        "一个新文件（原文件改名留作 .damaged 备查）",
        "no tool repairs it: tell the author that rebuilding the book at the terminal (rebuild) "
        "makes a new file from the commit log rows it can still read (the old file kept beside "
        "it as .damaged)",
    ),
    "next_rebuild_page": (
        "看板不能修复它：在终端运行 webnovel rebuild，可用其中能读出的提交日志重建一个新文件"
        "（原文件改名留作 .damaged 备查），之后看板照常可用",
        "the dashboard cannot repair it: at the terminal, webnovel rebuild makes a new file from "
        "the commit log rows it can still read (the old file kept beside it as .damaged), after "
        "which the dashboard works again",
    ),
}
