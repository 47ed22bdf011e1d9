"""What revising says: the impact of a revision before it is made, the published line, and
chapters edited by hand. Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    # -- impact ---------------------------------------------------------------------------------
    "impact_action_commit": ("改写", "revising"),
    "impact_action_retract": ("撤回", "retracting"),
    "impact_head": (
        "{action}第{chapter}章的影响（全书到第{as_of}章；未写入任何内容）",
        "the impact of {action} chapter {chapter} (book up to chapter {as_of}; nothing written)",
    ),
    "impact_unchanged": (
        "第{chapter}章已是这个版本：提交它什么也不会改变",
        "chapter {chapter} already stands on this version: committing it changes nothing",
    ),
    "impact_nothing_later": (
        "后面的章节都不受影响",
        "no later chapter is affected",
    ),
    "impact_published_line": (
        "—— 发布线：读者已读到第{line}章 ——",
        "—— published line: readers have chapter {line} ——",
    ),
    "impact_no_line": (
        "（尚未设定发布线：webnovel publish --through N）",
        "(no published line yet: webnovel publish --through N)",
    ),
    "impact_published_mark": ("【已发布】", " [published]"),
    "impact_conflict_added": ("  ✗ 新矛盾：{message}", "  ✗ new conflict: {message}"),
    "impact_conflict_removed": ("  ✓ 不再矛盾：{message}", "  ✓ no longer a conflict: {message}"),
    "impact_record": ("  · {change}", "  · {change}"),
    "impact_changed_head": (
        "到第{as_of}章为止，记忆的答案会变：",
        "what memory answers as of chapter {as_of} would change:",
    ),
    "impact_change": ("{name}的{field}：{before} → {after}", "{name} {field}: {before} → {after}"),
    "impact_relation": (
        "{name}与{target}的关系：{before} → {after}",
        "{name} and {target}: {before} → {after}",
    ),
    "impact_entity": ("实体「{name}」：{before} → {after}", "entity {name}: {before} → {after}"),
    "impact_entity_tentative": (
        "「{name}」只是一个名字（未正式登场）",
        "{name}, a name only (never introduced)",
    ),
    "impact_entity_introduced": (
        "「{name}」第{chapter}章登场",
        "{name}, introduced in chapter {chapter}",
    ),
    "impact_thread_field": ("线索状态", "thread status"),
    "impact_rule_field": ("规则", "rule"),
    "impact_summary": (
        "改变 {changed} 个答案，新增 {added} 处矛盾，消除 {removed} 处矛盾，牵动后面 {later} 章",
        "{changed} answer(s) change, {added} conflict(s) added, {removed} removed, "
        "{later} later chapter(s) affected",
    ),
    "impact_needs_result": (
        "impact_of_revision 需要 result（修改后的章节结果），或 retract=true 看撤回这一章的影响",
        "impact_of_revision needs result (the revised chapter result), or retract=true for "
        "the effect of taking the chapter back",
    ),
    "impact_needs_file": (
        "impact 需要一个章节结果文件（或用 --retract 看撤回的影响）",
        "impact needs a chapter-result file (or --retract)",
    ),
    "impact_needs_chapter": (
        "要看撤回的影响，请说明撤回哪一章：--retract N",
        "--retract needs the chapter: --retract N",
    ),
    # -- the published line ---------------------------------------------------------------------
    "publish_range": (
        "发布线应为 0 到 {high} 之间的章号（0 表示撤掉发布线），收到 {got}",
        "the published line is a chapter from 0 to {high} (0 clears it); got {got}",
    ),
    "publish_done": (
        "已标记第1–{chapter}章为已发布：今后改写或撤回这些章节前会先说明影响，需 --force 才执行",
        "chapters 1–{chapter} marked published: revising or retracting them now needs --force",
    ),
    "publish_cleared": ("已撤掉发布线", "published line cleared"),
    "publish_beyond_latest": (
        "发布线第{chapter}章超过了已提交的最新一章（第{latest}章）",
        "published line {chapter} is beyond the latest committed chapter ({latest})",
    ),
    "published_line_shown": ("发布线：读者已读到第{line}章", "published through chapter {line}"),
    "published_revision_refused": (
        "第{chapter}章已发布（读者已读到第{line}章），未{action}：这样做会{summary}；"
        "例如：{examples}。{contradicts}{next}",
        "chapter {chapter} is published (readers have chapter {line}); not {action}: "
        "{summary}; for example: {examples}. {contradicts}{next}",
    ),
    "published_revision_action_commit": ("改写", "revised"),
    "published_revision_action_retract": ("撤回", "retracted"),
    # -- chapters edited by hand ----------------------------------------------------------------
    "status_edited": (
        "第{chapter}章的正文文件提交后被改过：{path}（webnovel sync 重新读入）",
        "chapter {chapter}'s text file changed since its commit: {path} (webnovel sync)",
    ),
    "status_missing": (
        "第{chapter}章的正文文件不见了：{path}",
        "chapter {chapter}'s text file is gone: {path}",
    ),
    "status_uncommitted": (
        "章节文件尚未提交（第{chapter}章？）：{path}",
        "chapter file never committed (chapter {chapter}?): {path}",
    ),
    "status_stale": (
        "正文改过、章节结果未更新（记忆可能过时）：第{chapters}章",
        "text edited after the result was made (memory may be stale): chapter(s) {chapters}",
    ),
    "status_in_step": ("章节文件与记忆一致", "chapter files and memory are in step"),
    "sync_done": (
        "已重新读入第{chapters}章的正文并更新检索；这些章节的章节结果仍是旧的，已标为记忆待更新，"
        "请重新抽取或提交新的章节结果",
        "took in the edited text of chapter(s) {chapters} and updated search; their results are "
        "older than the text and are marked stale until a new result is committed",
    ),
    "pack_stale": (
        "注意：第{chapters}章的正文在章节结果之后被手改过，这些章节的记忆可能已过时",
        "note: chapter(s) {chapters} were edited by hand after their results were made; their "
        "memory may be stale",
    ),
    # -- the dashboard's 改稿 page --------------------------------------------------------------
    "revise_done_committed": (
        "已提交第{chapter}章的新版本",
        "chapter {chapter}'s new version committed",
    ),
    "revise_done_unchanged": (
        "第{chapter}章已是这个版本，什么也没有改变",
        "chapter {chapter} already stood on this version: nothing changed",
    ),
    "revise_needs_result": (
        "请粘贴章节结果（JSON），或先输入章号载入已提交的版本",
        "paste a chapter result (JSON), or load a committed chapter's first",
    ),
    "review_contradicts_published": (
        "↳ 与已发布的第{chapters}章矛盾：读者已读过，只能在后文圆回来",
        "↳ contradicts published chapter(s) {chapters}: readers have them; resolve it forward",
    ),
    "impact_passages": (
        "检索与摘要：第{chapter}章失去 {lost} 段、新增 {gained} 段",
        "search and summaries: chapter {chapter} loses {lost} passage(s), gains {gained}",
    ),
    "impact_passage_lost": ("  − {kind}：{text}", "  − {kind}: {text}"),
    "impact_passage_gained": ("  + {kind}：{text}", "  + {kind}: {text}"),
    "sync_committed": (
        "已提交模型为第{chapter}章给出的新章节结果，记忆已更新",
        "the model's new result for chapter {chapter} committed",
    ),
    "sync_not_committed": (
        "模型为第{chapter}章给出了新章节结果，尚未提交（确认无误后 webnovel sync --extract --yes；"
        "模型的回答已存在书里，再问不再花钱）",
        "the model's new result for chapter {chapter} is not committed yet "
        "(webnovel sync --extract --yes; its answer is kept, asking again costs nothing)",
    ),
    "refusal_own_record_only": (
        "只改了本章自己的记录（摘要、场景、正文等），记忆的答案与矛盾都不变",
        "only the chapter's own record changes (summary, scenes, text); no answer or conflict",
    ),
}
