"""Why a pack carries the story clock and a deadline in story time (`memory/packs/reasons.py`).
Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "why_story_clock": (
        "上一章结束时的故事时间（放得下就一定保留）",
        "the story clock as the previous chapter ends (kept whenever it fits)",
    ),
    "why_deadline": (
        "按故事时间第{day}天到期，还剩{left}天",
        "due in story time on day {day}, {left} days left",
    ),
    "why_deadline_passed": (
        "按故事时间第{day}天到期，已过期未兑现",
        "due in story time on day {day}, passed without payoff",
    ),
}
