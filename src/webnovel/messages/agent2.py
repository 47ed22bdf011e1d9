"""Agent-facing leftovers of trial 4 §7: why `extract` read nothing, an entity type outside the
vocabulary, the MCP message cap."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "agent2_chapters_between": (
        "第{a}–{b}章之间的 {count} 章",
        "{count} chapters between {a} and {b}",
    ),
    "agent2_skipped_has_result": (
        "{chapters}已有自己的结果（智能体、作者或先前提取写的，不是导入的最小结果），"
        "未交模型重读；要模型重读并取代它，请加 force",
        "{chapters} already has a result of its own (an agent's, the author's or an earlier "
        "extraction's, not an import's minimal one) and was not read again; add force to have "
        "the model read it and replace that result",
    ),
    "agent2_skipped_no_text": (
        "{chapters}没有存下正文，模型无从读起：先连同正文提交（text）",
        "{chapters} has no stored text for a model to read: commit it with its text first",
    ),
    "agent2_skipped_not_stored": (
        "{chapters}尚未提交，没有可读的正文",
        "{chapters} was never committed: there is no text to read",
    ),
    "agent2_skipped_no_endpoint": (
        "；另外，加 force 也须先配置模型：{reason}",
        "; forcing it also needs a model configured: {reason}",
    ),
    "agent2_own_term": (
        "{path}: {value}不是已知的{what}（已知：{known}），按新{what}记下；如是笔误请改用已知的",
        "{path}: {value} is not a known {what} (known: {known}); kept as a new one: if it is a "
        "slip, use a known one",
    ),
}
