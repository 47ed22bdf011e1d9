"""What forgiving intake says when it rewrites or refuses a chapter result's keys and values
(`memory/write/intake.py`). Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "quoted": ("「{text}」", "'{text}'"),
    "intake_unknown_key_meant": (
        "{path}: 未知字段{key}，是否指「{meant}」？",
        "{path}: unknown key {key}; did you mean '{meant}'?",
    ),
    "intake_unknown_key": (
        "{path}: 未知字段{key}（可用：{known}）",
        "{path}: unknown key {key} (known: {known})",
    ),
    "intake_key_as": ("{written}（即 {key}）", "{written} (that is, {key})"),
    "intake_key_twice": (
        "{path}: {written}与「{key}」重复且取值不同，只能留一个",
        "{path}: {written} repeats '{key}' with another value; only one can stay",
    ),
    "intake_unknown_term": (
        "{path}: 无法识别的{what}{value}（可用：{known}）",
        "{path}: {value} is not a known {what} (known: {known})",
    ),
    "intake_unknown_field_meant": (
        "{path}: 未知字段{field}，是否指「{meant}」（{label}）？",
        "{path}: unknown field {field}; did you mean '{meant}' ({label})?",
    ),
    "intake_add_changes": ("{count} 条 add 变化", "{count} add changes"),
    "intake_many_values": (
        "{path}: 给了多个值 {values}；集合字段请写 op: add 或 remove 逐项记录",
        "{path}: several values given, {values}; for a set field write op: add or remove, "
        "one change per value",
    ),
    "intake_set_many_values": (
        "{path}: op 为 set 时只能有一个值，得到 {values}",
        "{path}: op set takes one value, got {values}",
    ),
    "intake_one_change_many": ("一条多值的变化", "one change with several values"),
    "intake_changes": ("{count} 条变化", "{count} changes"),
    "intake_one_relation_many": ("一条多人的关系", "one relation between several people"),
    "intake_relations": ("{count} 条关系", "{count} relations"),
}
