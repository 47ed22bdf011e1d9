"""The chapter page: one chapter as memory holds it (`Project.chapter`), with the words its
template needs for actions."""

from __future__ import annotations

from typing import Any

from ..book.project import Project
from ..memory.words import ENDING, SECRET_ACTION, THREAD_ACTION


def chapter(book: Project, number: int) -> dict[str, Any]:
    report = book.chapter(number)
    ending = "，".join(f"{ENDING.get(k, k)}：{v}" for k, v in report.ending.items() if v)
    return {
        "c": report,
        "ending": ending,
        "thread_action": THREAD_ACTION,
        "secret_action": SECRET_ACTION,
    }
