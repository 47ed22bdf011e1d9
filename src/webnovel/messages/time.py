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
    # -- the clock as the author reads it ---------------------------------------------------------
    "clock_day": ("第{day}天", "day {day}"),
    "clock_day_range": ("第{day}～{latest}天", "days {day} to {latest}"),
    "clock_before_start": ("开篇前{days}天", "{days} days before the start"),
    "clock_past_unknown": ("往昔（未说何时）", "the past (no time said)"),
    "clock_now": ("故事时间：{when}", "story time: {when}"),
    "clock_where": ("（第{chapter}章{scene}）", " (chapter {chapter}{scene})"),
    "clock_scene": ("第{scene}场", ", scene {scene}"),
    "clock_ending": ("结尾", ", its ending"),
    "clock_no_scene": (
        "故事时间：尚无场景，从第1天算起",
        "story time: no scene yet; day 1 is the first",
    ),
    "clock_since": (
        "距开篇 {start} 天；距上一章结束 {previous} 天",
        "{start} days since the start; {previous} since the chapter before ended",
    ),
    "clock_since_start": ("距开篇 {start} 天", "{start} days since the start"),
    "clock_deadlines": ("按故事时间到期的线索：", "threads due in story time:"),
    "deadline_left": (
        "距「{content}」还有 {days} 天（第{due}天到期）",
        "{days} days until 「{content}」 (due on day {due})",
    ),
    "deadline_today": (
        "「{content}」今日到期（第{due}天）",
        "「{content}」 is due today (day {due})",
    ),
    "deadline_passed": (
        "「{content}」已过期 {days} 天（第{due}天到期，{due_time}），尚未兑现",
        "「{content}」 is {days} days past due (day {due}, {due_time}) and not paid off",
    ),
    "deadline_unread": (
        "「{content}」的期限「{due_time}」读不出天数",
        "the deadline {due_time!r} of 「{content}」 cannot be read as days",
    ),
    "timeline_story_when": ("{when}{mode}·第{chapter}章", "{when} {mode} (chapter {chapter})"),
    "clock_unread": (
        "读不出的时间（不计入时钟）：{times}",
        "times the clock could not read: {times}",
    ),
}
