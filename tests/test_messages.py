"""Every error, warning and line on stderr a person reads comes from the one catalogue,
`webnovel/messages/`, Chinese first, so that WEBNOVEL_LANG=en gives English for all of them
(docs/contract.md, "Language")."""

from __future__ import annotations

import ast
import builtins
import importlib
import pkgutil
import re
import shutil
from pathlib import Path

import pytest

import webnovel
from webnovel import errors
from webnovel.errors import InvalidInput, WebnovelError
from webnovel.ingest.sample_book import sample_chapters
from webnovel.messages import MESSAGES, say
from webnovel.user.config import user_config_path

from cli_runner import run_cli
from stores import NO_POSTGRES, POSTGRES_URL, book_name

SOURCE = Path(webnovel.__file__).parent
CHINESE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
WORDS = re.compile(r"[A-Za-z\u3400-\u4dbf\u4e00-\u9fff]")


def _exception_names(trees: dict[str, ast.Module], names: set[str] | None = None) -> set[str]:
    """The names of the exception classes: builtins', errors.py's, and any class in the package
    whose base is one of them (found by walking until no new one appears); or, given `names`,
    those and the package's classes based on them."""
    if names is None:
        names = {
            n
            for n, v in vars(builtins).items()
            if isinstance(v, type) and issubclass(v, BaseException)
        }
        names |= {
            n
            for n, v in vars(errors).items()
            if isinstance(v, type) and issubclass(v, BaseException)
        }
        names.add("HTTPException")  # starlette's; the dashboard raises it with a message
    names = set(names)
    classes = [n for tree in trees.values() for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    grown = True
    while grown:
        grown = False
        for cls in classes:
            bases = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in cls.bases}
            if cls.name not in names and bases & names:
                names.add(cls.name)
                grown = True
    return names


def _called(node: ast.Call) -> str:
    return node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")


def _chinese_literals(node: ast.AST) -> list[str]:
    """The string literals (plain or the fixed parts of an f-string) holding Chinese under
    `node`, not counting what is handed to `say` (a catalogue key and its arguments)."""
    if isinstance(node, ast.Call) and _called(node) in {"say", "of"}:
        return []  # a catalogue key and its arguments (`say`, `SomeError.of`)
    if isinstance(node, ast.Constant):
        return [node.value] if isinstance(node.value, str) and CHINESE.search(node.value) else []
    return [text for child in ast.iter_child_nodes(node) for text in _chinese_literals(child)]


def _domain_errors(trees: dict[str, ast.Module]) -> set[str]:
    """The names of WebnovelError and its subclasses, errors.py's and the package's own."""
    names = {
        n for n, v in vars(errors).items() if isinstance(v, type) and issubclass(v, WebnovelError)
    }
    return _exception_names(trees, names)


def _message_literals(node: ast.AST) -> list[str]:
    """The text written in place in a message: a string literal, the fixed parts of an
    f-string (what is inside `{...}` is an argument, not text), either side of a `+`, the
    template of `.format`, the items of a list of problems."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [part.value for part in node.values if isinstance(part, ast.Constant)]
    if isinstance(node, ast.BinOp):
        return _message_literals(node.left) + _message_literals(node.right)
    if isinstance(node, ast.Call) and _called(node) == "format":
        return _message_literals(getattr(node.func, "value", node.func))
    if isinstance(node, ast.IfExp):
        return _message_literals(node.body) + _message_literals(node.orelse)
    if isinstance(node, ast.List | ast.Tuple):
        return [text for item in node.elts for text in _message_literals(item)]
    return []


def _worded(texts: list[str]) -> list[str]:
    """The literals holding words (letters of any script) once `{placeholders}` are set
    aside: punctuation and placeholders alone join texts that are already the reader's."""
    return [text for text in texts if WORDS.search(re.sub(r"\{[^{}]*\}", "", text))]


