"""A received book cannot choose where text and keys go: only the user (user config or WEBNOVEL_*
variables) can. Run against a real OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import webnovel
from local_openai import LocalOpenAI, embeddings_reply, local_openai
from webnovel.cli.main import main
from webnovel.errors import InvalidConfig
from webnovel.user.config import (
    check_book_section,
    checked_base_url,
    first_use_notice,
    resolve_endpoint,
    user_config_path,
)
from webnovel.user.loopback import is_loopback_host

SECRET = "AKIA-very-secret-value-0000"


def make_book(root: Path, retrieval: str) -> Path:
    with webnovel.init_project(root, title="收到的书") as book:
        book.commit({"chapter": 1, "summary": "萧炎在乌坦城练习斗技。"})
        book.commit({"chapter": 2, "summary": "林砚离开青云宗，前往天剑城。"})
    config = root / ".webnovel" / "config.toml"
    config.write_text(f"[retrieval]\n{retrieval}\n", encoding="utf-8")
    return root


def write_user_config(text: str) -> Path:
    path = user_config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def server() -> object:
    with local_openai() as running:
        yield running


@pytest.mark.parametrize(
    "retrieval",
    [
        'embedder = "openai:m@{url}"\napi_key_env = "AWS_SECRET_ACCESS_KEY"',
        'embedder = "openai:m@{url}"',
        'embedder = "openai:m"\napi_key_env = "AWS_SECRET_ACCESS_KEY"',
        'embedder = "openai:m"\nbase_url = "{url}"',
        'embedder = "openai:m"\nendpoint = "{url}"',
    ],
)
@pytest.mark.parametrize("command", [["embed"], ["search", "萧炎"], ["pack", "--chapter", "3"]])
def test_a_book_naming_an_endpoint_or_key_variable_is_refused(
    tmp_path: Path,
    server: LocalOpenAI,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    retrieval: str,
    command: list[str],
) -> None:
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    root = make_book(tmp_path / "book", retrieval.format(url=server.url))
    code = main(["--project", str(root), *command])
    err = capsys.readouterr().err
    assert code == 2
    assert server.requests == [] and not server.carried(SECRET)
    assert SECRET not in err
    # the refusal says how to do it properly: the user's own config, or the variables
    assert "已拒绝" in err and str(user_config_path()) in err
    assert "[endpoints.mine]" in err and "api_key_env" in err
    assert "WEBNOVEL_EMBED_BASE_URL" in err and 'endpoint = "mine"' in err
    assert "Traceback" not in err


def test_a_user_endpoint_named_by_the_book_works(
    tmp_path: Path,
    server: LocalOpenAI,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("MY_EMBED_KEY", "user-key-123")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    write_user_config(
        f'[endpoints.local]\nbase_url = "{server.url}"\napi_key_env = "MY_EMBED_KEY"\n'
    )
    root = make_book(tmp_path / "book", 'embedder = "openai:m"\nendpoint = "local"')
    assert main(["--project", str(root), "embed"]) == 0
    first = capsys.readouterr()
    assert json.loads(first.out)["embedded"] > 0
    assert "首次使用" in first.err and server.url in first.err and "MY_EMBED_KEY" in first.err
    assert "user-key-123" not in first.err
    assert all(r.headers["Authorization"] == "Bearer user-key-123" for r in server.requests)
    assert all(json.loads(r.body)["model"] == "m" for r in server.requests)
    assert not server.carried(SECRET)

    assert main(["--project", str(root), "search", "萧炎", "--format", "json"]) == 0
    second = capsys.readouterr()
    assert json.loads(second.out)[0]["chapter"] == 1
    assert "首次使用" not in second.err  # told once per user, remembered outside the book
    notices = Path(os.environ["XDG_STATE_HOME"]) / "webnovel" / "notices.json"
    assert notices.exists()
    assert not any(p.name == "notices.json" for p in root.rglob("*"))


def test_environment_variables_choose_the_endpoint(
    tmp_path: Path, server: LocalOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBNOVEL_EMBED_BASE_URL", server.url)
    monkeypatch.setenv("WEBNOVEL_EMBED_API_KEY", "env-key")
    monkeypatch.setenv("WEBNOVEL_EMBED_MODEL", "env-model")
    root = make_book(tmp_path / "book", 'embedder = "openai"')
    with webnovel.open_project(root) as book, pytest.warns(UserWarning, match="首次使用"):
        assert book.embed()["embedded"] > 0
    assert {r.headers["Authorization"] for r in server.requests} == {"Bearer env-key"}
    assert {json.loads(r.body)["model"] for r in server.requests} == {"env-model"}


def test_a_book_naming_an_endpoint_the_user_lacks_is_refused(tmp_path: Path) -> None:
    root = make_book(tmp_path / "book", 'embedder = "openai:m"\nendpoint = "theirs"')
    with (
        webnovel.open_project(root) as book,
        pytest.raises(InvalidConfig, match="endpoints.theirs"),
    ):
        book.embed()


def test_the_llm_section_is_held_to_the_same_rule(tmp_path: Path) -> None:
    root = make_book(tmp_path / "book", "")
    config = root / ".webnovel" / "config.toml"
    config.write_text('[llm]\nmodel = "x"\napi_key_env = "AWS_SECRET_ACCESS_KEY"\n', "utf-8")
    with pytest.raises(InvalidConfig, match=r"\[llm\].*api_key_env"):
        webnovel.open_project(root)
    config.write_text('[llm]\nmodel = "x"\nendpoint = "mine"\nmax_concurrency = 4\n', "utf-8")
    webnovel.open_project(root).close()


def test_resolve_endpoint_for_the_llm(monkeypatch: pytest.MonkeyPatch) -> None:
    write_user_config(
        '[endpoints.ds]\nbase_url = "https://api.example.com/v1"\napi_key_env = "DS_KEY"\n'
        'model = "chat-default"\n[llm]\nendpoint = "ds"\n'
    )
    endpoint = resolve_endpoint("llm", {"model": "chosen-by-book", "price_per_mtok": 1.0})
    assert (endpoint.name, endpoint.base_url, endpoint.model) == (
        "ds",
        "https://api.example.com/v1",
        "chosen-by-book",
    )
    assert resolve_endpoint("llm").model == "chat-default"
    with pytest.raises(InvalidConfig, match="DS_KEY"):
        endpoint.auth_headers()  # the variable is unset: said plainly, nothing sent
    monkeypatch.setenv("DS_KEY", "k-1")
    assert endpoint.auth_headers() == {"Authorization": "Bearer k-1"}
    assert "k-1" not in repr(endpoint) and "k-1" not in endpoint.describe()
    with pytest.raises(InvalidConfig, match="WEBNOVEL_EMBED_BASE_URL"):
        resolve_endpoint("embed")  # nothing configured for embeddings


@pytest.mark.parametrize(
    "url",
    [
        "http://collector.example/v1",
        "ftp://x/v1",
        "http://10.0.0.8/v1",
        "https:///v1",
        "http://127.0.0.1.evil.example/v1",
    ],
)
def test_a_key_travels_only_over_https(url: str) -> None:
    with pytest.raises(InvalidConfig, match="https"):
        checked_base_url(url, "测试")
    write_user_config(f'[endpoints.x]\nbase_url = "{url}"\n[embed]\nendpoint = "x"\n')
    with pytest.raises(InvalidConfig, match="https"):
        resolve_endpoint("embed")


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.1", True),
        ("127.0.0.2", True),
        ("LOCALHOST", True),
        ("localhost.", True),
        ("::1", True),
        ("[::1]", True),
        ("::ffff:127.0.0.1", True),
        ("0x7f.1", True),
        ("2130706433", True),
        ("app.localhost", False),  # resolved by DNS, which a hostile network answers
        ("10.0.0.1", False),
        ("0.0.0.0", False),
        ("example.com", False),
        ("128.0.0.1", False),
        ("localhost.example.com", False),
        ("", False),
    ],
)
def test_every_spelling_of_loopback(host: str, loopback: bool) -> None:
    assert is_loopback_host(host) is loopback


@pytest.mark.parametrize(
    "section",
    [
        {"url": "https://x"},
        {"api_key": "sk-1"},
        {"headers": {}},
        {"model": "m@https://x/v1"},
        {"endpoint": "https://x"},
        {"endpoint": "a/b"},
        {"endpoint": 3},
    ],
)
def test_check_book_section_refuses(section: dict[str, object]) -> None:
    with pytest.raises(InvalidConfig, match="已拒绝"):
        check_book_section("llm", section)


def test_first_use_is_remembered_per_user_not_per_book(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBNOVEL_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    endpoint = resolve_endpoint("llm", {"model": "m"})
    notice = first_use_notice(endpoint)
    assert notice is not None and "http://127.0.0.1:9/v1" in notice
    assert first_use_notice(endpoint) is None
    monkeypatch.setenv("XDG_STATE_HOME", os.environ["XDG_STATE_HOME"] + "-another-user")
    assert first_use_notice(endpoint) is not None


def _mixed_sizes(body: dict[str, object]) -> tuple[int, bytes]:
    inputs = body.get("input", [])
    assert isinstance(inputs, list)
    data = [{"index": i, "embedding": [0.1] * (4 + i)} for i in range(len(inputs))]
    return 200, json.dumps({"data": data}).encode()


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        (lambda body: (500, b'{"error": "boom"}'), "HTTP 500"),
        (lambda body: (200, b"<html>not json</html>"), "不是 OpenAI 格式"),
        (lambda body: (200, b'{"data": [{"index": 0, "embedding": "x"}]}'), "向量"),
        (_mixed_sizes, "长度不一致"),
        (None, "无法连接"),
    ],
)
def test_endpoint_failures_are_one_sentence_naming_the_endpoint(
    tmp_path: Path,
    server: LocalOpenAI,
    capsys: pytest.CaptureFixture[str],
    reply: object,
    said: str,
) -> None:
    url = server.url if reply is not None else "http://127.0.0.1:9/v1"  # port 9: nothing there
    if reply is not None:
        server.reply = reply  # type: ignore[assignment]
    write_user_config(f'[endpoints.local]\nbase_url = "{url}"\n')
    root = make_book(tmp_path / "book", 'embedder = "openai:m"\nendpoint = "local"')
    assert main(["--project", str(root), "embed", "--batch", "2"]) == 1
    err = capsys.readouterr().err
    assert said in err and "local" in err and url in err
    assert "Traceback" not in err and len(err.strip().splitlines()) <= 2
    with webnovel.open_project(root) as book:
        assert book.retrieval().stats()["vectors"] == 0  # nothing half-written


def test_vectors_of_another_size_than_the_stored_ones_are_refused(
    tmp_path: Path, server: LocalOpenAI, capsys: pytest.CaptureFixture[str]
) -> None:
    write_user_config(f'[endpoints.local]\nbase_url = "{server.url}"\n')
    root = make_book(tmp_path / "book", 'embedder = "openai:m"\nendpoint = "local"')
    with webnovel.open_project(root) as book:
        book.commit({"chapter": 3, "summary": "第三章。"})
    assert main(["--project", str(root), "embed", "--batch", "1"]) == 0
    with webnovel.open_project(root) as book:
        stored = book.retrieval().stats()["vectors"]
        book.commit({"chapter": 4, "summary": "第四章：萧炎回到乌坦城。"})
    server.reply = lambda body: embeddings_reply(body, dim=16)
    assert main(["--project", str(root), "embed"]) == 1
    assert "与本书已有的长度 8 不一致" in capsys.readouterr().err
    with webnovel.open_project(root) as book:
        assert book.retrieval().stats()["vectors"] == stored
    server.reply = embeddings_reply
    assert main(["--project", str(root), "search", "萧炎", "--format", "json"]) == 0


def test_a_local_model_shipped_inside_the_book_is_not_loaded(tmp_path: Path) -> None:
    root = make_book(tmp_path / "book", f'embedder = "st:{tmp_path / "book" / "model"}"')
    with webnovel.open_project(root) as book, pytest.raises(InvalidConfig, match="随书而来"):
        book.search("萧炎")


@pytest.mark.parametrize("spec", ["st:../evil-model", "st:evil-model", "st:./model"])
def test_a_local_model_named_by_a_relative_path_is_not_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spec: str
) -> None:
    """Issue 43: `st:../evil-model` was read from the folder the command ran in (often the
    book's), so it named a model unpacked beside the book from the same archive."""
    root = make_book(tmp_path / "book", f'embedder = "{spec}"')
    monkeypatch.chdir(root)
    with (
        webnovel.open_project(root) as book,
        pytest.raises(InvalidConfig, match="相对路径") as refused,
    ):
        book.search("萧炎")
    assert spec in str(refused.value)
