from __future__ import annotations

import fcntl
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


def _cache_bytecode_outside_the_tree() -> None:
    """Where PYTHONDONTWRITEBYTECODE is set, every worker and every `python -m webnovel` the
    tests start would compile the package (and pytest rewrite these tests) from source again:
    about 6 s of CPU a worker and a fifth of a second a process. The bytecode goes to
    .pytest_cache/pycache instead (ignored by git), so the tree stays as clean as the setting
    wants it. Runs before the package is imported; subprocesses inherit the environment."""
    if not sys.dont_write_bytecode:
        return
    prefix = str(Path(__file__).resolve().parents[1] / ".pytest_cache" / "pycache")
    sys.dont_write_bytecode = False
    sys.pycache_prefix = prefix
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = prefix


def _temporary_folders_in_memory() -> None:
    """The tests' books are SQLite files that sync to disk as a book must (at init, at each
    checkpoint, on close): on this machine's disk a new empty book waits 0.15 s for it, a
    rebuild seconds. On a RAM-backed file system (Linux's /dev/shm) a sync returns at once
    and the files act alike otherwise, so the temporary folders (pytest's tmp_path included,
    which asks `tempfile`) go there unless TMPDIR says otherwise. Subprocesses inherit it.
    Not where it is small: a container's /dev/shm is often 64 MB, and a run writes ~1 GB."""
    memory = Path("/dev/shm")
    if os.environ.get("TMPDIR") or not memory.is_dir() or not os.access(memory, os.W_OK):
        return
    if shutil.disk_usage(memory).free < 4 << 30:
        return
    os.environ["TMPDIR"] = str(memory)
    tempfile.tempdir = None  # asked again, it reads TMPDIR


_cache_bytecode_outside_the_tree()
_temporary_folders_in_memory()

import webnovel  # noqa: E402
from own_user import as_a_user_of_our_own  # noqa: E402

from saga import Saga, generate_saga  # noqa: E402
from stores import BACKENDS, NO_POSTGRES, POSTGRES_URL, drop_made_books, init_book  # noqa: E402

pytest_plugins = ("browser",)  # the browser tests' one Chromium and their fixtures


@pytest.fixture
def book(backend: str, tmp_path: Path) -> Iterator[webnovel.Project]:
    project = init_book(backend, tmp_path / "book", title="测试之书")
    yield project
    project.close()


@pytest.fixture(scope="session")
def saga300() -> Saga:
    return generate_saga(300, seed=11)


@pytest.fixture(scope="session")
def saga_book(
    tmp_path_factory: pytest.TempPathFactory, saga300: Saga, worker_id: str
) -> Iterator[webnovel.Project]:
    """A 300-chapter generated saga committed through the API (read-only for tests). Its
    modules may run on different xdist workers: the first to ask commits it into the run's
    shared temporary folder, the others wait for it and copy the folder (3.5 s of CPU each)."""
    if worker_id == "master":  # not under xdist: the run's own folder is this process's
        shared = tmp_path_factory.mktemp("saga-shared")
    else:
        shared = tmp_path_factory.getbasetemp().parent / "saga300"
        shared.mkdir(exist_ok=True)
    with open(shared / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / "committed").exists():
            with webnovel.init_project(shared / "book", title="saga") as project:
                for result in saga300.results:
                    project.commit(result)
            (shared / "committed").touch()
    root = tmp_path_factory.mktemp("saga") / "book"
    shutil.copytree(shared / "book", root)
    project = webnovel.open_project(root)
    yield project
    project.close()


