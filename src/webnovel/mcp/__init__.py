"""The MCP adapter: the book served to agents over stdio."""

from .server import create_server

__all__ = ["create_server"]
