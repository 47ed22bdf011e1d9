"""What the extraction request says of the cast the author settled (`extraction/context.py`).
Chinese by default, for the Chinese chapters it is read beside. Part of the one catalogue
(`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "settled_cast_head": (
        "本章作者已确认的实体（已登记：引用时用 id，不要再写进 entities_new）：",
        "entities the author confirmed for this chapter (registered: refer to them by id, do "
        "not write them into entities_new again):",
    ),
    "settled_cast_line": ("- {id}：{name}（{kind}{more}）", "- {id}: {name} ({kind}{more})"),
    "settled_cast_aliases": ("；别名 {aliases}", "; also called {aliases}"),
    "settled_cast_rejected": (
        "作者已否决的名字（不是实体，不要登记）：{names}",
        "names the author rejected (not entities, do not register them): {names}",
    ),
}
