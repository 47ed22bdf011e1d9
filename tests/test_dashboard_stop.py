"""Ctrl-C is how an author stops `webnovel dashboard` (its first line says so): a normal end,
said as one, not 「错误：已中断」 with the exit status of an interrupted command."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

import webnovel

pytest.importorskip("starlette")


def test_ctrl_c_stops_the_dashboard_as_its_first_line_said(tmp_path: Path) -> None:
    with webnovel.init_project(tmp_path / "book", title="测试"):
        pass
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    command = [sys.executable, "-m", "webnovel", "--project", str(tmp_path / "book")]
    served = subprocess.Popen(
        [*command, "dashboard", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert served.stderr is not None
    first = served.stderr.readline()  # said once it listens
    assert "Ctrl+C" in first, first
    url = re.search(r"http://[^\s（]+", first)
    assert url is not None, first
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # no proxy between
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:  # the line comes just before the server runs
        try:
            direct.open(url.group(0), timeout=2).close()
            break
        except OSError:
            time.sleep(0.05)
    served.send_signal(signal.SIGINT)
    out, err = served.communicate(timeout=30)
    assert served.returncode == 0, err
    assert err.strip() == "记忆面板已关闭"
    assert out == ""
