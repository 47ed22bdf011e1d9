"""What an entity did in a chapter, as a conflict names it («死于第3章的林砚在本章出场、参与事件»):
`activity_<kind>` for each kind a chapter records (listed by `vocab_and`). Part of the one
catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "activity_appeared": ("出场", "appears"),
    "activity_mentioned": ("被提及", "is mentioned"),
    "activity_introduced": ("登场", "is introduced"),
    "activity_state_change": ("状态变化", "changes state"),
    "activity_scene": ("出现在场景中", "is in a scene"),
    "activity_event": ("参与事件", "takes part in an event"),
    "activity_relation": ("建立关系", "forms a relation"),
    "activity_relation_target": ("成为关系的对象", "is the object of a relation"),
    "activity_knowledge": ("得知或告知秘密", "learns or tells a secret"),
    "activity_thread_related": ("关联线索", "is tied to a thread"),
    "activity_recalled": ("出现在回忆或梦境中", "appears in a memory or a dream"),
}