def _domain_errors_written_in_place(trees: dict[str, ast.Module]) -> list[str]:
    """`path:line: text` for each WebnovelError raised or built (a helper returning it, a
    subclass's `super().__init__`) whose message holds words not taken from the catalogue:
    an English sentence there reaches an author who reads Chinese."""
    domain = _domain_errors(trees)
    found = []
    for path, tree in trees.items():
        inits = {
            id(call)
            for cls in ast.walk(tree)
            if isinstance(cls, ast.ClassDef) and cls.name in domain
            for call in ast.walk(cls)
            if isinstance(call, ast.Call) and _called(call) == "__init__"
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _keyed(node, domain):
                # `InvalidInput.of("key", **args)`: a catalogue key, and the message's arguments
                key = node.args[0] if node.args else None
                found += _not_a_key(path, node, key)
            elif isinstance(node, ast.Call) and (_called(node) in domain or id(node) in inits):
                keys = [k.value for k in node.keywords if k.arg == "key"]
                found += [fault for key in keys for fault in _not_a_key(path, node, key)]
                said = [
                    text
                    for arg in (*node.args, *(k.value for k in node.keywords if k.arg != "key"))
                    for text in _worded(_message_literals(arg))
                ]
                found += [f"{path}:{node.lineno}: {text!r}" for text in said]
    return found


def _keyed(node: ast.Call, domain: set[str]) -> bool:
    """`SomeError.of(...)`: an error raised with a catalogue key and arguments."""
    func = node.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "of"
        and isinstance(func.value, ast.Name)
        and func.value.id in domain
    )


def _not_a_key(path: str, node: ast.Call, key: ast.AST | None) -> list[str]:
    """An error's key that is not a key of the catalogue, as a finding: a literal must be one;
    a name or a call (`self._remedy()`) chooses among keys and holds no text of its own."""
    if isinstance(key, ast.Constant) and key.value in MESSAGES:
        return []
    if isinstance(key, ast.Name | ast.Attribute | ast.Call):
        return []
    return [f"{path}:{node.lineno}: not a catalogue key: {ast.unparse(key) if key else None}"]


def _said_on_stderr(node: ast.Call) -> bool:
    """A line printed to standard error, or told by the dashboard as it starts."""
    to_stderr = any(k.arg == "file" and "stderr" in ast.unparse(k.value) for k in node.keywords)
    return (_called(node) == "print" and to_stderr) or _called(node) == "tell"


def _lines_written_in_place(trees: dict[str, ast.Module]) -> list[str]:
    """`path:line: text` for each line said on stderr with words written in place."""
    return [
        f"{path}:{node.lineno}: {text!r}"
        for path, tree in trees.items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and _said_on_stderr(node)
        for arg in node.args
        for text in _worded(_message_literals(arg))
    ]


def _sentences_outside_the_catalogue(trees: dict[str, ast.Module]) -> list[str]:
    """`path:line: text` for each raise, exception built, or warning given with Chinese text
    written in place instead of taken from the catalogue, and each domain error or line on
    stderr whose message holds words of any language written in place."""
    exceptions = _exception_names(trees)
    found = _domain_errors_written_in_place(trees) + _lines_written_in_place(trees)
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and node.exc is not None:
                said = _chinese_literals(node.exc)
            elif isinstance(node, ast.Call) and (
                _called(node) in exceptions | {"warn", "__init__"}
            ):
                said = [t for arg in (*node.args, *node.keywords) for t in _chinese_literals(arg)]
            else:
                continue
            found += [f"{path}:{node.lineno}: {text!r}" for text in said]
    return sorted(set(found))


def _package_trees() -> dict[str, ast.Module]:
    return {
        path.relative_to(SOURCE).as_posix(): ast.parse(path.read_text("utf-8"))
        for path in sorted(SOURCE.rglob("*.py"))
        if path.parent.name != "messages"
    }


def test_no_error_or_warning_is_written_outside_the_catalogue() -> None:
    assert _sentences_outside_the_catalogue(_package_trees()) == []


