"""What is said when a candidate cannot be merged as asked: the name already means another
entity by an alias, or the entity itself. Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "candidate_merge_alias_taken": (
        "无法把「{name}」并入 {into}（{into_id}）：它已是 {holder}（{holder_id}）的别名，"
        "并入后「{name}」会同时指两个实体。若两者是同一人，请合并这两个实体："
        "webnovel candidates merge {holder} --into {into}",
        "cannot merge 「{name}」 into {into} ({into_id}): it is already an alias of {holder} "
        "({holder_id}), and would then mean two entities. If they are one person, merge the two "
        "entities: webnovel candidates merge {holder} --into {into}",
    ),
    "candidate_merge_into_itself": (
        "无法把「{name}」并入 {into}（{into_id}）：它已是这个实体的名字或别名，无需合并",
        "cannot merge 「{name}」 into {into} ({into_id}): it is already this entity's name or an "
        "alias; there is nothing to merge",
    ),
}
