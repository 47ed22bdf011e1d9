"""webnovel-memory: long-term temporal memory for serialized web-novel writing with AI agents."""

from .errors import WebnovelError
from .project import Project, init_project, open_project

__all__ = ["Project", "WebnovelError", "init_project", "open_project"]
__version__ = "0.1.0"
