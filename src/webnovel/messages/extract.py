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
    "extract_cast_rewrite": (
        "{path}：已知实体 {entity_id}（{entity_name}）不能改用「{name}」这个名字，它属于另一个已知实体 "
        "{holder_id}（{holder_name}）。若两者是不同的人，{entity_id} 保持原名，引用时各用各的 id；"
        "若你认为两者是同一人，也不要合并，照常分别引用（合并由作者决定）",
        "{path}: the known entity {entity_id} ({entity_name}) may not take the name 「{name}」, "
        "which belongs to another known entity, {holder_id} ({holder_name}). If they are two "
        "people, keep {entity_id}'s name and reference each by its own id; if you think they "
        "are one, do not merge them either: reference each as before (merging is the author's "
        "decision)",
    ),
    "extract_lock_not_a_file": (
        "{path} 不是普通文件（是链接、管道或设备）：拒绝打开。删除它后重试",
        "{path} is not a regular file (a link, a pipe or a device); it was not opened. "
        "Remove it and try again",
    ),
    "extract_waiting": (
        "另一个 extract（进程 {pid}）正在提取本书，等它结束后再继续；它已提取的章节不会再发送",
        "another extract (process {pid}) is extracting this book; waiting for it to end. "
        "The chapters it extracts will not be sent again",
    ),
    "reveal_takes_name": (
        "第{chapter}章揭示 {who}（{entity_id}）名为「{name}」，但「{name}」已是 {target}（{holder}）"
        "的名字或别名：揭示不能把一个实体改成另一个实体的名字，也不能把两者合为一人",
        "chapter {chapter} reveals {who} ({entity_id}) as 「{name}」, but 「{name}」 is already "
        "the name or an alias of {target} ({holder}): a reveal may not give one entity "
        "another's name, nor make two entities one",
    ),
}
