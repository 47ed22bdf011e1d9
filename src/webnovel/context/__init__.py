"""The consumption layer: the seed's ContextManager, reduced to rendering memory packs."""

from .context_manager import TEMPLATES, ContextManager

__all__ = ["TEMPLATES", "ContextManager"]
