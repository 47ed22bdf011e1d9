"""Long work says how far it got on stderr, in the reader's language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import webnovel.cli
from webnovel.cli.progress import ProgressBar

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
        bar.enabled = True
        bar.update(2, 4)
    err = capsys.readouterr().err
    assert err.startswith("\r复制 [##..] 2/4，") and err.endswith(" 秒\n")
    monkeypatch.setenv("WEBNOVEL_LANG", "en")
    with ProgressBar("copy", width=4) as bar:
        bar.enabled = True
        bar.update(4, 4)
    err = capsys.readouterr().err
    assert err.startswith("\rcopy [####] 4/4 ") and err.endswith("s\n")


@pytest.mark.parametrize("work", WORKS)
def test_every_long_work_of_the_cli_has_a_chinese_name(
    work: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WEBNOVEL_LANG", raising=False)
    assert len(WORKS) >= 9
    assert not ProgressBar(work).work.isascii()
