"""What is said of extraction (`webnovel extract`): a model's server misbehaving, an answer
that would rewrite the cast, two runs on one book. Part of the one catalogue
(`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "model_answer_too_large": (
        "模型服务的回答超过 {limit} 字节，已中止读取",
        "the model service's answer is larger than {limit} bytes; reading it was stopped",
    ),
    "model_answer_too_deep": (
        "模型服务的回答嵌套超过 {depth} 层，不予解析",
        "the model service's answer is nested more than {depth} levels deep; it was not parsed",
    ),
    "model_total_timed_out": (
        "{seconds:g} 秒内没有收完回答（超时）",
        "the answer was not complete within {seconds:g} s",
    ),
}
