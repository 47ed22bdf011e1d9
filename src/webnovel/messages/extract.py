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
    "extract_unknown_entity": (
        "{path}：「{reference}」不是已知实体，也不在本章 entities_new 中。已知实体中最接近的有：{candidates}。"
        "请改用其中一个的 id；若确是新人物，请写进 entities_new",
        "{path}: 「{reference}」 is no known entity and is not in this chapter's entities_new. "
        "The closest known entities: {candidates}. Use one of their ids; if it is a newcomer, "
        "put it in entities_new",
    ),
    "extract_unknown_thread": (
        "{path}：线索「{reference}」从未埋下。未回收的线索有：{candidates}。"
        "请改用其中一个的 id；若是新线索，请用 action: plant 埋下",
        "{path}: the thread 「{reference}」 was never planted. The open threads: {candidates}. "
        "Use one of their ids; if it is a new thread, plant it (action: plant)",
    ),
    "extract_lookalike": (
        "新登记的「{name}」与已知实体 {others} 的名字相似：若是同一人，请用 candidates merge {name} "
        "--into {first} 合并",
        "the newcomer 「{name}」 looks like {others}: if it is the same person, merge it with "
        "candidates merge {name} --into {first}",
    ),
    "extract_rejected_name": (
        "{path}：「{name}」是作者已否决的名字（不是实体），不要登记它",
        "{path}: 「{name}」 is a name the author rejected (it is no entity); do not register it",
    ),
    "extract_none_known": ("（尚无）", "(none yet)"),
    "candidate_known": (
        "「{name}」已是实体 {entity}（{id}）的名字或别名，无需再接受",
        "「{name}」 is already the name or an alias of {entity} ({id}): there is nothing to accept",
    ),
    "candidate_lookalike": (
        "「{name}」与已有实体 {others} 的名字相似，多半是同一人：请用 candidates merge {name} --into "
        "{first}；若确是另一个人，加 --yes 再接受",
        "「{name}」 looks like the name of {others}, most likely the same person: use candidates "
        "merge {name} --into {first}; if it is someone else, accept it again with --yes",
    ),
    "candidate_nothing_to_undo": (
        "「{name}」没有可撤销的确认、合并或拒绝",
        "there is no accept, merge or rejection of 「{name}」 to undo",
    ),
    "candidate_undo_changed": (
        "无法撤销「{name}」：第{chapter}章的结果在此之后又被改动过（重新提交或提取），撤销会覆盖那次改动",
        "cannot undo 「{name}」: chapter {chapter}'s result was changed since (committed or "
        "extracted again), and undoing would overwrite that change",
    ),
    "merge_nothing_to_fold": (
        "「{name}」不出现在任何章节结果中，无可合并",
        "「{name}」 appears in no chapter result: there is nothing to merge",
    ),
    "candidate_undone": (
        "已撤销对「{name}」的确认或合并：第{chapters}章恢复原样",
        "undid the accept or merge of 「{name}」: chapters {chapters} are as they were",
    ),
    "candidate_unrejected": (
        "已撤销对「{name}」的拒绝，它会重新出现在待确认的名字里",
        "undid the rejection of 「{name}」: it is offered as a candidate again",
    ),
    "text_only_line": (
        "注意：{chapters}只有导入的正文，尚未经模型或代理提取；第{after}章之后的状态可能已过时",
        "note: {chapters} stand on the imported text alone, not yet extracted by a model or an "
        "agent; states after chapter {after} may be out of date",
    ),
    "reveal_takes_name": (
        "第{chapter}章揭示 {who}（{entity_id}）名为「{name}」，但「{name}」已是 {target}（{holder}）"
        "的名字或别名：揭示不能把一个实体改成另一个实体的名字，也不能把两者合为一人",
        "chapter {chapter} reveals {who} ({entity_id}) as 「{name}」, but 「{name}」 is already "
        "the name or an alias of {target} ({holder}): a reveal may not give one entity "
        "another's name, nor make two entities one",
    ),
}
