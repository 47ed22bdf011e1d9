"""The chapter page: one chapter as memory holds it (`Project.chapter`), with the words its
template needs for actions."""

from __future__ import annotations

from ..book.project import Project
from ..book.words import SECRET_ACTION, THREAD_ACTION, ending_words
from .view_models import ChapterPage


def chapter(book: Project, number: int) -> ChapterPage:
    report = book.chapter(number)
    ending = ending_words(report.ending)
    return ChapterPage(
        c=report, ending=ending, thread_action=THREAD_ACTION, secret_action=SECRET_ACTION
    )
