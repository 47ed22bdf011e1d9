"""The chapter page: one chapter as memory holds it (`Project.chapter`), with the words its
template needs for actions."""

from __future__ import annotations

from ..book.project import Project
from ..book.words import ENDING, SECRET_ACTION, THREAD_ACTION
from ..messages import say
from .view_models import ChapterPage


def chapter(book: Project, number: int) -> ChapterPage:
    report = book.chapter(number)
    colon = say("page_colon")
    ending = say("page_clause_separator").join(
        f"{ENDING.get(k, k)}{colon}{v}" for k, v in report.ending.items() if v
    )
    return ChapterPage(
        c=report, ending=ending, thread_action=THREAD_ACTION, secret_action=SECRET_ACTION
    )
