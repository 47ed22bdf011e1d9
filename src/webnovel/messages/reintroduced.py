"""What is said about a known name introduced again under a new id (`name_reintroduced`); how
to repair a name that has come to mean two entities is a next step (messages/mcphint.py). Part
of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "conflict_name_reintroduced": (
        "第{chapter}章在 entities_new 中新立的「{name}」（id「{entity}」）与已登场的 {target}"
        "（id「{holder}」）同名：若是同一人，请在 entities_appeared / state_changes 中用 id"
        "「{holder}」，不要另立新 id",
        "chapter {chapter} introduces 「{name}」 (id '{entity}') in entities_new, but {target} "
        "(id '{holder}') is already in the book under this name: if they are one person, use "
        "the id '{holder}' in entities_appeared / state_changes instead of a new id",
    ),
    "hint_name_reintroduced": (
        "若是已登场的人物，把它写进 entities_appeared / state_changes，用原来的 id；若确是同名的"
        "另一人，给新人一个能区分的名字（把同名放进 aliases 也会被拦下：这个名字从此指代不明；"
        "作者确要两人共用时才强制提交，之后写入一律用 id）",
        "if this is someone already in the book, put them in entities_appeared / state_changes "
        "under their id; if it really is another person of the same name, give the newcomer a "
        "name that tells them apart (the shared name in aliases is stopped too: it would mean "
        "either of them from then on; force the commit only when the author wants them to share "
        "it, and write ids from then on)",
    ),
    # `fact SUBJECT` with no field, for anyone but an item: every field that holds
    "fact_every_heading": ("{name}{when}：", "{name}{when}:"),
    "fact_every_as_of": ("（第{chapter}章时）", " as of chapter {chapter}"),
    "fact_every_row": ("{field}：{value}{aged}（{when}）", "{field}: {value}{aged} ({when})"),
    "fact_every_none": ("{name}：还没有记录任何字段", "{name}: no field on record yet"),
    "fact_every_more": (
        "查一项：webnovel fact {subject} 字段；看来历：webnovel history {subject}",
        "one field: webnovel fact {subject} FIELD; how each came to be: webnovel history {subject}",
    ),
}
