"""What is said of what lies outside the book: the shared store, the user's own config,
a model's endpoint, the dashboard and MCP, and the progress of long work. Part of the one
catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
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
    "store_key_string": (
        '{where}：{key} 应为字符串（写在引号里，例如 {key} = "…"）',
        '{where}: {key} must be a string (in quotes, as {key} = "…")',
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
    "store_why": ("{reason}（{said}）", "{reason} ({said})"),
    "store_why_refused": (
        "连接被拒绝：服务器没有运行，或端口不对",
        "connection refused: the server is not running, or the port is wrong",
    ),
    "store_why_no_host": (
        "无法解析主机名：主机名写错了，或本机连不上 DNS",
        "the host name cannot be resolved: it is misspelt, or DNS cannot be reached",
    ),
    "store_why_password": (
        "密码验证失败：用户名或密码不对",
        "password authentication failed: the user name or the password is wrong",
    ),
    "store_why_no_password": (
        "服务器要求密码，但没有提供：请用 PGPASSWORD、~/.pgpass，或 [store] 的 password_env",
        "the server asks for a password and none was given: use PGPASSWORD, ~/.pgpass, or "
        "password_env in [store]",
    ),
    "store_why_timeout": (
        "连接超时：服务器没有回应（网络不通，或被防火墙拦下）",
        "the connection timed out: the server did not answer (no network, or a firewall)",
    ),
    "store_why_not_allowed": (
        "服务器不接受这个用户从这台机器连接（pg_hba.conf 里没有相应条目），请数据库管理员添加",
        "the server does not let this user connect from this machine (no pg_hba.conf entry); "
        "ask the database's administrator",
    ),
    "store_why_no_database": (
        "服务器上没有这个数据库：检查地址末尾的数据库名",
        "the server has no such database: check the database name at the end of the URL",
    ),
    "store_why_no_role": (
        "服务器上没有这个用户：检查地址里的用户名",
        "the server has no such user: check the user name in the URL",
    ),
    "store_why_no_route": (
        "网络不通：到服务器没有路由",
        "the network cannot reach the server (no route)",
    ),
    "store_refused": (
        "书库拒绝了这个操作：当前的数据库用户没有权限（{said}）。只读用户只能查询；"
        "提交、撤回、重建需要对这本书有写权限的用户，删书需要书的所有者",
        "the store refused this: the database user lacks the privilege ({said}). A read-only "
        "user may only query; a commit, retract or rebuild needs a user who may write the "
        "book, and deleting it needs its owner",
    ),
    "store_dropped": (
        "与书库的连接断开了（{said}）：进行中的事务已由服务器整体回滚，不会留下写了一半的内容"
        "（若正在提交一章且断在最后一刻，{next}）；"
        "书库恢复后重试即可",
        "the connection to the store was lost ({said}): the server rolled back the whole "
        "transaction in progress, so nothing is left half written (if a chapter was being "
        "committed and it broke at the last moment, {next}); "
        "try again once the store is back",
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
    "user_config_trusted": (
        '{path}: [stores] trusted 应为 "主机:端口" 字符串的列表，例如 trusted = ["db.example:5432"]',
        '{path}: [stores] trusted must be a list of "host:port" strings, as '
        'trusted = ["db.example:5432"]',
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
    "embedder_no_model": (
        '{endpoint} 没有指定向量模型：在书的 [retrieval] 写 embedder = "openai:模型名"，'
        "或设置 WEBNOVEL_EMBED_MODEL",
        '{endpoint} names no embedding model: write embedder = "openai:MODEL" in the book\'s '
        "[retrieval], or set WEBNOVEL_EMBED_MODEL",
    ),
    "embedder_needs_package": (
        "向量模型「{spec}」需要未安装的包 {package}：按 README 检索一节安装对应的附加组件",
        "embedder '{spec}' needs a package that is not installed ({package}); see the README's "
        "retrieval section for the extra to install",
    ),
    "embed_endpoint_failed": (
        "向量端点 {name}（{url}）{problem}",
        "the embedding endpoint {name} ({url}) {problem}",
    ),
    "embed_unreachable": ("无法连接：{kind}", "cannot be reached: {kind}"),
    "embed_http_status": (
        "返回 HTTP {status}，没有给出向量",
        "answered HTTP {status} and gave no vectors",
    ),
    "embed_reply_too_big": ("的回复过大", "answered with too large a reply"),
    "embed_reply_not_openai": (
        "的回复不是 OpenAI 格式的 JSON（缺少 data）",
        "answered with something that is not OpenAI's JSON (no data)",
    ),
    "embed_reply_count": (
        "应为 {count} 段文本各给一个向量，回复的数量不对",
        "should give one vector for each of {count} texts, and gave another number",
    ),
    "embed_reply_not_numbers": (
        "的回复里有不是数字列表的向量",
        "answered with a vector that is not a list of numbers",
    ),
    "embed_reply_sizes": (
        "给出的向量长度不一致或含非有限数（长度：{sizes}）",
        "gave vectors of unequal lengths or with non-finite numbers (lengths: {sizes})",
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
        "「截至第几章」须为章号（数字），收到「{raw}」",
        "'as of chapter' must be a chapter number, got {raw!r}",
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
    "review_draft_old_name": (
        "参数 draft 已更名为 result（与 commit_chapter 一致），旧名仍可用",
        "the argument draft is now called result (as in commit_chapter); the old name still works",
    ),
    "merge_needs_into": (
        "合并需要指明并入哪个已有实体（--into）",
        "a merge needs the existing entity to merge into (--into)",
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
