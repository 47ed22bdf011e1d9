"""The table of queries: each as-of question declared once, from which the CLI's subcommands
and the MCP server's tools are made (see table.py, and docs/design.md "Adding a query")."""

from .declare import Arg, Query, find_query
from .table import QUERIES

__all__ = ["QUERIES", "Arg", "Query", "find_query"]
