"""What the book's longer work says when it is asked for something it cannot do: importing a
text or a webnovel-writer project, reading a cast, extracting with a model and its [llm]
settings, the wiki, the candidates' queue, and the extras a command needs. Part of the one
catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    # -- importing a text or a webnovel-writer project ------------------------------------------
    "no_chapter_files": (
        "{path}：文件夹里没有 .txt 或 .md 的章节文件（每章一个文件，或整本书一个文件）",
        "{path}: holds no .txt or .md chapter files",
    ),
    "result_not_utf8": (
        "{path}：不是 UTF-8 编码（第 {byte} 字节）；请把章节结果另存为 UTF-8 的 JSON",
        "{path}: is not UTF-8 (byte {byte}); save the chapter result as UTF-8 JSON",
    ),
    "cast_unparsable": (
        "{path}：无法解析（人物表应为 TOML 或 CSV）：{error}",
        "{path}: cannot be parsed: {error}",
    ),
    "cast_not_tables": (
        "{path}：人物表应写成一个个 [[entity]] 表，每个写 id 和 name",
        "{path}: [[entity]] tables expected",
    ),
    "cast_entry_incomplete": (
        "{path}：第 {index} 个实体缺少 id 或 name（两者都要写）",
        "{path}: entity {index} needs an id and a name",
    ),
    "not_upstream_project": (
        "{root} 不是 webnovel-writer 项目：找不到 {index}",
        "{root} is not a webnovel-writer project: {index} is missing",
    ),
    "upstream_into_used_book": (
        "{root} 里的书已经有章节了：webnovel-writer 项目只能导入一本新书，请用 --project 另指一个新文件夹",
        "{root} already holds chapters: import a webnovel-writer project into a new book",
    ),
    "upstream_no_texts": (
        "找不到 {folder}：各章将不带正文导入",
        "{folder} is missing: chapters are imported without their texts",
    ),
    "upstream_chapter_twice": (
        "第{chapter}章有两个文件：保留了前一个，跳过了 {skipped}",
        "two files for chapter {chapter}; kept the first ({skipped} skipped)",
    ),
    "upstream_unplanted_thread": (
        "第{chapter}章回收的线索「{thread}」没有埋设记录，已跳过",
        "chapter {chapter} resolves the thread '{thread}', which was never planted; skipped",
    ),
    "volume_without_chapters": (
        "{source}：最后一个卷标题之后没有章节，其后的文字已并入最后一章",
        "{source}: no chapter after the last volume heading; the text after it joins the last "
        "chapter",
    ),
    "no_chapter_headings": (
        "{source}：没有找到章节标题（如「第一章」），整篇作为一章导入",
        "{source}: no chapter headings found; imported as one chapter",
    ),
    "the_text": ("正文", "the text"),
    "upstream_options": (
        "--start、--cast 和 --candidates 只用于导入正文（`webnovel import text`），"
        "导入 webnovel-writer 项目时不能用",
        "--start, --cast and --candidates are for `webnovel import text`",
    ),
    "upstream_needs_folder": (
        "请指明新书放在哪个文件夹：webnovel --project 新书文件夹 import upstream 项目路径",
        "name the new book's folder: webnovel --project NEW-BOOK import upstream PATH",
    ),
    "sample_book_missing": (
        "这次安装缺少随附的示例书，请重新安装 webnovel-memory",
        "the bundled sample book is missing from this installation",
    ),
    "json_constant": ("{name} 不是 JSON 允许的数", "{name} is not a number JSON allows"),
    "text_not_string": (
        "text：正文应为字符串，实际是 {got}",
        "text: must be a string, got {got}",
    ),
    # -- extracting with a model, and the book's [llm] settings ---------------------------------
    "extract_bound": (
        "{what} 应为不小于 1 的章节号，实际是 {value}",
        "{what} must be a chapter number >= 1, got {value}",
    ),
    "no_model": (
        "没有配置生成模型：设置 WEBNOVEL_LLM_MODEL，或在书的 [llm] 或你的配置里写 model",
        "no model configured",
    ),
    "llm_number": (
        "config.toml：{where} 应为 {low} 到 {high} 之间的数",
        "config.toml: {where} must be a number from {low} to {high}",
    ),
    "llm_prices": (
        "config.toml：llm.prices 应为一个表，写明每百万 token 的 input 和 output 价格"
        "（cached 可选，不写时按 input 计）",
        "config.toml: llm.prices must be a table with input, output (and cached), "
        "per million tokens",
    ),
    # -- the wiki, the candidates, the extras a command needs -----------------------------------
    "wiki_as_of": (
        "--as-of 应为已提交的章节号（1 到 {latest}），实际是 {as_of}",
        "--as-of must be a committed chapter, 1 to {latest}, got {as_of}",
    ),
    "wiki_folder_taken": (
        "{out} 不是空文件夹，也不是之前生成的百科：请换一个文件夹",
        "{out} is not empty and is not a wiki made before: choose another folder",
    ),
    "unknown_thread_status": (
        "未知的线索状态「{status}」：可用 {choices}",
        "unknown thread status '{status}': use one of {choices}",
    ),
    "unknown_candidate_action": (
        "未知操作「{action}」：可用 accept（收为新实体）、merge（并入已有实体）或 reject（不收）",
        "unknown action '{action}': use accept, merge or reject",
    ),
    "candidate_name_text": (
        "候选名应为非空字符串",
        "a candidate is named by a non-empty string",
    ),
    "mcp_extra": (
        "MCP 服务需要安装 [mcp] 扩展：pip install 'webnovel-memory[mcp]'",
        "the MCP server needs the [mcp] extra: pip install 'webnovel-memory[mcp]'",
    ),
    "dashboard_extra": (
        "看板和百科需要安装 [dashboard] 扩展：pip install 'webnovel-memory[dashboard]'",
        "the dashboard and the wiki need the [dashboard] extra: "
        "pip install 'webnovel-memory[dashboard]'",
    ),
    # -- the command line's own lines on stderr, and the dashboard's --------------------------
    "warning_prefix": ("提醒：", "warning: "),
    "waiting_for_lock": (
        "等待另一个进程（提交、重建或检索索引）释放 {path} 的写锁……",
        "waiting for another process (a commit, rebuild or search index) to release the write "
        "lock on {path}…",
    ),
    "embedding_in_background": (
        "向量在后台补齐，进度见 .webnovel/embed.log",
        "the vectors are filled in in the background; see .webnovel/embed.log",
    ),
    "embedding_elsewhere": (
        "另一个向量任务正在运行，等它结束（进度见 .webnovel/embed.log）",
        "another embedding run is going: waiting for it to end (see .webnovel/embed.log)",
    ),
    "embed_log_start": (
        "{at} 后台补向量开始（进程 {pid}）",
        "{at} background embedding started (process {pid})",
    ),
    "embed_log_done": (
        "{at} 后台补向量结束：新算 {embedded} 个向量，用时 {seconds:.1f} 秒",
        "{at} background embedding done: {embedded} new vector(s) in {seconds:.1f}s",
    ),
    "retract_question": (
        "撤回{named}？记忆将当作此章从未提交",
        "retract {named}? memory will be as if it was never committed",
    ),
    "not_retracted": ("未撤回", "not retracted"),
    "not_deleted": ("未删除", "not deleted"),
    "dashboard_on_network": (
        "注意：面板对网络开放（{host}），只有持登录令牌的网址才能打开；请勿外传此网址",
        "note: the dashboard is open to the network ({host}); only the URL holding the login "
        "token opens it, so do not pass it on",
    ),
    "dashboard_at": (
        "《{title}》的记忆面板：{url}（Ctrl+C 退出）",
        "the memory dashboard of 《{title}》: {url} (Ctrl+C to quit)",
    ),
    "dashboard_stopped": ("记忆面板已关闭", "the memory dashboard has stopped"),
}
