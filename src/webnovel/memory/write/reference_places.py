"""Where a chapter result names an entity: the keys holding one reference, and the lists
holding several. Read by whatever rewrites references in a result (an author's merge, a
model's answer settled against memory)."""

from __future__ import annotations

REFERENCE_KEYS = (
    ("entities_appeared", "id"),
    ("state_changes", "entity_id"),
    ("relationships_new", "from"),
    ("relationships_new", "to"),
    ("knowledge_changes", "entity_id"),
    ("knowledge_changes", "from"),
)
REFERENCE_LISTS = (
    ("timeline_events", "participants"),
    ("scenes", "characters"),
    ("plot_threads", "related"),
    ("secrets", "known_by"),
)
