"""Running `webnovel ARGS` inside the test process, as a fresh process would see it: its own
standard input, output and error (none of them a terminal), working folder and exit status.

In process, a CLI test takes milliseconds instead of a Python start-up, and coverage sees the
CLI's code. A few tests still run the real console script in a subprocess (see test_cli.py).
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from webnovel.cli.main import main


@dataclass
class Ran:
    returncode: int
    stdout: str
    stderr: str


def run_cli(*args: str, stdin: str | None = None, cwd: Path | None = None) -> Ran:
    out, err = io.StringIO(), io.StringIO()
    given = io.TextIOWrapper(io.BytesIO((stdin or "").encode("utf-8")), encoding="utf-8")
    saved = sys.stdin, sys.stdout, sys.stderr
    folder = os.getcwd()
    sys.stdin, sys.stdout, sys.stderr = given, out, err
    try:
        if cwd is not None:
            os.chdir(cwd)
        code = main(list(args))
    except SystemExit as stop:  # argparse's usage errors and --help
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 2)
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
        os.chdir(folder)
    return Ran(int(code or 0), out.getvalue(), err.getvalue())


def run_process(
    *args: str, stdin: str | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """The real thing: `python -m webnovel ARGS` in a fresh process."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "webnovel", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=60,
    )
