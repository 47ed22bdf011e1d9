"""What the CLI's text output says: a commit's and a review's lines, an import's and an
extraction's reports, the name candidates; and the fragments every surface shares (第N章,
第A–B章). Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    # -- shared fragments -----------------------------------------------------------------------
    "chapter_n": ("第{n}章", "chapter {n}"),
    "chapter_span": ("第{a}–{b}章", "chapters {a}–{b}"),
    "chapters_count": ("{chapters} 章", "{chapters} chapters"),
    "column_chapter": ("章", "chapter"),
    "column_title": ("标题", "title"),
    "column_volume": ("卷", "volume"),
    "column_chars": ("字数", "characters"),
    # -- commit and review ----------------------------------------------------------------------
    "commit_head": (
        "第{chapter}章：{status}（{commit}）",
        "chapter {chapter}: {status} ({commit})",
    ),
    "commit_counts": (
        "  新增 {added}，取代 {superseded}，推翻 {contradicted}，待定 {tentative}",
        "  added {added}, superseded {superseded}, contradicted {contradicted}, "
        "tentative {tentative}",
    ),
    "commit_conflict_line": ("  矛盾：{message}", "  conflict: {message}"),
    "commit_warning_line": ("  提醒：{warning}", "  note: {warning}"),
    "normalized_line": ("  已规范：{note}", "  normalized: {note}"),
    "review_clean": ("第{chapter}章：未发现问题", "chapter {chapter}: no problem found"),
    "review_head": (
        "第{chapter}章：{issues} 个问题，其中 {blocking} 个阻断提交",
        "chapter {chapter}: {issues} problem(s), {blocking} of them blocking the commit",
    ),
    "review_issue": ("[{severity}] {kind}：{message}", "[{severity}] {kind}: {message}"),
    "review_fix_hint": ("    → {hint}", "    → {hint}"),
    "commit_kept_text": (
        "第{chapter}章沿用已存的正文（本次未附正文；要替换请一并提交正文：命令行 --text，"
        "MCP 的 text 参数）",
        "chapter {chapter} keeps its stored text (none came with this commit; to replace it, "
        "commit the text too: --text at the command line, the text argument over MCP)",
    ),
    "commit_replaced_version": (
        "第{chapter}章原有另一版本（{previous}），本次提交取代了它（旧版本仍在提交日志中）",
        "chapter {chapter} had another version ({previous}); this commit replaces it (the old "
        "one stays in the commit log)",
    ),
    "commit_gap": (
        "本章之前缺{span}尚未提交{more}；如非有意跳过，请补上",
        "{span} before this one not committed yet{more}; add it unless you skipped it on purpose",
    ),
    "commit_gap_in_all": ("（全书共缺 {count} 章）", " ({count} chapters missing in all)"),
    # -- imports --------------------------------------------------------------------------------
    "import_found_dry": (
        "共找到 {chapters} 章（试运行，未写入）",
        "{chapters} chapters found (dry run, nothing written)",
    ),
    "import_committed": (
        "已提交 {committed} 章，未变化 {unchanged} 章",
        "{committed} chapters committed, {unchanged} unchanged",
    ),
    "import_candidates_head": (
        "可能的新人物（名字、出现次数、首次出现）：",
        "possible new characters (name, times seen, first seen):",
    ),
    "import_candidate_line": (
        "  {name}  {count} 次  第{chapter}章",
        "  {name}  {count} times  chapter {chapter}",
    ),
    "front_matter_will_keep": (
        "{named}之前有 {chars} 字不属于任何章节（首行「{first_line}」），"
        "未计入正文和记忆，将随第{chapter}章保存为章前内容（{kept_in}）",
        "{chars} characters before {named} belong to no chapter (first line "
        "'{first_line}'); they are not counted in the text or the memory, and will be kept with "
        "chapter {chapter} as its front matter ({kept_in})",
    ),
    "front_matter_kept": (
        "{named}之前有 {chars} 字不属于任何章节（首行「{first_line}」），"
        "未计入正文和记忆，已随第{chapter}章保存为章前内容（{kept_in}）",
        "{chars} characters before {named} belong to no chapter (first line "
        "'{first_line}'); they are not counted in the text or the memory, and were kept with "
        "chapter {chapter} as its front matter ({kept_in})",
    ),
    "summarized_line": (
        "{chapters} 章：新写摘要 {summarized} 章，未变化 {unchanged} 章，"
        "跳过 {skipped} 章（模型或代理写的结果、没有正文的章）",
        "{chapters} chapters: {summarized} new summaries, {unchanged} unchanged, {skipped} "
        "skipped (results written by a model or an agent, chapters without text)",
    ),
    "upstream_no_genre": ("未注明题材", "genre not given"),
    "upstream_head": (
        "《{title}》（{genre}）来自 {source}：{chapters} 章，其中 {texts} 章有正文",
        "'{title}' ({genre}) from {source}: {chapters} chapters, {texts} of them with text",
    ),
    "upstream_committed": (
        "已提交 {committed} 章，未变化 {unchanged} 章，记录矛盾 {conflicts} 条",
        "{committed} chapters committed, {unchanged} unchanged, {conflicts} conflicts recorded",
    ),
    "upstream_unmapped_line": ("  {what}：{count}", "  {what}: {count}"),
    # -- extraction -----------------------------------------------------------------------------
    "extract_repairs": ("（修正 {repairs} 次）", " ({repairs} repairs)"),
    "extract_total_written": (
        "写入 {committed}，未变化 {unchanged}",
        "written {committed}, unchanged {unchanged}",
    ),
    "extract_total_cached": ("{cached} 章已有回答", "{cached} chapters already answered"),
    "extract_model_line": (
        "模型：{model}（{endpoint}，{mode}）",
        "model: {model} ({endpoint}, {mode})",
    ),
    "extract_warning_line": ("  第{chapter}章：{warning}", "  chapter {chapter}: {warning}"),
    # -- name candidates ------------------------------------------------------------------------
    "candidate_rejected": (
        "已拒绝「{name}」，以后不再列出",
        "rejected '{name}'; it will not be listed again",
    ),
    "candidate_where": (
        "第{first}章起，共 {chapters} 章提到",
        "named in {chapters} chapters from chapter {first}",
    ),
    "candidate_accepted": (
        "已确认「{name}」为新实体 {entity}（{where}）",
        "confirmed '{name}' as the new entity {entity} ({where})",
    ),
    "candidate_merged": (
        "已把「{name}」并入 {entity} 作为别名（{where}）",
        "merged '{name}' into {entity} as an alias ({where})",
    ),
    # -- the demo (cli/demo.py) ----------------------------------------------------------------
    "demo_head": (
        "《{title}》：已提交 {chapters} 章，记忆在 {root}",
        "'{title}': {chapters} chapters committed, memory in {root}",
    ),
    "demo_protagonist": ("主角现状：{name}", "the protagonist now: {name}"),
    "demo_field_line": ("  {field}：{value}", "  {field}: {value}"),
    "demo_history_head": ("{name} 的{field}历史：", "history of {name}'s {field}:"),
    "demo_relations_head": ("当前关系：", "relations now:"),
    "demo_try": (
        "试试：webnovel --project {root} fact {name} 境界 --as-of 3\n"
        "      webnovel --project {root} dashboard --open"
        "   # 记忆面板（需 pip install 'webnovel-memory[dashboard]'）",
        "try: webnovel --project {root} fact {name} realm --as-of 3\n"
        "     webnovel --project {root} dashboard --open"
        "   # the memory dashboard (needs pip install 'webnovel-memory[dashboard]')",
    ),
    # -- one chapter's report (queries/chapter_text.py) ----------------------------------------
    "chapter_report_head": ("第{chapter}章《{title}》", "chapter {chapter} '{title}'"),
    "chapter_report_chars": ("（{count}字）", " ({count} characters)"),
    "chapter_report_ending": ("结尾：{ending}", "ending: {ending}"),
    "chapter_report_introduced": ("新登场：{names}", "introduced: {names}"),
    "chapter_block_head": ("【{title}】", "[{title}]"),
    "chapter_block_scenes": ("场景", "scenes"),
    "chapter_block_events": ("事件", "events"),
    "chapter_block_changes": ("变化", "changes"),
    "chapter_block_threads": ("伏笔", "threads"),
    "chapter_block_secrets": ("秘密", "secrets"),
    "chapter_block_conflicts": ("矛盾", "conflicts"),
    # -- the book store (cli/store_commands.py) ----------------------------------------------
    "book_deleted": ("已删除《{book}》", "deleted '{book}'"),
    "book_copied": (
        "已复制 {commits} 次提交（{chapters} 章）到 {dest}（{store}）{vectors}",
        "copied {commits} commits ({chapters} chapters) to {dest} ({store}){vectors}",
    ),
    "book_copied_vectors": ("，连同 {vectors} 个向量", ", with {vectors} vectors"),
    # -- the dashboard's "not yet" pages (dashboard/page_routes.py) -------------------------------
    "dashboard_no_entity_yet": (
        "第{as_of}章时还没有这个实体",
        "no such entity yet as of chapter {as_of}",
    ),
    "dashboard_no_thread_yet": (
        "第{as_of}章时没有这条线索",
        "no such thread as of chapter {as_of}",
    ),
    "dashboard_chapter_after": (
        "截至第{as_of}章，还没有第{chapter}章",
        "as of chapter {as_of}, there is no chapter {chapter} yet",
    ),
    # -- commands (cli/commands.py), the review, MCP ---------------------------------------------
    "book_created_store": ("（书库 {store}）", " (store {store})"),
    "wiki_written": (
        "读者百科已写入 {folder}（截至第{as_of}章：{entities} 个条目，{events} 件大事），打开 index.html 阅读",
        "the readers' wiki is written to {folder} (up to chapter {as_of}: {entities} entries, "
        "{events} major events); open index.html to read it",
    ),
    "review_thread_overdue": (
        "线索「{thread}」应在第{due}章前回收，已逾期",
        "the thread '{thread}' was to pay off by chapter {due}: it is overdue",
    ),
    "review_promise_due": (
        "读者承诺「{thread}」约定在本章（第{chapter}章）兑现，草稿未回收",
        "the promise to readers '{thread}' is due in this chapter (chapter {chapter}); the "
        "draft does not keep it",
    ),
    "mcp_prompt_chapter_text": ("第{chapter}章正文：", "the text of chapter {chapter}:"),
    "mcp_lone_surrogate": (
        "参数 {where} 不是合法的 Unicode（含孤立的代理字符），请求未执行",
        "argument {where} is not valid Unicode (it holds a lone surrogate); the request was "
        "not run",
    ),
    # -- table words and fixed lines of the reports (cli/render.py) ------------------------------
    "column_record": ("记录", "records"),
    "column_count": ("条数", "count"),
    "column_status": ("状态", "status"),
    "column_requests": ("请求", "requests"),
    "column_input": ("输入", "input"),
    "column_cached": ("缓存命中", "cache hits"),
    "column_output": ("输出", "output"),
    "column_conflicts": ("矛盾", "conflicts"),
    "column_input_estimated": ("输入 token（估）", "input tokens (est.)"),
    "column_output_estimated": ("输出 token（估）", "output tokens (est.)"),
    "column_name": ("名字", "name"),
    "column_times_seen": ("出现次数", "times seen"),
    "column_first_seen": ("首次出现", "first seen"),
    "row_total": ("合计", "total"),
    "dry_run_nothing_written": ("试运行，未写入", "dry run, nothing written"),
    "upstream_entities_new": ("登场实体", "introductions"),
    "upstream_state_changes": ("状态变化", "state changes"),
    "upstream_relationships_new": ("关系", "relations"),
    "upstream_plot_threads": ("线索动作", "thread actions"),
    "upstream_world_rules": ("世界规则", "world rules"),
    "upstream_scenes": ("场景", "scenes"),
    "upstream_entities_appeared": ("出场记录", "appearances"),
    "upstream_timeline_events": ("事件", "events"),
    "upstream_unmapped_head": (
        "未导入（多为上游由这些记录派生的副本、统计与日志）：",
        "not imported (mostly copies, statistics and logs upstream derives from these records):",
    ),
    "extract_status_committed": ("已写入", "written"),
    "extract_status_unchanged": ("未变化", "unchanged"),
    "extract_status_failed": ("失败", "failed"),
    "extract_status_planned": ("待请求", "to ask"),
    "extract_status_cached": ("已有回答", "answered before"),
    "extract_from_cache": ("（用已存回答）", " (from a stored answer)"),
    "extract_dry_run": ("试运行：什么也没有发送。", "Dry run: nothing was sent."),
    "extract_no_prices": (
        "未配置价格（[llm] prices），费用无法估算。",
        "No prices configured ([llm] prices): the cost cannot be estimated.",
    ),
    "candidates_none": ("没有待确认的名字", "no names waiting to be confirmed"),
    "candidates_how": (
        "确认：webnovel candidates accept 名字 [--type 角色]；并入："
        "webnovel candidates merge 名字 --into 已有实体；拒绝：webnovel candidates reject 名字",
        "confirm: webnovel candidates accept NAME [--type character]; merge: "
        "webnovel candidates merge NAME --into ENTITY; reject: webnovel candidates reject NAME",
    ),
    "books_none": ("书库里还没有书", "the store holds no book yet"),
    "column_book": ("名称", "name"),
    "column_book_title": ("书名", "title"),
    "column_latest_chapter": ("最新章", "latest chapter"),
    "column_commits": ("提交数", "commits"),
    "column_size": ("大小", "size"),
    "column_created": ("建于", "created"),
    "book_unreadable": ("无权读取", "not readable"),
    "scene_nobody": ("（无人）", "(nobody)"),
    "mcp_unparsable": ("无法解析的 JSON-RPC 消息", "a JSON-RPC message that cannot be parsed"),
    "mcp_invalid_request": ("无效的请求", "invalid request"),
}
