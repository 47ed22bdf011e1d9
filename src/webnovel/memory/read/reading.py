"""What the facade reads of memory as of a chapter, bound to the book's store like the store's
own parts (`memory/store/parts.py`): `reading.fact(entity, "realm", 12)`, no connection held."""

from __future__ import annotations

from ..store.parts import Part, bound
from ..write.name_suggestions import did_you_mean
from . import graph_memory
from .chapter_report import chapter_report


class Reading(Part):
    resolve_entity = bound(graph_memory.resolve_entity)
    fact = bound(graph_memory.fact)
    facts_of = bound(graph_memory.facts_of)
    facts_of_many = bound(graph_memory.facts_of_many)
    history = bound(graph_memory.history)
    relations = bound(graph_memory.relations)
    relation_graph = bound(graph_memory.relation_graph)
    names_as_of = bound(graph_memory.names_as_of)
    best_connected = bound(graph_memory.best_connected)
    appearances = bound(graph_memory.appearances)
    thread_history = bound(graph_memory.thread_history)
    threads = bound(graph_memory.threads)
    thread_at = staticmethod(graph_memory.thread_at)  # a version seen from a chapter: no read
    rules = bound(graph_memory.rules)
    timeline = bound(graph_memory.timeline)
    secrets = bound(graph_memory.secrets)
    knows = bound(graph_memory.knows)
    chapter = bound(chapter_report)
    did_you_mean = bound(did_you_mean)  # the sentence an unknown name's error ends with
