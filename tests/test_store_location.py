"""Where a book lives, without a server: the `[store]` table, refused passwords, and the
translation of the store's SQLite statements into PostgreSQL's dialect (store/pg/pg_sql)."""

from __future__ import annotations

from pathlib import Path

import pytest

import webnovel
from webnovel.cli.main import main
from webnovel.errors import InvalidConfig
from webnovel.memory.store.location import parse_store_section, parse_store_url
from webnovel.memory.store.pg.pg_sql import translate, translate_ddl


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://writer:s3cret@db.lan/novels",
        "postgres://writer:s3cret@db.lan:5432/novels?sslmode=require",
        "postgresql://:s3cret@db.lan/novels",
        "postgresql://writer@db.lan/novels?password=s3cret",  # libpq reads it there too
        "postgresql://writer@db.lan/novels?sslmode=require&Password=s3cret",
        "postgresql://writer@db.lan/novels#?password=s3cret",  # libpq reads past a `#` too
    ],
)
def test_a_password_in_the_url_is_refused_and_never_shown(url: str) -> None:
    with pytest.raises(InvalidConfig) as caught:
        parse_store_url(url)
    message = str(caught.value)
    assert "s3cret" not in message
    assert "PGPASSWORD" in message and ".pgpass" in message and "password_env" in message


def test_a_bad_url_is_named_without_its_password() -> None:
    for url in (
        "postgresql://w:s3cret@db.lan:port/db",
        "postgresql://w@db.lan:port/db?password=s3cret",
    ):
        with pytest.raises(InvalidConfig, match="不是有效的 PostgreSQL 地址") as caught:
            parse_store_url(url)
        assert "s3cret" not in str(caught.value) and "***" in str(caught.value)


def test_init_with_a_password_writes_nothing_and_prints_no_password(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "book"
    for url in ("postgresql://w:s3cret@h/db", "postgresql://w@h/db?password=s3cret"):
        code = main(["init", str(root), "--title", "t", "--store", url])
        out, err = capsys.readouterr()
        assert code == 2
        assert "s3cret" not in out + err and "密码" in err
        assert not (root / ".webnovel" / "config.toml").exists()


@pytest.mark.parametrize(
    ("section", "problem"),
    [
        ({"url": "mysql://h/db", "book": "b"}, "不是 PostgreSQL 地址"),
        ({"book": "b"}, "缺少 url"),
        ({"url": 42, "book": "b"}, "url 应为字符串"),
        ({"url": "postgresql://h/db", "book": 3}, "book 应为字符串"),
        ({"url": "postgresql://h/db", "book": ""}, "书名"),
        ({"url": "postgresql://h/db", "book": "a/b"}, "书名"),
        ({"url": "postgresql://h/db", "book": "b", "password": "x"}, "不认识的键 password"),
        ({"url": "postgresql://h/db", "book": "b", "password_env": "A B"}, "password_env"),
        # a received book must not send the user's API key to the host it names
        (
            {"url": "postgresql://h/db", "book": "b", "password_env": "OPENAI_API_KEY"},
            "PASSWORD 结尾",
        ),
    ],
)
def test_a_bad_store_table_names_what_is_wrong(section: dict[str, str], problem: str) -> None:
    with pytest.raises(InvalidConfig, match=problem):
        parse_store_section(section)


def test_a_store_key_that_is_not_a_string_is_named_in_english_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    with pytest.raises(InvalidConfig, match=r"config.toml \[store\]: url must be a string"):
        parse_store_section({"url": 42, "book": "b"})
    with pytest.raises(InvalidConfig, match="book must be a string"):
        parse_store_section({"url": "postgresql://h/db", "book": 3})


def test_a_bad_store_table_in_config_toml_is_refused_on_open(tmp_path: Path) -> None:
    webnovel.init_project(tmp_path / "b", title="t").close()
    config = tmp_path / "b" / ".webnovel" / "config.toml"
    config.write_text(
        config.read_text(encoding="utf-8") + '\n[store]\nurl = "postgresql://u:pw@h/db"\n',
        encoding="utf-8",
    )
    with pytest.raises(InvalidConfig, match="不能写密码"):
        webnovel.open_project(tmp_path / "b")


@pytest.mark.parametrize(
    ("sqlite", "postgresql"),
    [
        ("SELECT a FROM t WHERE b = ? AND c = ?", "SELECT a FROM t WHERE b = %s AND c = %s"),
        (
            "SELECT a FROM t WHERE b = :e AND c > :n",
            "SELECT a FROM t WHERE b = %(e)s AND c > %(n)s",
        ),
        (
            "SELECT a FROM t WHERE b LIKE '%x?' AND c = ?",
            "SELECT a FROM t WHERE b LIKE '%%x?' AND c = %s",
        ),
        ("SELECT IFNULL(a, 4) FROM t", "SELECT COALESCE(a, 4) FROM t"),
        (
            "SELECT a FROM t WHERE (? IS NULL OR b = ?)",
            "SELECT a FROM t WHERE (CAST(%s AS text) IS NULL OR b = %s)",
        ),
        ("SELECT a FROM t WHERE instr(v, ?) > 0", "SELECT a FROM t WHERE strpos(v, %s) > 0"),
        (
            "SELECT a FROM t WHERE +family = 'x' AND n = a + 1",
            "SELECT a FROM t WHERE family = 'x' AND n = a + 1",
        ),
        (
            "UPDATE e SET f = MIN(a, (SELECT MIN(c) FROM x)), g = MAX(b, 0)",
            "UPDATE e SET f = LEAST(a, (SELECT MIN(c) FROM x)), g = GREATEST(b, 0)",
        ),
        ("SELECT a FROM t WHERE id IN ()", "SELECT a FROM t WHERE id = ANY('{}')"),
        (
            "SELECT json_extract(v, '$.due_chapter') FROM t",
            "SELECT ((v)::json ->> 'due_chapter')::numeric FROM t",
        ),
        (
            "SELECT json_extract(v, '$.related') FROM t",
            "SELECT ((v)::json -> 'related')::text FROM t",
        ),
    ],
)
def test_each_sqlite_spelling_has_its_postgresql_one(sqlite: str, postgresql: str) -> None:
    assert translate(sqlite) == postgresql


def test_ddl_keeps_sqlites_keys_numbers_and_byte_order() -> None:
    ddl = translate_ddl(
        "CREATE TABLE c (seq INTEGER PRIMARY KEY AUTOINCREMENT, n INTEGER NOT NULL, x REAL, "
        "t TEXT);\nCREATE TABLE a (k TEXT, PRIMARY KEY (k)) WITHOUT ROWID;"
    )
    assert "seq BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY" in ddl
    assert "n BIGINT NOT NULL" in ddl and "x DOUBLE PRECISION" in ddl
    assert 't TEXT COLLATE "C"' in ddl and "ROWID" not in ddl
    assert ddl.count("rowid BIGINT GENERATED ALWAYS AS IDENTITY") == 0


def test_a_table_without_a_key_keeps_its_rowid_as_a_column() -> None:
    ddl = translate_ddl("CREATE TABLE p (\n    a TEXT NOT NULL,\n    n INTEGER\n);")
    assert ddl.endswith("n BIGINT,\n    rowid BIGINT GENERATED ALWAYS AS IDENTITY\n);")
