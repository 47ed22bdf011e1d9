"""What is said of a book's database files themselves: a received `index.db` or `vectors.db`
that is damaged or made by someone else, and its recovery by `rebuild`. Part of the one
catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    # -- a damaged or foreign book file, said in one sentence with what can recover it ----------
    "damaged_book_rebuild": (
        "{path} 已损坏，或不是本程序建的书库（{problem}）；{next}",
        "{path} is damaged, or not a book this program made ({problem}); {next}",
    ),
    "damaged_book_lost": (
        "{path} 已损坏，或不是本程序建的书库（{problem}），其中的提交日志也读不出来，"
        "rebuild 与 copy 都无法恢复：请向这本书的来源重新要一份，或从备份恢复",
        "{path} is damaged, or not a book this program made ({problem}), and its commit log "
        "cannot be read either, so neither rebuild nor copy can recover it: ask whoever sent "
        "the book for it again, or restore it from a backup",
    ),
    "damaged_cache": (
        "{path} 不是本程序建的（{problem}），不予打开；它只是模型回答的缓存，删掉即可，"
        "下次运行会重新建一个",
        "{path} was not made by this program ({problem}) and is not opened; it is only a cache "
        "of a model's answers: delete it, and the next run makes a new one",
    ),
    "schema_not_database": (
        "不是完好的 SQLite 数据库：{error}",
        "not a sound SQLite database: {error}",
    ),
    "schema_foreign": (
        "其中有本程序的迁移没有建过的{kind} {name}",
        "it holds {kind} {name}, which none of our migrations made",
    ),
    "schema_missing": ("{kind} {name} 不见了", "{kind} {name} is missing"),
    "schema_changed": (
        "{kind} {name} 的定义与本程序的迁移不符",
        "{kind} {name} is not defined as our migrations define it",
    ),
    "schema_no_migrations": (
        "没有记录迁移的 schema_migrations 表",
        "it has no schema_migrations table recording its migrations",
    ),
    "schema_unknown_migration": (
        "记录了本程序不认识的迁移 {name}（由更新的版本建成，或被改动过）",
        "it records a migration this program does not know, {name} (made by a newer version, "
        "or altered)",
    ),
    "schema_migration_missing": (
        "迁移 {name} 的记录被删掉了，它建的东西却还在",
        "the record of migration {name} was deleted, while what it made is still there",
    ),
    "schema_bad_commit_seq": (
        "记录的提交序号不是数字：{value}",
        "its commit sequence number is not a number: {value}",
    ),
    "schema_kind_table": ("表", "table"),
    "schema_kind_index": ("索引", "index"),
    "schema_kind_trigger": ("触发器", "trigger"),
    "schema_kind_view": ("视图", "view"),
}
MESSAGES |= {
    # -- JSON nested too deep or too long to be read (untrusted/json_limits.py) ---------------
    "json_too_deep": (
        "{where}：JSON 嵌套超过 {limit} 层，不予读取",
        "{where}: JSON nested more than {limit} deep is not read",
    ),
    "json_where_book": ("书中存的一段 JSON", "a JSON value stored in the book"),
    "json_where_commit": ("第 {chapter} 章的提交记录", "the commit log's row of chapter {chapter}"),
    "json_too_large": (
        "{where}：JSON 有 {size} 字节，超过上限 {limit} 字节，不予读取",
        "{where}: JSON of {size} bytes is over the limit of {limit} bytes and is not read",
    ),
}
MESSAGES |= {
    # -- a copy built aside and moved into place (book/copy_aside.py) ---------------------------
    "copy_dest_not_empty": (
        "{memory_dir} 已存在且不是空的，却不是一本书；复制不会写进去：请先把它移走",
        "{memory_dir} exists and is not empty, yet holds no book; a copy does not write into "
        "it: move it away first",
    ),
}
