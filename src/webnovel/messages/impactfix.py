"""What an impact says of secrets and of who knows them (book/revising.py), the 改稿 page's
refusal beside the form as pasted (dashboard/revise_view.py), and `impact --retract N`. Part of
the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    # -- secrets and knowledge in an impact, by the secret's content, the state in words ---------
    "impact_knows": (
        "{name}对秘密「{secret}」：{before} → {after}",
        "{name} on the secret “{secret}”: {before} → {after}",
    ),
    "impact_secret": (
        "秘密「{secret}」：{before} → {after}",
        "secret “{secret}”: {before} → {after}",
    ),
    "impact_secret_open": ("已埋设", "planted"),
    "impact_secret_retired": ("已废弃", "retired"),
    # -- the 改稿 page: a paste or a commit refused, shown beside the text as pasted -------------
    "page_revise_refused": (
        "没有执行：{reason}。你粘贴的内容仍在下方，改好后再试",
        "nothing was done: {reason}. What you pasted is still below; fix it and try again",
    ),
    # -- `impact --retract N` and `impact --retract --chapter N` are one ---------------------------
    "impact_retract_two_chapters": (
        "要看撤回的影响，只能指定一章：--retract {given} 与 --chapter {chapter} 不一致",
        "an impact of retracting takes one chapter: --retract {given} and --chapter {chapter} "
        "disagree",
    ),
    "impact_retract_not_chapter": (
        "--retract 后应是章节号（如 --retract 12），收到「{given}」",
        "--retract takes a chapter number (as in --retract 12), got “{given}”",
    ),
    # -- `webnovel result N`: a committed chapter's result, to edit ----------------------------------
    "help_result": (
        "第 N 章已提交的章节结果（JSON），可另存为文件修改后交给 impact 与 commit",
        "chapter N's committed result (JSON): save it to a file, edit it, and pass it to "
        "impact and commit",
    ),
    "help_result_chapter": ("章节号", "the chapter"),
}
