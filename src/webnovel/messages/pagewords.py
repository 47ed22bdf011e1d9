"""The words of the dashboard's and the reader wiki's templates: headings, buttons, labels, table
heads, empty states, titles and placeholders, said when a page is rendered (templating.py gives
the templates `say`). Part of the one catalogue (`webnovel.messages`).

Shared fragments come from display.py (`chapter_n`, `chapter_span`); a list of names is joined
with book.py's `argument_list_separator` (the `listed` filter)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    # -- every page's frame (base.html) ---------------------------------------------------------
    "page_html_lang": ("zh-CN", "en"),
    "page_board": ("记忆面板", "memory board"),
    "page_book_title": ("《{title}》", "{title}"),
    "page_as_of_before": ("截至第", "as of chapter"),
    "page_as_of_after": ("章", ""),
    "page_chapter_number": ("章号", "chapter number"),
    "page_chapter_slider": ("章节滑块", "chapter slider"),
    "page_chapters_in_all": ("共 {count} 章", "{count} chapters in all"),
    "page_later_hidden": ("之后的内容不显示", "later chapters are not shown"),
    "page_go": ("跳转", "go"),
    "page_live_title": ("有新的提交时自动刷新", "refreshes itself when a chapter is committed"),
    "page_live": ("● 实时", "● live"),
    "page_passage_none": ("（这一章没有存正文）", "(no text is kept for this chapter)"),
    "page_passage_failed": ("（原文载入失败）", "(the passage could not be loaded)"),
    # -- fragments many pages share -------------------------------------------------------------
    "page_colon": ("：", ": "),
    "page_clause_separator": ("，", ", "),
    "page_in_brackets": ("（{text}）", "({text})"),
    "page_quoted": ("「{quote}」", "“{quote}”"),
    "page_done_note": ("{done}。", "{done}."),
    "page_dead_since": ("已故 · 第{chapter}章", "dead · chapter {chapter}"),
    "page_aliases": ("又名：{names}", "also called {names}"),
    "page_first_seen": ("第{chapter}章登场", "first seen in chapter {chapter}"),
    "page_since": ("（第{chapter}章起）", "(since chapter {chapter})"),
    "page_as_of_chapter": ("第{chapter}章时", "as of chapter {chapter}"),
    "page_not_planted": ("未埋设", "not planted"),
    "page_due_in": ("应于第{chapter}章回收", "due in chapter {chapter}"),
    "page_resolved_in": ("第{chapter}章回收", "paid off in chapter {chapter}"),
    "page_published_line": (
        "发布线：读者已读到第{chapter}章",
        "published line: readers have read up to chapter {chapter}",
    ),
    "page_relations": ("关系", "relations"),
    "page_related_events": ("相关事件", "related events"),
    # -- the overview ---------------------------------------------------------------------------
    "page_snapshot": ("主角快照", "protagonist now"),
    "page_last_seen": ("最近出场第{chapter}章", "last seen in chapter {chapter}"),
    "page_no_state_yet": ("（还没有记录任何状态）", "(nothing recorded yet)"),
    "page_story_timeline": ("按故事时间看时间线 →", "the timeline in story time →"),
    "page_missing_chapters": (
        "缺章：第{chapters}章尚未提交",
        "missing: chapter(s) {chapters} not committed yet",
    ),
    "page_edited_chapters": (
        "手改过的章节：第{chapters}章的正文文件在提交后被改过（webnovel sync 重新读入）",
        "edited by hand: the text file of chapter(s) {chapters} changed after its commit "
        "(webnovel sync reads it again)",
    ),
    "page_stale_chapters": (
        "记忆待更新：第{chapters}章的正文改过，章节结果仍是旧的",
        "memory out of date: the text of chapter(s) {chapters} changed, its chapter result did not",
    ),
    "page_published_force": (
        "发布线：读者已读到第{chapter}章（改写或撤回此前的章节需 --force）",
        "published line: readers have read up to chapter {chapter} (rewriting or retracting "
        "an earlier chapter needs --force)",
    ),
    "page_recent_commits": ("最近提交", "recent commits"),
    "page_th_changes": ("改动", "changes"),
    "page_th_elapsed": ("耗时", "time"),
    "page_th_recorded": ("提交于", "committed at"),
    "page_published_then": (
        "发布线当时在第{chapter}章",
        "the published line was at chapter {chapter}",
    ),
    "page_changed_published": ("改已发布", "published changed"),
    "page_all_conflicts": ("全部矛盾 →", "all conflicts →"),
    "page_no_overdue_threads": ("（无逾期线索）", "(no overdue threads)"),
    "page_observed": ("全书观测", "the book, observed"),
    "page_bar_one": ("第{first}章：{value} {unit}", "chapter {first}: {value} {unit}"),
    "page_bar_span": (
        "第{first}–{last}章：{value} {unit}",
        "chapters {first}–{last}: {value} {unit}",
    ),
    "page_chart_most": ("最高 {value} {unit}", "highest {value} {unit}"),
    "page_chart_empty": ("尚无记录", "nothing recorded yet"),
    "page_chart_empty_pack": (
        "尚无记录（智能体取用记忆包后出现）",
        "nothing recorded yet (shown once an agent takes a memory pack)",
    ),
    "page_storage": ("存储：", "storage: "),
    "page_empty_book": (
        "这本书还没有提交任何章节。提交第一章后，本页会自动刷新。",
        "No chapter of this book is committed yet. This page refreshes itself once the first "
        "one is.",
    ),
    "page_cannot_show": ("无法显示", "cannot be shown"),
    "page_back_to_overview": ("返回总览", "back to the overview"),
    # -- characters and a character -------------------------------------------------------------
    "page_pager": (
        "第 {page} / {pages} 页 · 共 {total} 人",
        "page {page} of {pages} · {total} in all",
    ),
    "page_previous": ("上一页", "previous"),
    "page_next": ("下一页", "next"),
    "page_no_one_yet": (
        "第{chapter}章时还没有登场的人物。",
        "No one has appeared as of chapter {chapter}.",
    ),
    "page_places_factions_items": ("地点、势力与物品", "places, factions and items"),
    "page_on_the_graph": ("在关系图中查看", "see on the graph"),
    "page_state_as_of": ("第{chapter}章时的状态", "as of chapter {chapter}"),
    "page_nothing_recorded": ("（无记录）", "(nothing recorded)"),
    "page_secrets_known": ("知道的秘密", "secrets known"),
    "page_known_since": ("（第{chapter}章）", "(chapter {chapter})"),
    "page_known_since_from": (
        "（第{chapter}章，得自{source}）",
        "(chapter {chapter}, from {source})",
    ),
    "page_field_changes": (
        "各字段的变化（第{start}–{end}章）",
        "changes by field (chapters {start}–{end})",
    ),
    "page_value_span": ("{value}：第{start}章至第{end}章", "{value}: chapters {start} to {end}"),
    "page_value_from": ("{value}：第{start}章起", "{value}: from chapter {start}"),
    "page_no_changes_recorded": ("（无变化记录）", "(no changes recorded)"),
    "page_died_in": ("第{chapter}章死亡", "died in chapter {chapter}"),
    "page_appeared": ("出场 {count} 章", "in {count} chapters"),
    "page_appeared_last": (
        "出场 {count} 章，最近第{last}章",
        "in {count} chapters, last in chapter {last}",
    ),
    # -- the relation graph ---------------------------------------------------------------------
    "page_centre": ("中心", "centre"),
    "page_centre_placeholder": ("人名、别名（空：全体）", "name or alias (empty: everyone)"),
    "page_reach": ("范围", "reach"),
    "page_one_step": ("一度", "one step"),
    "page_two_steps": ("二度", "two steps"),
    "page_recent_before": ("高亮最近", "highlight changes of the last"),
    "page_recent_after": ("章的变化", "chapters"),
    "page_show": ("显示", "show"),
    "page_new_since": ("第{chapter}章以来新建", "new since chapter {chapter}"),
    "page_hidden_linked": (
        "另有 {count} 个相连的实体未画出（只画关系最新的）",
        "{count} more connected entities are not drawn (only the newest relations are)",
    ),
    "page_only_the_most": (
        "只画了关系最多的 {count} 个实体；选一个中心可看到其他的",
        "only the {count} entities with the most relations are drawn; choose a centre to see "
        "the others",
    ),
    "page_merged_edges": (
        "关系太密：每对实体只画最新的一条（另有 {count} 条），悬停可看关系名",
        "too many relations: only the newest between two entities is drawn ({count} more); "
        "hover to see a relation's name",
    ),
    "page_hover_names": ("悬停可看关系名", "hover to see a relation's name"),
    "page_graph_as_of": ("第{chapter}章时的关系图", "relations as of chapter {chapter}"),
    "page_card_of": ("{name} 的人物卡 →", "{name}'s card →"),
    "page_see_everyone": ("看全体", "see everyone"),
    "page_no_relations": ("第{chapter}章时还没有关系。", "No relations as of chapter {chapter}."),
    "page_no_relations_of": (
        "第{chapter}章时还没有关系与 {name} 相连。",
        "No relation links {name} as of chapter {chapter}.",
    ),
    "page_together": ("同章出现", "in the same chapters"),
    "page_together_note": (
        "截至第{chapter}章；同现，不是关系事实",
        "up to chapter {chapter}; seen together, not a relation",
    ),
    "page_together_chapters": (
        "{chapters} 章，最近在第{last}章",
        "{chapters} chapters, last in chapter {last}",
    ),
    "page_together_scenes": (
        "{chapters} 章、{scenes} 场，最近在第{last}章",
        "{chapters} chapters, {scenes} scenes, last in chapter {last}",
    ),
    "page_edge_title": (
        "{source} → {target}：{type}（第{chapter}章起）",
        "{source} → {target}: {type} (since chapter {chapter})",
    ),
    "graph_group_hostile": ("敌对", "hostile"),
    "graph_group_mentor": ("师门", "master and pupil"),
    "graph_group_love": ("情感", "love"),
    "graph_group_kin": ("亲缘", "kin"),
    "graph_group_ally": ("友好", "friendly"),
    "graph_group_other": ("其他", "other"),
    # -- threads --------------------------------------------------------------------------------
    "page_fold_lane": ("收起", "fold"),
    "page_open_lane": ("展开这一栏", "open this lane"),
    "page_lane_more": ("另有 {count} 条，展开这一栏", "{count} more: open this lane"),
    "page_urgency": ("紧迫度 {urgency}", "urgency {urgency}"),
    "page_related": ("相关：{names}", "related: {names}"),
    "page_evidence_quote": (
        "证据（第{chapter}章）：「{quote}」",
        "evidence (chapter {chapter}): “{quote}”",
    ),
    "page_evidence": ("证据：第{chapter}章", "evidence: chapter {chapter}"),
    "page_thread_board": ("← 伏笔看板", "← the thread board"),
    # -- a chapter ------------------------------------------------------------------------------
    "page_chapter_titled": ("第{chapter}章《{title}》", "chapter {chapter}: {title}"),
    "page_word_count": ("{count}字", "{count} characters"),
    "page_no_summary": ("（无摘要）", "(no summary)"),
    "page_introduced": ("新登场：{names}", "first appearing: {names}"),
    "page_no_one": ("（无人）", "(no one)"),
    "page_no_scenes": ("（无场景）", "(no scenes)"),
    "page_th_who": ("谁", "who"),
    "page_th_what": ("什么", "what"),
    "page_th_before": ("之前", "before"),
    "page_th_after": ("之后", "after"),
    "page_th_why": ("原因", "why"),
    "page_relation_with": ("与{other}的关系", "relation with {other}"),
    "page_no_changes": ("（无变化）", "(no changes)"),
    "page_no_threads_touched": ("（未触及伏笔）", "(no thread touched)"),
    "page_no_conflicts_here": ("（本章没有记录矛盾）", "(no conflict recorded in this chapter)"),
    # -- the timeline ---------------------------------------------------------------------------
    "page_who_label": ("人物或势力", "character or faction"),
    "page_who_placeholder": ("人名、别名（空：全部）", "name or alias (empty: all)"),
    "page_filter": ("筛选", "filter"),
    "page_order": ("排列：", "order: "),
    "page_as_told": ("按讲述顺序", "as told"),
    "page_in_story_time": ("按故事时间", "in story time"),
    "page_whereabouts": ("{name}的行踪", "where {name} was"),
    "page_place_unsaid": ("（未说地点）", "(place not said)"),
    "page_days": ("{days} 天", "{days} days"),
    "page_earlier_events": ("← 更早的事件", "← earlier events"),
    # -- conflicts ------------------------------------------------------------------------------
    "page_conflict_settled": ("已处理矛盾 {id}。", "Conflict {id} settled."),
    "page_in_memory_before": (
        "记忆中（第{chapter}章之前）",
        "in memory (before chapter {chapter})",
    ),
    "page_written_in": ("第{chapter}章写的", "what chapter {chapter} says"),
    "page_hint": ("建议：{hint}", "suggestion: {hint}"),
    "page_note_placeholder": (
        "备注（可选）：为什么这样处理",
        "note (optional): why it is settled so",
    ),
    "page_keep_intended": ("有意为之，保留", "intended: keep it"),
    "page_fixed_in_text": ("已在正文中修正", "fixed in the text"),
    "page_no_open_conflicts_as_of": (
        "第{chapter}章时没有未决矛盾。",
        "No open conflicts as of chapter {chapter}.",
    ),
    "page_settled": ("已处理", "settled"),
    "page_passage_on_open": ("（展开后载入原文）", "(the passage loads when opened)"),
    # -- candidates -----------------------------------------------------------------------------
    "page_possible_people": ("可能的新人物", "possible new characters"),
    "page_candidates_intro": (
        "第{chapter}章及之前的正文里反复出现、还不是任何实体的名字。"
        "确认为新实体，或并入已有实体作为别名，或拒绝（拒绝后不再列出）。",
        "Names that recur in the text up to chapter {chapter} and are nobody's yet. Confirm one "
        "as a new entity, merge it into an entity as an alias, or reject it (a rejected name is "
        "not listed again).",
    ),
    "page_candidate_seen": (
        "{count} 次 · 第{chapter}章首次出现",
        "{count} times · first in chapter {chapter}",
    ),
    "page_accept": ("确认为新实体", "confirm as a new entity"),
    "page_merge_placeholder": ("并入：已有实体的名字", "merge into: an entity's name"),
    "page_merge": ("并入为别名", "merge as an alias"),
    "page_reject": ("拒绝", "reject"),
    "page_no_candidates": (
        "第{chapter}章时没有待确认的名字。",
        "No names wait to be confirmed as of chapter {chapter}.",
    ),
    # -- search ---------------------------------------------------------------------------------
    "page_search_placeholder": ("一句话、人名或事件", "a sentence, a name or an event"),
    "page_search_through": ("检索第{chapter}章及以前", "search chapters up to {chapter}"),
    "page_score_title": (
        "字面：问题的词在这段里占了多少分量；语义：与全书一般段落相比有多接近",
        "lexical: how much the question's words weigh in this passage; semantic: how much "
        "closer it is than the book's ordinary passages",
    ),
    "page_score": ("相关度 {score}（字面 {lexical}）", "relevance {score} (lexical {lexical})"),
    "page_score_semantic": (
        "相关度 {score}（字面 {lexical} · 语义 {semantic}）",
        "relevance {score} (lexical {lexical} · semantic {semantic})",
    ),
    "page_weak_match": ("弱匹配", "weak match"),
    "page_nothing_found": (
        "没有找到：书里没有这些词，或者只有零星几个字对得上。",
        "Nothing found: the book has none of these words, or only a stray character matches.",
    ),
    # -- the memory pack ------------------------------------------------------------------------
    "page_pack_heading": ("记忆包 · 第{chapter}章", "memory pack · chapter {chapter}"),
    "page_task": ("任务", "task"),
    "page_assemble": ("组装", "assemble"),
    "page_pack_lead": (
        "写第{chapter}章时，智能体会拿到这份记忆包：用量 {used} / {budget} token。",
        "Writing chapter {chapter}, the agent gets this memory pack: {used} / {budget} tokens.",
    ),
    "page_pack_lead_dropped": (
        "写第{chapter}章时，智能体会拿到这份记忆包：用量 {used} / {budget} token，"
        "预算内放不下而舍去 {dropped} 条。",
        "Writing chapter {chapter}, the agent gets this memory pack: {used} / {budget} tokens; "
        "{dropped} items did not fit the budget and were left out.",
    ),
    "page_in_play": ("在场：", "in play: "),
    "page_tokens": ("{count} token", "{count} tokens"),
    "page_th_score": ("分数", "score"),
    "page_th_content": ("内容（智能体所见）", "content (as the agent sees it)"),
    "page_th_reason": ("为何入选", "why chosen"),
    "page_prompt": ("智能体看到的原文（prompt）", "what the agent reads (the prompt)"),
    # -- revise ---------------------------------------------------------------------------------
    "page_revise_lead": (
        "改稿前先看影响：粘贴改过的章节结果，或输入章号载入已提交的版本再改。查看影响不会写入任何内容。",
        "See the impact before you revise: paste a revised chapter result, or enter a chapter "
        "number to load its committed version and edit that. Seeing the impact writes nothing.",
    ),
    "page_load_before": ("载入第", "load chapter"),
    "page_load": ("载入", "load"),
    "page_result_json": ("章节结果（JSON）", "chapter result (JSON)"),
    "page_see_impact": ("查看影响", "see the impact"),
    "page_impact_unchanged": (
        "第{chapter}章已是这个版本：提交它什么也不会改变",
        "Chapter {chapter} is already this version: committing it changes nothing",
    ),
    "page_impact_of": ("改写第{chapter}章的影响", "the impact of rewriting chapter {chapter}"),
    "page_impact_through": ("（全书到第{chapter}章）", "(the book up to chapter {chapter})"),
    "page_answers_change": (
        "到第{chapter}章为止，记忆的答案会变",
        "memory's answers that change up to chapter {chapter}",
    ),
    "page_published": ("已发布", "published"),
    "page_new_conflict": ("新矛盾", "new conflict"),
    "page_no_longer_conflict": ("不再矛盾", "no longer a conflict"),
    "page_noted": ("记录", "noted"),
    "page_later_unaffected": ("后面的章节都不受影响。", "No later chapter is affected."),
    "page_force_published": (
        "我知道这会改动读者已读过的第{chapters}章（日志记为对已发布章节的修订）",
        "I know this changes chapter(s) {chapters}, which readers have read (the log records a "
        "revision of published chapters)",
    ),
    "page_commit_version": ("提交这个版本", "commit this version"),
    # -- the reader wiki (wiki/*.html) ----------------------------------------------------------
    "wiki_page_title": ("《{title}》读者百科", "{title}: a reader's wiki"),
    "wiki_page_brand": ("读者百科 · 读到第{chapter}章", "reader's wiki · up to chapter {chapter}"),
    "wiki_page_contents": ("目录", "contents"),
    "wiki_page_relations": ("关系", "relations"),
    "wiki_page_chronicle": ("大事记", "chronicle"),
    "wiki_page_no_spoilers": (
        "本百科只含第{chapter}章及以前的内容，不剧透。",
        "This wiki holds only what chapters 1 to {chapter} tell: no spoilers.",
    ),
    "wiki_page_now": ("现状", "now"),
    "wiki_page_history": ("经历", "history"),
    "wiki_page_people": ("人物关系", "who is who to whom"),
    "wiki_page_graph": ("关系图", "relation graph"),
    "wiki_page_no_relations": ("（尚无关系）", "(no relations yet)"),
}
