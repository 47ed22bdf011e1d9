"""What an impact says, over the sample book with chapters 1–10 published: its headline counts
every answer that changes (chapter 5's realm, which chapter 11 sets again, changes chapters 5–10
but not the latest answer), the refusal says the same; a retraction's secrets read by what
they say and who knows them in words, in both languages; `impact --retract N` names the
chapter as `retract N` does."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import webnovel
from webnovel.cli.revise_commands import impact_text
from webnovel.errors import PublishedChapterRevised

from cli_runner import run_cli
from dashboard_server import build_sample_book

LINE = 10
SECRET_IDS = ("lichen-identity", "father-alive")


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_sample_book(
        tmp_path_factory.mktemp("impact-words") / "book", published_through=LINE
    )


def realm_golden_in_5(book: webnovel.Project) -> dict[str, object]:
    stored = book.stored_commit(5)
    assert stored is not None
    result = copy.deepcopy(stored["result"])
    realm = [c for c in result["state_changes"] if c.get("field") == "realm"]
    assert realm, "chapter 5 of the sample book sets 林砚's realm"
    for change in realm:
        change["new"] = "金丹"
    return result


def test_the_headline_counts_an_answer_that_changes_before_the_latest_chapter(root: Path) -> None:
    with webnovel.open_project(root) as book:
        revised = realm_golden_in_5(book)
        found = book.impact(revised)
        assert found.changed == []  # as of chapter 13 the realm is what chapter 13 says
        assert [(r.chapter, r.field, r.after) for r in found.records] == [(5, "realm", "金丹")]
        assert found.answers_changed == 1 and found.to_dict()["answers_changed"] == 1
        assert "改变 1 个答案，新增 1 处矛盾" in impact_text(found)
        with pytest.raises(PublishedChapterRevised) as refused:
            book.commit(revised)
    assert "这样做会改变 1 个答案，新增 1 处矛盾" in str(refused.value)


@pytest.mark.parametrize(
    ("lang", "knows", "secret"),
    [
        ("zh", "白眉老道对秘密「血衣堂主就是玄霄门叛徒厉沉", "：知道 → （无）"),
        ("en", "白眉老道 on the secret “血衣堂主就是玄霄门叛徒厉沉", "”: knows → (none)"),
    ],
)
def test_a_retraction_names_secrets_by_what_they_say(
    root: Path, monkeypatch: pytest.MonkeyPatch, lang: str, knows: str, secret: str
) -> None:
    monkeypatch.setenv("WEBNOVEL_LANG", lang)
    ran = run_cli("--project", str(root), "impact", "--retract", "9", "--format", "text")
    assert ran.returncode == 0, ran.stderr
    lines = ran.stdout.splitlines()
    assert any(knows in line and line.endswith(secret) for line in lines), ran.stdout
    planted = "已埋设 → （无）" if lang == "zh" else "planted → (none)"
    assert any("血衣堂主就是玄霄门叛徒厉沉" in line and planted in line for line in lines)
    changes = [line for line in lines if line.lstrip().startswith("·")]
    assert not [line for line in changes if any(s in line for s in SECRET_IDS)], ran.stdout


def test_retract_takes_the_chapter(root: Path) -> None:
    named = run_cli("--project", str(root), "impact", "--retract", "12", "--format", "json")
    assert named.returncode == 0, named.stderr
    old = run_cli("--project", str(root), "impact", "--retract", "--chapter", "12")
    assert json.loads(named.stdout) == json.loads(old.stdout)
    assert json.loads(named.stdout)["chapter"] == 12
    both = run_cli("--project", str(root), "impact", "--retract", "12", "--chapter", "9")
    assert both.returncode == 2 and "--retract 12" in both.stderr and "--chapter 9" in both.stderr
    word = run_cli("--project", str(root), "impact", "--retract", "x.json")
    assert word.returncode == 2 and "x.json" in word.stderr and "--retract 12" in word.stderr


def test_result_writes_out_a_committed_chapter_s_result_to_edit(root: Path, tmp_path: Path) -> None:
    ran = run_cli("--project", str(root), "result", "5")
    assert ran.returncode == 0, ran.stderr
    with webnovel.open_project(root) as book:
        stored = book.stored_commit(5)
        assert stored is not None and json.loads(ran.stdout) == stored["result"]
        revised = realm_golden_in_5(book)
    edited = json.loads(ran.stdout)
    for change in edited["state_changes"]:
        if change.get("field") == "realm":
            change["new"] = "金丹"
    assert edited == revised  # the file, edited by hand, is the revision
    path = tmp_path / "ch0005-v2.json"
    path.write_text(json.dumps(edited, ensure_ascii=False), encoding="utf-8")
    found = run_cli("--project", str(root), "impact", str(path), "--format", "json")
    assert json.loads(found.stdout)["answers_changed"] == 1
    missing = run_cli("--project", str(root), "result", "99")
    assert missing.returncode == 1 and "第99章尚未提交" in missing.stderr
