"""The `webnovel` command as a user runs it: stdout for answers, stderr for errors, documented
exit codes. Commands run in process (`cli_runner.run_cli`); the console script itself, standard
input and exit codes are also checked in a fresh process."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from webnovel.cli import render
from webnovel.cli.main import build_parser
from webnovel.memory.store.migrations import MIGRATIONS

from cli_runner import run_cli as run
from cli_runner import run_process

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "sample-book"


def ok(*args: str, **kwargs: Any) -> Any:
    proc = run(*args, **kwargs)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_console_script_in_a_fresh_process(tmp_path: Path) -> None:
    """Two Python start-ups: the installed script takes a result on standard input, and
    `python -m webnovel` exits with the documented code for bad input (the other codes are
    main's return values, checked in process)."""
    script = shutil.which("webnovel")
    assert script is not None, "the package installs a `webnovel` console script"
    book = tmp_path / "book"
    assert run("init", str(book), "--title", "青灯照剑").returncode == 0
    result = (SAMPLE / "results" / "001.json").read_text(encoding="utf-8")
    committed = subprocess.run(
        [script, "--project", str(book), "commit", "-"],
        input=result,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        timeout=60,
    )
    assert committed.returncode == 0, committed.stderr
    assert json.loads(committed.stdout)["status"] == "committed"
    assert run("--project", str(book), "fact", "无名氏", "realm").returncode == 1
    assert run_process("--project", str(book), "commit", "-", stdin="{oops").returncode == 2


@pytest.fixture
def cli_book(tmp_path: Path) -> Path:
    root = tmp_path / "book"
    ok("init", str(root), "--title", "青灯照剑", "--genre", "仙侠")
    for n in (1, 2, 3):
        ok(
            "--project",
            str(root),
            "commit",
            str(SAMPLE / "results" / f"{n:03d}.json"),
            "--text",
            str(SAMPLE / "chapters" / f"{n:03d}.md"),
        )
    return root


def commands() -> list[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return sorted(sub.choices)  # type: ignore[arg-type]


def test_help_has_examples() -> None:
    assert "示例:" in run("--help").stdout
    for command in commands():
        proc = run(command, "--help")
        assert proc.returncode == 0
        assert "示例:" in proc.stdout and "webnovel " in proc.stdout, command


def test_the_readme_s_table_of_commands_is_the_one_written_from_the_parser() -> None:
    """Each command has its row, its usage as the parser has it, a query's MCP tool and
    dashboard page as the table of queries declares them."""
    import difflib

    from webnovel.cli.command_table import rewritten

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    written = rewritten(readme)
    drift = difflib.unified_diff(readme.splitlines(), written.splitlines(), lineterm="", n=0)
    assert readme == written, "\n".join(
        ["python -m webnovel.cli.command_table README.md writes it again:", *drift]
    )


def test_the_table_of_commands_gives_a_new_command_its_help_and_a_query_its_links() -> None:
    from webnovel.cli.command_table import command_table

    rows = command_table("").splitlines()
    assert len(rows) == 2 + len(commands())
    assert "| `webnovel retract CHAPTER [--yes] [--force]` | take a committed chapter back: " in (
        "\n".join(rows)
    )
    fact = next(row for row in rows if row.startswith("| `webnovel fact "))
    assert fact == (
        "| `webnovel fact SUBJECT [FIELD] [--as-of AS_OF]` | one field of one entity, now or as of "
        "chapter N (MCP `get_fact`; dashboard `/characters/{subject}`) |"
    )
    pack = next(row for row in rows if row.startswith("| `webnovel pack "))
    assert "--template battle\\|dialogue\\|transition] [--format json\\|text\\|prompt]`" in pack


def test_commit_shape_and_unchanged(cli_book: Path) -> None:
    again = ok(
        "--project",
        str(cli_book),
        "commit",
        str(SAMPLE / "results" / "003.json"),
        "--text",
        str(SAMPLE / "chapters" / "003.md"),
    )
    assert set(again) >= {"chapter", "status", "commit_id", "counts", "conflicts", "warnings"}
    assert again["status"] == "unchanged"
    stdin = json.dumps({"state_changes": [{"entity_id": "林砚", "field": "mood", "new": "平静"}]})
    report = ok("--project", str(cli_book), "commit", "-", "--chapter", "4", stdin=stdin)
    assert (report["chapter"], report["status"], report["counts"]["added"]) == (4, "committed", 1)


def test_fact_shapes_and_exit_codes(cli_book: Path) -> None:
    fact = ok("--project", str(cli_book), "fact", "砚子", "location", "--as-of", "2")
    assert {
        k: fact[k]
        for k in (
            "entity_id",
            "entity_name",
            "field",
            "value",
            "status",
            "valid_from",
            "valid_to",
            "found",
        )
    } == {
        "entity_id": "linyan",
        "entity_name": "林砚",
        "field": "location",
        "value": "青石镇",
        "status": "active",
        "valid_from": 1,
        "valid_to": None,  # as known at chapter 2: the move in chapter 3 has not happened
        "found": True,
    }
    assert fact["source"] == {"chapter": 1, "type": "entity_new"}
    missing = ok("--project", str(cli_book), "fact", "林砚", "blood_type")
    assert {k: missing[k] for k in ("entity_id", "field", "value", "found")} == {
        "entity_id": "linyan",
        "field": "blood_type",
        "value": None,
        "found": False,
    }
    # the answer names the entity and the fields it does have, in the author's words
    assert missing["entity_name"] == "林砚" and "位置" in missing["known_fields"]
    chinese = ok("--project", str(cli_book), "fact", "林砚", "位置", "--as-of", "2")
    assert (chinese["field"], chinese["value"], chinese["field_label"]) == (
        "location",
        "青石镇",
        "位置",
    )
    unknown = run("--project", str(cli_book), "fact", "萧炎", "realm")
    assert unknown.returncode == 1 and unknown.stdout == ""
    assert unknown.stderr.strip() == ("错误：未知实体「萧炎」：没有实体以此为 id、名字或别名")


def test_text_output_is_for_people(cli_book: Path) -> None:
    proc = run("--project", str(cli_book), "fact", "林砚", "realm", "--format", "text")
    assert proc.stdout.strip().splitlines() == [
        "林砚的境界：炼气",
        "  当前，第1章起，出自第1章（登场）",
    ]
    entities = run("--project", str(cli_book), "entities", "--format", "text").stdout
    rows = entities.strip().splitlines()
    assert rows[0].split() == ["名称", "类型", "登场", "别名", "id"]
    # columns line up by display width: a CJK character takes two columns
    starts = {render.width(row[: row.index("第")]) for row in rows[1:]}
    assert len(starts) == 1


def test_malformed_result_is_refused_whole(cli_book: Path) -> None:
    before = ok("--project", str(cli_book), "stats")["counts"]
    bad = json.dumps(
        {
            "chapter": 5,
            "state_changes": [{"field": "realm", "new": "筑基"}],
            "relationships_new": [{"from": "林砚"}],
        }
    )
    proc = run("--project", str(cli_book), "commit", "-", stdin=bad)
    assert proc.returncode == 2
    for path in (
        "$.state_changes[0].entity_id",
        "$.relationships_new[0].to",
        "$.relationships_new[0].type",
    ):
        assert path in proc.stderr
    assert ok("--project", str(cli_book), "stats")["counts"] == before
    not_json = run("--project", str(cli_book), "commit", "-", stdin="{oops")
    assert not_json.returncode == 2 and "不是有效的 JSON（第 1 行" in not_json.stderr


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert run("fact").returncode == 2
    assert run("threads", "--status", "sleeping").returncode == 2
    missing = run("--project", str(tmp_path / "nothing"), "stats")
    assert missing.returncode == 1 and "没有书" in missing.stderr


def test_nearest_book_is_found_from_a_subfolder(cli_book: Path) -> None:
    sub = cli_book / "drafts" / "deep"
    sub.mkdir(parents=True)
    assert ok("fact", "林砚", "realm", cwd=sub)["value"] == "炼气"


def test_ledgers(cli_book: Path) -> None:
    project = ("--project", str(cli_book))
    history = ok(*project, "history", "林砚", "location")
    assert [(h["value"], h["valid_from"], h["valid_to"], h["status"]) for h in history] == [
        ("青石镇", 1, 3, "outdated"),
        ("落霞山", 3, None, "active"),
    ]
    relations = ok(*project, "relations", "韩啸")
    assert {(r["from"], r["to"], r["type"]) for r in relations} == {
        ("linyan", "hanxiao", "朋友"),
        ("hanxiao", "linyan", "朋友"),
    }
    assert set(relations[0]) >= {
        "from",
        "to",
        "type",
        "valid_from",
        "valid_to",
        "status",
        "description",
        "evidence",
    }
    threads = ok(*project, "threads", "--status", "all")
    assert {t["id"]: t["status"] for t in threads} == {
        "father-missing": "open",
        "raven": "open",
        "lamp-origin": "open",
        "sect-trial": "open",
    }
    assert set(threads[0]) >= {
        "id",
        "kind",
        "content",
        "status",
        "planted_chapter",
        "due_chapter",
        "resolved_chapter",
        "urgency",
        "overdue",
    }
    overdue = ok(*project, "threads", "--status", "overdue", "--as-of", "7")
    assert [(t["id"], t["overdue"]) for t in overdue] == [("raven", True), ("sect-trial", True)]
    rules = ok(*project, "rules", "--domain", "法宝")
    assert [r["id"] for r in rules] == ["lamp-midnight"]
    assert ok(*project, "rules", "--as-of", "1")[0]["id"] == "spirit-vein"
    timeline = ok(*project, "timeline", "--from", "2", "--entity", "周伯")
    assert [e["event"] for e in timeline] == ["周伯把青灯交给林砚"]
    assert ok(*project, "conflicts") == []


def test_rebuild_and_stats(cli_book: Path) -> None:
    project = ("--project", str(cli_book))
    before = ok(*project, "history", "林砚")
    summary = ok(*project, "rebuild")
    assert summary["chapters"] == 3
    assert ok(*project, "history", "林砚") == before
    stats = ok(*project, "stats")
    assert stats["latest_chapter"] == 3 and stats["counts"]["commits"] == 3
    assert stats["schema"] == [name for name, _ in MIGRATIONS]


def test_demo_builds_the_sample_book(tmp_path: Path) -> None:
    proc = run("demo", str(tmp_path / "demo"), "--format", "text")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "《青灯照剑》：已提交 12 章" in out
    assert "境界：金丹" in out
    assert "[未回收·逾期]  raven" in out
    again = run("demo", str(tmp_path / "demo"))
    assert again.returncode == 0, again.stderr
    draft = tmp_path / "demo" / "drafts" / "013-draft-with-mistakes.json"
    review = ok("--project", str(tmp_path / "demo"), "review", str(draft))
    assert {i["category"] for i in review["issues"] if i["blocking"]} == {
        "dead_entity_active",
        "regression",
        "old_value_mismatch",
        "relation_end_missing",
        "thread_closed",
    }


def test_demo_refuses_a_real_book(cli_book: Path) -> None:
    proc = run("demo", str(cli_book))
    assert proc.returncode == 1 and "不是 demo 建的" in proc.stderr


def test_pack_and_resume(tmp_path: Path) -> None:
    book = tmp_path / "demo"
    assert run("demo", str(book)).returncode == 0
    prompt = run("--project", str(book), "pack", "--chapter", "13", "--format", "prompt")
    assert prompt.returncode == 0, prompt.stderr
    assert prompt.stdout.startswith("# 记忆包：第13章（写作）")
    assert "本章大纲：第十三章 断刀（大纲） 夜里" in prompt.stdout  # from outlines/013.md, one line
    pack = ok(
        "--project",
        str(book),
        "pack",
        "--chapter",
        "13",
        "--budget",
        "900",
        "--query",
        "韩啸现在在哪里",
        "--task",
        "continuity_query",
    )
    assert pack["used_tokens"] <= pack["budget_tokens"] == 900
    brief = ok("--project", str(book), "resume")
    assert brief["latest_chapter"] == 12
    assert [t["id"] for t in brief["overdue_threads"]] == ["raven"]
    assert {e["name"] for e in brief["next_chapter"]["named_entities"]} >= {"林砚", "韩啸"}
    wrong = run("--project", str(book), "fact", "林砚", "realm", "--format", "prompt")
    assert wrong.returncode == 2


def test_review_check_and_resolve(cli_book: Path) -> None:
    project = ("--project", str(cli_book))
    draft = json.dumps(
        {
            "chapter": 4,
            "entities_appeared": [{"id": "无名客"}],
            "state_changes": [
                {"entity_id": "林砚", "field": "location", "old": "青石镇", "new": "玄霄门"}
            ],
        }
    )
    report = ok(*project, "review", "-", stdin=draft)
    assert {(i["category"], i["severity"], i["blocking"]) for i in report["issues"]} >= {
        ("unknown_entity", "high", True),
        ("old_value_mismatch", "high", True),
    }
    assert set(report["issues"][0]) >= {
        "severity",
        "category",
        "message",
        "entity_id",
        "field",
        "expected",
        "found",
        "evidence",
        "fix_hint",
        "blocking",
    }
    refused = run(*project, "commit", "-", "--check", stdin=draft)
    assert refused.returncode == 1 and "第4章未写入" in refused.stderr
    assert ok(*project, "stats")["latest_chapter"] == 3
    forced = ok(*project, "commit", "-", "--check", "--force", stdin=draft)
    conflict = next(c for c in forced["conflicts"] if c["kind"] == "old_value_mismatch")
    settled = ok(
        *project, "conflicts", "resolve", conflict["id"], "--intentional", "--note", "作者有意"
    )
    assert (settled["status"], settled["note"]) == ("accepted", "作者有意")
    assert conflict["id"] not in {c["id"] for c in ok(*project, "conflicts")}
    # text output names kinds and statuses as an author reads them
    listed = run(*project, "conflicts", "--all", "--format", "text").stdout
    assert "旧值不符（有意为之）" in listed and "old_value_mismatch" not in listed
    again = run(
        *project, "conflicts", "resolve", conflict["id"], "--intentional", "--format", "text"
    ).stdout
    assert again.strip() == f"矛盾 {conflict['id']} 已标为「有意为之」"
    missing = run(*project, "conflicts", "resolve", "c-000")
    assert missing.returncode == 1 and "未知冲突" in missing.stderr


def test_commit_many_files_in_one_run(tmp_path: Path) -> None:
    root = tmp_path / "bulk"
    ok("init", str(root), "--title", "青灯照剑")
    files = [str(SAMPLE / "results" / f"{n:03d}.json") for n in (1, 2, 3)]
    reports = ok("--project", str(root), "commit", *files, "--text-dir", str(SAMPLE / "chapters"))
    assert [(r["chapter"], r["status"]) for r in reports] == [
        (1, "committed"),
        (2, "committed"),
        (3, "committed"),
    ]
    hits = ok("--project", str(root), "search", "铁匠铺", "--top-k", "5")
    assert any(hit["kind"] == "scene_slice" for hit in hits)  # the texts were read
    bad = tmp_path / "004.json"
    bad.write_text(
        json.dumps({"chapter": 4, "state_changes": [{"field": "realm"}]}), encoding="utf-8"
    )
    proc = run("--project", str(root), "commit", str(SAMPLE / "results" / "005.json"), str(bad))
    assert proc.returncode == 2 and f"{bad}无效" in proc.stderr
    assert f"已提交 1 个文件（第5章），从 {bad} 起未提交" in proc.stderr  # what it did, said
    assert ok("--project", str(root), "stats")["latest_chapter"] == 5  # 005 stays committed
    misuse = run("--project", str(root), "commit", *files, "--text", "x.md")
    assert misuse.returncode == 2 and "--text-dir" in misuse.stderr


def test_entities(cli_book: Path) -> None:
    cast = ok("--project", str(cli_book), "entities", "--as-of", "2")
    assert [e["id"] for e in cast] == ["hanxiao", "linyan", "linyuanshan", "xuanxiao", "zhoubo"]
    assert next(e for e in cast if e["id"] == "linyan")["is_protagonist"] is True
    factions = ok("--project", str(cli_book), "entities", "--type", "势力")
    assert [e["name"] for e in factions] == ["玄霄门"]


def test_a_result_saved_with_a_byte_order_mark_is_read(cli_book: Path, tmp_path: Path) -> None:
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + json.dumps({"chapter": 9}).encode("utf-8"))
    assert ok("--project", str(cli_book), "commit", str(bom))["status"] == "committed"


def test_every_answer_reads_as_text(tmp_path: Path) -> None:
    """Each query's text rendering, on the demo book: it runs, speaks Chinese, and aligns."""
    book = tmp_path / "demo"
    assert run("demo", str(book)).returncode == 0
    project = ("--project", str(book))
    draft = str(book / "drafts" / "013-draft-with-mistakes.json")
    queries = {
        ("entities",): "林砚",
        ("fact", "林砚", "realm"): "金丹",
        ("history", "林砚", "realm"): "炼气",
        ("relations", "林砚"): "苏晚晴",
        ("threads", "--status", "all"): "已回收",
        ("rules",): "青灯",
        ("timeline", "--entity", "林砚"): "第1章",
        ("knows", "林砚"): "林远山",
        ("secrets",): "林远山",
        ("conflicts",): "无未决矛盾",
        ("search", "青灯的来历"): "第",
        ("pack", "--chapter", "13"): "人物当前状态",
        ("resume",): "林砚",
        ("stats",): "index.db",
        ("review", draft): "致命",
        ("prefill", "3"): "entities_appeared",
    }
    for args, expected in queries.items():
        proc = run(*project, *args, "--format", "text")
        assert proc.returncode == 0, (args, proc.stderr)
        assert expected in proc.stdout, (args, proc.stdout[:300])
        assert "Traceback" not in proc.stdout + proc.stderr
    committed = run(*project, "commit", draft, "--format", "text")
    assert "矛盾：" in committed.stdout
    listed = run(*project, "conflicts", "--format", "text").stdout.splitlines()
    assert len(listed) == 5 and all(line.startswith("c-") for line in listed)
    retracted = run(*project, "retract", "13", "--yes", "--format", "text")
    assert retracted.returncode == 0 and "第13章" in retracted.stdout


def test_version_is_the_installed_one() -> None:
    from importlib import metadata

    proc = run("--version")
    assert proc.returncode == 0
    assert proc.stdout == f"webnovel-memory {metadata.version('webnovel-memory')}\n"


def _helps(parser: Any) -> list[tuple[str, str]]:
    """(where, help text) for the parser, its options and every subcommand's, recursively."""
    found = [(parser.prog, parser.description or "")]
    for action in parser._actions:
        if action.help and action.help != "==SUPPRESS==":
            found.append(
                (f"{parser.prog} {'/'.join(action.option_strings) or action.dest}", action.help)
            )
        choices = getattr(action, "choices", None)
        if isinstance(choices, dict):  # the subcommands
            for child in choices.values():
                found += _helps(child)
    return found


def test_every_help_text_is_a_key_said_in_both_languages(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each description and option help is the catalogue's sentence of one key, Chinese by
    default and English with WEBNOVEL_LANG=en: built in both, the two parsers say a key's two."""
    from webnovel.cli.main import build_parser
    from webnovel.messages import MESSAGES

    monkeypatch.delenv("WEBNOVEL_LANG", raising=False)
    chinese = _helps(build_parser())
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    english = _helps(build_parser())
    assert [where for where, _ in chinese] == [where for where, _ in english]
    pairs = set(MESSAGES.values())
    not_keys = [
        (where, zh, en)
        for (where, zh), (_, en) in zip(chinese, english, strict=True)
        if (zh, en) not in pairs or not any("\u4e00" <= ch <= "\u9fff" for ch in zh)
    ]
    assert not_keys == []  # say it from a key of messages/help.py (or queryhelp.py)


def test_english_on_request(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from webnovel.cli.main import main

    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    with pytest.raises(SystemExit) as usage:
        main(["fact"])
    assert usage.value.code == 2
    assert "the following arguments are required: subject" in capsys.readouterr().err
    monkeypatch.setenv("WEBNOVEL_LANG", "zh")
    with pytest.raises(SystemExit):
        main(["fact"])
    assert "缺少必填参数：subject" in capsys.readouterr().err


def test_fields_lists_the_books_fields(cli_book: Path) -> None:
    fields = {f["field"]: f for f in ok("--project", str(cli_book), "fields")}
    assert fields["realm"]["label"] == "境界" and fields["realm"]["entities"] >= 1
    assert "等级" in fields["realm"]["synonyms"]
    text = run("--project", str(cli_book), "fields", "--format", "text").stdout
    assert text.splitlines()[0].split() == ["字段", "键", "实体数", "也接受"]


def test_mistakes_at_the_command_line_are_said_in_chinese(tmp_path: Path) -> None:
    book = tmp_path / "book"
    assert (
        "已创建《青灯照剑》"
        in run("init", str(book), "--title", "青灯照剑", "--format", "text").stdout
    )
    project = ("--project", str(book))
    missing = run(*project, "commit", str(tmp_path / "nofile.json"))
    assert missing.returncode == 2 and "nofile.json：文件不存在" in missing.stderr
    folder = run(*project, "commit", str(tmp_path))
    assert folder.returncode == 2 and "是文件夹，不是文件" in folder.stderr
    not_json = run(*project, "commit", "-", stdin="not json")
    assert not_json.returncode == 2 and "标准输入不是有效的 JSON（第 1 行第 1 列" in not_json.stderr
    port = run(*project, "dashboard", "--port", "99999")
    assert port.returncode == 2 and "端口应为 0 到 65535 之间的整数" in port.stderr
    assert "Traceback" not in port.stderr
    prompt = run(*project, "fact", "林砚", "境界", "--format", "prompt")
    assert prompt.returncode == 2 and "webnovel fact" in prompt.stderr  # the command's own usage
    unknown = run(*project, "frobnicate", "--format", "text")
    assert unknown.returncode == 2 and "--format 写在命令之后" not in unknown.stderr


def test_a_mistyped_field_is_answered_with_the_field_meant(cli_book: Path) -> None:
    asked = run("--project", str(cli_book), "fact", "林砚", "relam", "--format", "text")
    assert asked.returncode == 0
    assert asked.stdout.splitlines()[:2] == ["林砚的relam：（无记录）", "  是否指「境界」？"]
    known = run("--project", str(cli_book), "fact", "林砚", "兵器", "--format", "text").stdout
    assert "是否指" not in known  # a real field with no record yet is just that


def test_a_name_hint_speaks_the_language_asked_for(
    cli_book: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = ("--project", str(cli_book))
    chinese = run(*project, "fact", "林岩", "境界")
    assert chinese.returncode == 1 and "是否指「林砚」？" in chinese.stderr
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    english = run(*project, "fact", "林岩", "realm")
    assert "; did you mean 林砚?" in english.stderr and "是否指" not in english.stderr