@pytest.fixture(autouse=True)
def a_user_of_our_own(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every test runs as a user with empty config and state folders and no WEBNOVEL_*
    variables, so the developer's own endpoints and keys never take part (nor get used)."""
    as_a_user_of_our_own(tmp_path_factory, monkeypatch)


# -- the store's backends ------------------------------------------------------------------------
# The modules whose tests run on both backends: each test or fixture there that takes `backend`
# (or the `book` fixture) runs once per backend.
BOTH_BACKENDS = {
    "test_as_of_invariant",
    "test_crash_safety",
    "test_write_pipeline",
    "test_retract",
    "test_orchestrator",
    "test_review",
    "test_text_import",
    "test_knowledge",
    "test_temporal_properties",
    "test_pg_store",
    "test_commit_lines",
    "test_impact",
    "test_pack_trust",
    "test_author_decisions",
    "test_item_moves",
    "test_name_reintroduced",
    "test_imported_sources",
    "test_scene_ids",
    "test_reimport_keeps",
    "test_agent_replacing",
}


def pytest_report_header() -> str:
    return f"store backends: sqlite, postgresql ({POSTGRES_URL})" if POSTGRES_URL else NO_POSTGRES


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    module = metafunc.module.__name__.rsplit(".", 1)[-1]
    if "backend" in metafunc.fixturenames and module in BOTH_BACKENDS:
        metafunc.parametrize("backend", BACKENDS, indirect=True, scope="module")


@pytest.fixture(scope="module")
def backend(request: pytest.FixtureRequest) -> str:
    """Which store a test's books live in: "sqlite" unless the module runs on both."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture(scope="module", autouse=True)
def _drop_postgres_books() -> Iterator[None]:
    """A module's PostgreSQL books are dropped when it ends (after its own fixtures, which
    close them): listing a store (`books --store`, `list_books`) reads every book in it, a
    second at a hundred books against a tenth at a few, and a run makes well over a hundred."""
    yield
    if POSTGRES_URL:
        drop_made_books()


# -- the order modules start in under xdist ---------------------------------------------------------
# A module runs whole on one worker (--dist loadscope). Started longest first, the last to start
# are short, so the two workers end together instead of one finishing a long module alone. The
# list is measured (`--durations=0`, summed by module) and only orders: a stale list costs
# balance, never a result. The other modules follow, most tests first (xdist's own order, which
# pyproject turns off with --no-loadscope-reorder so that this one counts).
LONGEST_FIRST = (
    "test_pack_held",  # with the saga's other modules (SAME_WORKER below)
    "test_retract",
    "test_dashboard_browser",
    "test_extract",  # with the MCP modules
    "test_pg_store",
    "test_temporal_properties",
    "test_retrieval_quality",
    "test_review",
    "test_as_of_invariant",
    "test_crash_safety",
    "test_write_pipeline",
    "test_cli",
    "test_dashboard",
    "test_intake",
    "test_dashboard_access",
)


def _module(nodeid: str) -> str:
    return nodeid.split("::", 1)[0].rsplit("/", 1)[-1].removesuffix(".py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    counts: dict[str, int] = {}
    for item in items:
        counts[_module(item.nodeid)] = counts.get(_module(item.nodeid), 0) + 1

    def module_rank(name: str) -> tuple[int, int]:
        if name in LONGEST_FIRST:
            return (0, LONGEST_FIRST.index(name))
        return (1, -counts[name])

    # A group of SAME_WORKER's starts where its first module would, its modules one after
    # another: without xdist too, the browser's modules then share one Chromium (browser.py).
    group_rank: dict[str, tuple[int, int]] = {}
    for name in counts:
        if group := SAME_WORKER.get(name):
            group_rank[group] = min(group_rank.get(group, module_rank(name)), module_rank(name))

    def rank(item: pytest.Item) -> tuple[tuple[int, int], str]:
        name = _module(item.nodeid)
        if group := SAME_WORKER.get(name):
            return (group_rank[group], group)
        return (module_rank(name), "")

    items.sort(key=rank)  # stable: a module's own order stays


# Modules that share what is costly to make run on one worker, as one unit: the 300-chapter
# saga (built once per run; a second worker waited for it, then copied it: 3.5 s of CPU), the
# MCP SDK (2.5 s of CPU to import, paid by each worker whose modules ask for it) and Chromium
# (about 1.3 s to start Playwright and launch it, kept only while its modules run: browser.py).
SAME_WORKER = {
    "test_pack_held": "saga",
    "test_orchestrator": "saga",
    "test_saga": "saga",
    "test_extract": "mcp",
    "test_query_table": "mcp",
    "test_mcp": "mcp",
    "test_mcp_stdio": "mcp",
    "test_mcp_sizes": "mcp",
    "test_published_line": "mcp",
    "test_long_search_serving": "mcp",
    "test_huge_chapter_numbers": "mcp",
    "test_dashboard_browser": "browser",
    "test_dashboard_story_time": "browser",
    "test_graph_browser": "browser",
    "test_rename_browser": "browser",
    "test_revise_browser": "browser",
    "test_revise_keeps_paste": "browser",
    "test_mcp_refused": "mcp",
    "test_agent_replacing": "mcp",
    "test_agent_names": "mcp",
}


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    from xdist.scheduler import LoadScopeScheduling

    class ModulesTogether(LoadScopeScheduling):
        """--dist loadscope, a unit being a module or one of SAME_WORKER's groups."""

        def _split_scope(self, nodeid: str) -> str:
            return SAME_WORKER.get(_module(nodeid)) or super()._split_scope(nodeid)

    return ModulesTogether(config, log)
