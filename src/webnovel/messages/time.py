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
    # -- what a commit (and review) finds about story time ------------------------------------
    "time_scene": ("第{scene}场", "scene {scene}"),
    "time_ending": ("结尾", "the ending"),
    "time_when": ("第{day}天{part}", "day {day} {part}"),
    "time_unread": (
        "第{chapter}章{where}的时间「{time}」读不出，故事时钟按原日计",
        "chapter {chapter}, {where}: the time {time!r} cannot be read; the story clock stays",
    ),
    "due_time_unread": (
        "线索「{thread}」的期限「{due_time}」读不出天数，不会按故事时间到期",
        "thread {thread!r}: the deadline {due_time!r} cannot be read as days",
    ),
    "time_next_day": ("次日{part}", "the next day's {part}"),
    "time_backwards": (
        "第{chapter}章{where}的时间「{time}」早于上一场（{before}），却没有标为回忆",
        "chapter {chapter}, {where}: {time!r} is earlier than the scene before ({before}), "
        "and is not marked as a flashback",
    ),
    "time_unstated_night": (
        "第{chapter}章{where}写「{time}」，早于上一场的「{before}」，却没交代过了一夜"
        "（按次日计）；应写「{write}」",
        "chapter {chapter}, {where}: {time!r} comes before the previous {before!r} with no "
        "night said (counted as the next day); write {write!r}",
    ),
    "time_two_places": (
        "{who} 在同一时刻既在「{a}」（第{chapter}章第{first}场）又在「{b}」（第{second}场，「{time}」）",
        "{who} is at {a!r} (chapter {chapter}, scene {first}) and at {b!r} (scene {second}, "
        "{time!r}) at the same moment",
    ),
    "time_deadline_passed": (
        "「{content}」（{due_time}）应在第{due}天兑现，本章已到第{day}天，仍未兑现",
        "「{content}」 ({due_time}) was due on day {due}; this chapter reaches day {day} "
        "without paying it off",
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
    "days_span": ("{low}～{high}", "{low} to {high}"),
    "clock_day_part": ("{day}{part}", "{day}, {part}"),
    "clock_part_dawn": ("凌晨", "before dawn"),
    "clock_part_early_morning": ("清晨", "early morning"),
    "clock_part_morning": ("上午", "morning"),
    "clock_part_noon": ("正午", "noon"),
    "clock_part_afternoon": ("午后", "afternoon"),
    "clock_part_dusk": ("黄昏", "dusk"),
    "clock_part_night": ("夜", "night"),
    "clock_part_midnight": ("子时", "midnight"),
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
    "pack_clock": ("{now}；{since}", "{now}; {since}"),
    "pack_age_now": ("{now}（按故事时间；原记{said}）", "{now} (by the story clock; said {said})"),
    "thread_due_time": ("，故事内期限「{due_time}」", ", due in story time {due_time!r}"),
    "fact_value_now": ("（按故事时间，如今{value}）", " (by the story clock, now {value})"),
    "timeline_story_when": ("{when}{mode}·第{chapter}章", "{when} {mode} (chapter {chapter})"),
    "clock_unread_time": ("「{time}」", "{time!r}"),
    "clock_unread": (
        "读不出的时间（不计入时钟）：{times}",
        "times the clock could not read: {times}",
    ),
}
