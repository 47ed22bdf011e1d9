"""The scripts .ci/run starts and stops its PostgreSQL clusters with: a cluster stopped cleanly
leaves nothing behind in /tmp (each is ~270 MB once the tests have written to it)."""

from __future__ import annotations

import glob
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(
    not glob.glob("/usr/lib/postgresql/*/bin/initdb"), reason="PostgreSQL is not installed"
)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, check=False, cwd=ROOT)


def test_a_cluster_stopped_cleanly_leaves_no_folder() -> None:
    started = _run(".ci/postgres-start")
    assert started.returncode == 0, started.stderr
    found = re.search(
        r"^postgres-start: cluster in (\S+) on 127\.0\.0\.1:\d+$", started.stderr, re.M
    )
    assert found is not None and started.stdout.startswith("postgresql://postgres@127.0.0.1:")
    data = Path(found[1])
    assert (data / "PG_VERSION").is_file() and (data.parent / "log").is_file()
    stopped = _run(".ci/postgres-stop", str(data))
    assert stopped.returncode == 0 and stopped.stdout == "", stopped.stderr
    assert not data.parent.exists()


def test_a_stop_that_fails_removes_nothing(tmp_path: Path) -> None:
    data = tmp_path / "webnovel-pg.notacluster" / "data"
    data.mkdir(parents=True)
    stopped = _run(".ci/postgres-stop", str(data))
    assert stopped.returncode != 0 and data.is_dir()
