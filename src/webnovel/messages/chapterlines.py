"""The lines of `webnovel chapter N`: a scene, an event, a change, a thread, a secret, a conflict,
each in the reader's punctuation (Chinese full-width, English plain). Part of the one catalogue
(`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "line_at_place": ("＠{place}", " @ {place}"),
    "line_bracketed": ("〔{word}〕", "[{word}] "),
    "line_parenthesized": ("（{text}）", " ({text})"),
    "line_scene": (
        "{index}. {when}{who}{where}：{summary}",
        "{index}. {when}{who}{where}: {summary}",
    ),
    "line_scene_bare": ("{index}. {when}{who}{where}", "{index}. {when}{who}{where}"),
    "line_event": ("- {mode}{event}{where}{who}", "- {mode}{event}{where}{who}"),
    "line_relation_change": ("{subject} → {type}", "{subject} → {type}"),
    "line_field_change": ("{subject} {field}", "{subject}'s {field}"),
    "line_change": ("- {what}：{before} → {after}{why}", "- {what}: {before} → {after}{why}"),
    "line_thread": (
        "- {action}：{content}{progress}（{status}）",
        "- {action}: {content}{progress} ({status})",
    ),
    "line_secret": ("- {who}{action}：{content}{how}", "- {who}{action}: {content}{how}"),
    "line_secret_who": ("{who} ", "{who} "),
    "line_conflict": (
        "- 【{severity}·{kind}】{message}{settled}",
        "- [{severity} · {kind}] {message}{settled}",
    ),
    "line_conflict_settled": ("［{status}］", " [{status}]"),
}
