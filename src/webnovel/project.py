"""Moved to `webnovel.book`: kept so that code written against `webnovel.project` still imports."""

from .book import Project, find_book_root, init_project, open_project, plan_upstream_import

__all__ = ["Project", "find_book_root", "init_project", "open_project", "plan_upstream_import"]