@pytest.mark.parametrize(
    "written",
    [
        'raise InvalidConfig(f"{path}：无法读取")',
        'raise InvalidInput("合并需要指明并入哪个已有实体")',
        'raise StoreUnavailable(\n    f"连不上书库 {url}："\n    f"{error}"\n) from None',
        'return StoreForbidden("书库拒绝了这个操作")',
        'message = HTTPException(403, "跨站请求已拒绝")',
        'warnings.warn(f"检索只用字面匹配：{exc}", stacklevel=2)',
        'class Refused(EndpointFailed):\n    pass\nraise Refused("模型服务拒绝了请求")',
        'class Gone(UnknownBook):\n    def __init__(self):\n        super().__init__("没有这本书")',
        'raise InvalidInput(f"unknown action {action!r}: use accept, merge or reject")',
        'raise InvalidChapterResult([f"text: must be a string, got {type(text).__name__}"])',
        'return InvalidConfig("config.toml: llm." + key + " must be a number")',
        'refused = ProjectNotFound("the bundled sample book is missing")',
        'raise InvalidInput("{path}: holds no chapter files".format(path=path))',
        'raise InvalidInput(say("no_model") if known else "no model configured")',
        'class Gone(UnknownBook):\n    def __init__(self):\n        super().__init__("no such book")',
        'class Late(InvalidInput):\n    pass\nraise Late(f"{path}: too late")',
        'print(f"warning: {warning}", file=sys.stderr)',
        'print("未撤回", file=sys.stderr)',
        'tell(f"《{title}》的记忆面板：{url}（Ctrl+C 退出）")',
        'raise InvalidInput.of("合并需要指明并入哪个已有实体")',
        'raise InvalidInput.of("no such key in the catalogue", name=name)',
        'class Gone(UnknownBook):\n    def __init__(self):\n        super().__init__(key="gone")',
    ],
)
def test_the_guard_sees_a_sentence_written_in_place(written: str) -> None:
    assert _sentences_outside_the_catalogue({"put_back.py": ast.parse(written)}) != []


@pytest.mark.parametrize(
    "written",
    [
        'raise InvalidConfig(say("config_table", name="store", got="列表"))',
        'raise ValueError(f"unknown action {action!r}")',
        'raise InvalidInput(f"{name}: {exc}") from exc',
        'raise InvalidInput(f"{where.rstrip()}：{exc}（{more}）")',
        "raise UnknownChapter(chapter)",
        'label = "未删除"',
        'print(say("not_deleted"), file=sys.stderr)',
        "print(f\"{say('warning_prefix')}{message}\", file=sys.stderr)",
        'print(f"第{n}章 done", file=out)',
        'raise InvalidInput(say("entity_type_unknown", choices="、".join(types), got=t))',
        'raise InvalidInput.of("entity_type_unknown", choices="、".join(types), got=t)',
    ],
)
def test_the_guard_lets_the_catalogue_and_plain_text_pass(written: str) -> None:
    assert _sentences_outside_the_catalogue({"fine.py": ast.parse(written)}) == []


def test_the_guard_sees_an_english_error_put_back() -> None:
    """The thread status error as it was written before it came from the catalogue."""
    source = (SOURCE / "book" / "reader.py").read_text("utf-8")
    said = 'InvalidInput.of("unknown_thread_status", status=status, choices=choices)'
    assert said in source
    put_back = source.replace(
        said, "InvalidInput(f\"unknown thread status '{status}': use one of {choices}\")"
    )
    line = put_back[: put_back.index("unknown thread status")].count("\n") + 1
    assert _sentences_outside_the_catalogue({"book/reader.py": ast.parse(put_back)}) == [
        f'book/reader.py:{line}: "\': use one of "',
        f'book/reader.py:{line}: "unknown thread status \'"',
    ]
    assert _sentences_outside_the_catalogue({"book/reader.py": ast.parse(source)}) == []


def test_say_speaks_the_language_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    assert say("store_table", where="config.toml [store]") == "config.toml [store] must be a table"
    monkeypatch.setenv("WEBNOVEL_LANG", "zh")
    assert say("store_table", where="config.toml [store]") == "config.toml [store] 应是一个表"


# -- the moved errors, met through the CLI as an engineer meets them -----------------------------


def _said(monkeypatch: pytest.MonkeyPatch, language: str, *args: str, cwd: Path) -> str:
    """The CLI's error line for `webnovel ARGS` in `language`, after checking it failed as a
    usage or config error does (exit 2) or as the book does (exit 1)."""
    monkeypatch.setenv("WEBNOVEL_LANG", language)
    ran = run_cli(*args, cwd=cwd)
    assert ran.returncode in (1, 2), ran
    return ran.stderr.strip()


def test_a_store_table_without_its_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    webnovel.init_project(tmp_path / "书", title="青云志").close()
    config = tmp_path / "书" / ".webnovel" / "config.toml"
    config.write_text(config.read_text("utf-8") + '\n[store]\nbook = "qingyun"\n', "utf-8")
    args = ("--project", "书", "stats")
    assert _said(monkeypatch, "en", *args, cwd=tmp_path) == (
        "error: config.toml [store]: no url (postgresql://USER@HOST:PORT/DATABASE)"
    )
    assert _said(monkeypatch, "zh", *args, cwd=tmp_path) == (
        "错误：config.toml [store]：缺少 url（postgresql://用户@主机:端口/数据库）"
    )


