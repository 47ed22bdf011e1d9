"""What story time says: the story clock, its calendar, deadlines and ages in story time, and
review's findings about time. Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "config_calendar_unit": (
        "config.toml 的 [calendar] 中「{unit}」应为正整数天数（1 到 {high}），实际是 {got}",
        "config.toml [calendar] {unit} must be a whole number of days (1 to {high}), got {got}",
    ),
    "config_calendar_word": (
        "config.toml 的 [calendar] 的单位名「{unit}」应是不含数字的词",
        "config.toml [calendar]: the unit word {unit!r} must be a word without digits",
    ),
}
