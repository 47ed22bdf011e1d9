"""Dashboard speed: server time of every page and API answer, as of random chapters, measured by
calling the app the way uvicorn does (one ASGI request at a time, no network in between).

Run by `run.py` on its saga book; the target is a p95 of 200 ms for every page at 10,000
chapters. Needs the [dashboard] extra; without it the measure is skipped.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any
from urllib.parse import quote

import webnovel


def _call(app: Any, path: str) -> tuple[int, int]:
    """One GET through the ASGI app: (status, body bytes)."""
    route, _, query = path.partition("?")
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": route,
        "raw_path": route.encode(),
        "query_string": query.encode(),
        "headers": [(b"host", b"127.0.0.1")],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8765),
    }
    status = 0
    size = 0

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status, size
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            size += len(message.get("body", b""))

    asyncio.run(app(scope, receive, send))
    return status, size


def pages_for(book: webnovel.Project, rng: random.Random, as_of: int) -> dict[str, str]:
    """One URL per page kind, as of `as_of`, on entities and threads that exist then."""
    cast = book.entities(as_of, "角色")
    person = rng.choice(cast).id if cast else ""
    threads = book.threads("all", as_of)
    thread = rng.choice(threads).id if threads else "none"
    words = ["师兄", "秘境", "宗门", "突破", "背叛", "约定"]
    at = f"as_of={as_of}"
    return {
        "overview": f"/?{at}",
        "characters": f"/characters?{at}",
        "character": f"/characters/{quote(person)}?{at}",
        "graph": f"/graph?{at}",
        "graph centred, 2 hops": f"/graph?{at}&center={quote(person)}&hops=2",
        "threads": f"/threads?{at}",
        "thread": f"/threads/{quote(thread)}?{at}",
        "timeline": f"/timeline?{at}",
        "timeline of one": f"/timeline?{at}&entity={quote(person)}",
        "conflicts": f"/conflicts?{at}",
        "search": f"/search?{at}&q={quote(rng.choice(words))}",
        "pack inspector": f"/pack?{at}",
        "passage (API)": f"/api/passage?{at}&chapter={rng.randint(1, as_of)}&quote=",
        "sequence (API)": "/api/seq",
    }


def bench_dashboard(book: webnovel.Project, rng: random.Random, repeat: int) -> dict[str, Any]:
    try:
        from webnovel.dashboard.app import create_app
    except ImportError:
        return {"skipped": "the [dashboard] extra is not installed"}
    app = create_app(book)
    latest = book.latest_chapter() or 1
    for path in pages_for(book, rng, latest).values():  # warm: templates, automaton, index
        _call(app, path)
    times: dict[str, list[float]] = {}
    failures = []
    for round_ in range(repeat):
        as_of = latest if round_ % 4 == 0 else rng.randint(max(1, latest // 10), latest)
        for name, path in pages_for(book, rng, as_of).items():
            started = time.perf_counter()
            status, _ = _call(app, path)
            times.setdefault(name, []).append((time.perf_counter() - started) * 1000)
            if status != 200:
                failures.append(f"{status} {path}")
    per_page = {name: _summary(values) for name, values in times.items()}
    worst = max(per_page, key=lambda n: per_page[n]["p95_ms"])
    return {
        "pages": per_page,
        "worst_page": worst,
        "worst_p95_ms": per_page[worst]["p95_ms"],
        "failures": failures,
    }


def _summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "p50_ms": round(ordered[len(ordered) // 2], 2),
        "p95_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 2),
    }
