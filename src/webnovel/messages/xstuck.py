"""Sentences of extraction's failures and long runs: a stuck chapter, an answer that is not a
result, the run's summary lines."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    # -- why a model's answer is not a chapter result (said to the author and, in a repair turn,
    # to the model)
    "answer_is_empty": ("$：回答是空的", "$: the answer is empty"),
    "answer_no_object": (
        "$：回答里没有 JSON 对象（应以 {{ 开始、以 }} 结束）",
        "$: the answer holds no JSON object (one that starts with {{ and ends with }})",
    ),
    "answer_not_json": (
        "$：回答不是有效的 JSON（{why}）",
        "$: the answer is not valid JSON ({why})",
    ),
    "answer_not_number": (
        "{name} 不是 JSON 允许的数",
        "{name} is not a number JSON allows",
    ),
    "answer_excerpt": (
        "模型最后的回答（前 {limit} 字）：{excerpt}",
        "the model's last answer (first {limit} characters): {excerpt}",
    ),
    "answer_excerpt_empty": ("模型最后的回答是空的", "the model's last answer was empty"),
    "problem_and_excerpt": ("{problem}。{excerpt}", "{problem}. {excerpt}"),
    "extract_run_stopped": (
        "运行已停止（前面的章节失败）",
        "the run stopped (a chapter before it failed)",
    ),
    # -- a long run's report
    "extract_known_again": (
        "模型把已知的{name}（{id}）另记为 {written}：记为出场（本次运行只提一次）",
        "the model registered the known {name} ({id}) again as {written}: recorded as appearing "
        "(said once a run)",
    ),
    "extract_known_alias": (
        "模型把已知的{name}（{id}）另记为 {written}：记为出场，新的名字「{aliases}」记为别名",
        "the model registered the known {name} ({id}) again as {written}: recorded as appearing, "
        "its new names ({aliases}) as aliases",
    ),
    "extract_replaced_line": (
        "本次提取取代了 {count} 章原有的版本（{chapters}），旧版本仍在提交日志中",
        "this run replaced the earlier version of {count} chapter(s) ({chapters}); the old ones "
        "stay in the commit log",
    ),
    "extract_needs_endpoint": (
        "第{chapter}章的回答不在本书已存的回答里，要问模型才能提取：{why}",
        "chapter {chapter}'s answer is not among the book's kept answers; a model must be asked: "
        "{why}",
    ),
}