def test_a_password_in_the_store_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    args = (
        "init",
        "书",
        "--title",
        "青云志",
        "--store",
        "postgresql://me:s3cret@db.example/novels",
    )
    english = _said(monkeypatch, "en", *args, cwd=tmp_path)
    chinese = _said(monkeypatch, "zh", *args, cwd=tmp_path)
    assert english.startswith("error: --store url: a URL may not hold a password")
    assert "Use the PGPASSWORD environment variable, ~/.pgpass" in english
    assert chinese.startswith("错误：--store url：地址里不能写密码")
    assert "请用 PGPASSWORD 环境变量" in chinese
    assert "s3cret" not in english + chinese
    assert not (tmp_path / "书").exists()


def test_the_user_config_s_endpoints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    webnovel.init_project(tmp_path / "书", title="青云志").close()
    config = tmp_path / "书" / ".webnovel" / "config.toml"
    config.write_text('[retrieval]\nembedder = "openai:m"\nendpoint = "mine"\n', "utf-8")
    args = ("--project", "书", "embed")
    mine = user_config_path()
    assert _said(monkeypatch, "en", *args, cwd=tmp_path) == (
        f"error: the book's config names the endpoint 'mine', but your config {mine} has no "
        '[endpoints.mine]; add base_url = "https://…/v1" and api_key_env = "VARIABLE"'
    )
    assert _said(monkeypatch, "zh", *args, cwd=tmp_path) == (
        f"错误：本书的配置要用端点 'mine'，但你的配置 {mine} 里没有 [endpoints.mine]；"
        '请加上 base_url = "https://…/v1" 和 api_key_env = "变量名"'
    )
    mine.parent.mkdir(parents=True, exist_ok=True)
    mine.write_text("[endpoints]\nmine = 3\n", "utf-8")
    assert _said(monkeypatch, "en", *args, cwd=tmp_path) == (
        f"error: {mine}: [endpoints.mine] must be a table"
    )
    assert (
        _said(monkeypatch, "zh", *args, cwd=tmp_path)
        == f"错误：{mine}: [endpoints.mine] 必须是一个表"
    )


@pytest.mark.skipif(POSTGRES_URL is None, reason=NO_POSTGRES)
def test_a_book_the_store_does_not_hold(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert POSTGRES_URL is not None
    (tmp_path / "书" / ".webnovel").mkdir(parents=True)
    name = book_name()
    (tmp_path / "书" / ".webnovel" / "config.toml").write_text(
        f'[store]\nurl = "{POSTGRES_URL}"\nbook = "{name}"\n', "utf-8"
    )
    args = ("--project", "书", "stats")
    assert _said(monkeypatch, "en", *args, cwd=tmp_path) == (
        f"error: the store {POSTGRES_URL} holds no book named '{name}' (create it with webnovel "
        "init --store, or list the books with webnovel books --store)"
    )
    assert _said(monkeypatch, "zh", *args, cwd=tmp_path) == (
        f"错误：书库 {POSTGRES_URL} 里没有名为《{name}》的书"
        "（先用 webnovel init --store 建书，或用 webnovel books --store 列出已有的书）"
    )


def test_the_catalogue_s_files_define_no_key_twice() -> None:
    """Every file of the catalogue package is merged into MESSAGES, and no key is in two of them
    (a second definition would silently win over the first)."""
    from webnovel import messages

    files = [
        importlib.import_module(f"webnovel.messages.{found.name}")
        for found in pkgutil.iter_modules(messages.__path__)
    ]
    assert len(files) >= 3
    keys = [key for file in files for key in file.MESSAGES]
    assert len(keys) == len(set(keys))
    assert set(keys) == set(messages.MESSAGES)


# -- the domain errors once written in English, met as an author meets them ----------------------


def _first_chapter(folder: Path) -> webnovel.Project:
    book = webnovel.init_project(folder, title="青灯照剑")
    chapter = next(iter(sample_chapters()))
    book.commit(chapter.result, text=chapter.text)
    return book


def test_a_folder_with_no_chapter_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    webnovel.init_project(tmp_path / "书", title="青云志").close()
    (tmp_path / "草稿").mkdir()
    (tmp_path / "草稿" / "大纲.docx").write_bytes(b"PK")
    args = ("--project", "书", "import", "text", "草稿")
    assert _said(monkeypatch, "zh", *args, cwd=tmp_path) == (
        "错误：草稿：文件夹里没有 .txt 或 .md 的章节文件（每章一个文件，或整本书一个文件）"
    )
    assert _said(monkeypatch, "en", *args, cwd=tmp_path) == (
        "error: 草稿: holds no .txt or .md chapter files"
    )
    with webnovel.open_project(tmp_path / "书") as book:
        assert book.latest_chapter() is None


def test_a_wiki_as_of_a_chapter_not_committed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("jinja2")
    _first_chapter(tmp_path / "书").close()
    args = ("--project", "书", "wiki", "百科", "--as-of", "3")
    assert _said(monkeypatch, "zh", *args, cwd=tmp_path) == (
        "错误：--as-of 应为已提交的章节号（1 到 1），实际是 3"
    )
    assert _said(monkeypatch, "en", *args, cwd=tmp_path) == (
        "error: --as-of must be a committed chapter, 1 to 1, got 3"
    )
    assert not (tmp_path / "百科").exists()


@pytest.mark.parametrize(
    ("prices", "chinese", "english"),
    [
        (
            "{ input = -1, output = 2 }",
            "错误：config.toml：llm.prices.input 应为 0 到 1000000 之间的数",
            "error: config.toml: llm.prices.input must be a number from 0 to 1000000",
        ),
        (
            '"每百万 2 元"',
            "错误：config.toml：llm.prices 应为一个表，写明每百万 token 的 input 和 output 价格"
            "（cached 可选，不写时按 input 计）",
            "error: config.toml: llm.prices must be a table with input, output (and cached), "
            "per million tokens",
        ),
    ],
)
def test_a_bad_price_in_llm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, prices: str, chinese: str, english: str
) -> None:
    _first_chapter(tmp_path / "书").close()
    config = tmp_path / "书" / ".webnovel" / "config.toml"
    config.write_text(config.read_text("utf-8") + f"\n[llm]\nprices = {prices}\n", "utf-8")
    args = ("--project", "书", "extract", "1", "--dry-run")
    assert _said(monkeypatch, "zh", *args, cwd=tmp_path) == chinese
    assert _said(monkeypatch, "en", *args, cwd=tmp_path) == english


def test_an_unknown_thread_status(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI's --status has its choices; a program calling the book meets the book's own."""
    with webnovel.init_project(tmp_path / "书", title="青云志") as book:
        monkeypatch.setenv("WEBNOVEL_LANG", "zh")
        with pytest.raises(InvalidInput) as chinese:
            book.threads("待定")
        # an error is rendered where it is shown, in the language of that moment
        assert str(chinese.value) == (
            "未知的线索状态「待定」：可用 open、resolved、abandoned、overdue、all"
        )
        monkeypatch.setenv("WEBNOVEL_LANG", "en")
        with pytest.raises(InvalidInput) as english:
            book.threads("待定")
        assert str(english.value) == (
            "unknown thread status '待定': use one of open, resolved, abandoned, overdue, all"
        )
    assert chinese.value.key == english.value.key == "unknown_thread_status"
    assert english.value.details == {
        "status": "待定",
        "choices": "open, resolved, abandoned, overdue, all",
    }


def test_an_upstream_project_without_its_chapter_texts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A warning on stderr speaks the author's language too, its prefix included."""
    project = tmp_path / "旧项目"
    shutil.copytree(Path(__file__).parent / "data" / "upstream-v6" / "project", project)
    shutil.rmtree(project / "正文")
    args = ("--project", "新书", "import", "upstream", "旧项目", "--dry-run")
    monkeypatch.setenv("WEBNOVEL_LANG", "zh")
    chinese = run_cli(*args, cwd=tmp_path)
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    english = run_cli(*args, cwd=tmp_path)
    assert (chinese.returncode, english.returncode) == (0, 0)
    assert chinese.stderr == "提醒：找不到 旧项目/正文：各章将不带正文导入\n"
    assert english.stderr == (
        "warning: 旧项目/正文 is missing: chapters are imported without their texts\n"
    )
