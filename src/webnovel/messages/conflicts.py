"""What a conflict found while folding a chapter into memory says (`conflict_<kind>`). {who}
and {target} arrive as markers that the store fills with names when the conflict is read.
Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "conflict_set_remove_missing": (
        "{who}：第{chapter}章移除了「{value}」，但记忆中{field}并无此项（当前：{current}）",
        "{who}: chapter {chapter} removes '{value}', but memory's {field} has no such entry "
        "(now: {current})",
    ),
    "conflict_old_value_mismatch": (
        "{who}：第{chapter}章以为{field}原为「{old}」，但记忆中自第{since}章起为「{current}」；"
        "按本章改为「{new}」",
        "{who}: chapter {chapter} takes {field} to have been '{old}', but memory has it as "
        "'{current}' since chapter {since}; changed to '{new}' as this chapter says",
    ),
    "conflict_ladder_fell": (
        "{who}：第{chapter}章{field}从「{old}」降为「{new}」{reason}",
        "{who}: in chapter {chapter} {field} falls from '{old}' to '{new}'{reason}",
    ),
    "conflict_reason_given": ("（理由：{reason}）", " (reason: {reason})"),
    "conflict_no_reason": ("，且未给出理由", ", and no reason is given"),
    "conflict_relation_end_missing": (
        "第{chapter}章结束了 {who}→{target} 的「{type}」关系，但该关系此时并不成立（当前：{current}）",
        "chapter {chapter} ends the '{type}' relation {who}→{target}, but it does not hold "
        "then (now: {current})",
    ),
    "conflict_relation_jump": (
        "{who}→{target} 的关系从「{old}」直接变为「{new}」，跨度较大，请确认是有意为之",
        "the relation {who}→{target} turns straight from '{old}' to '{new}', a long way: "
        "make sure it is meant",
    ),
    "conflict_thread_unknown": (
        "第{chapter}章对伏笔/线索「{thread}」执行「{action}」，但此前从未埋设",
        "chapter {chapter} does '{action}' to the thread '{thread}', which was never planted",
    ),
    "conflict_thread_closed_resolved": (
        "第{chapter}章对已回收（第{closed}章）的线索「{thread}」执行「{action}」",
        "chapter {chapter} does '{action}' to the thread '{thread}', paid off in chapter {closed}",
    ),
    "conflict_thread_closed_abandoned": (
        "第{chapter}章对已放弃（第{closed}章）的线索「{thread}」执行「{action}」",
        "chapter {chapter} does '{action}' to the thread '{thread}', dropped in chapter {closed}",
    ),
    "conflict_rule_unknown_revised": (
        "第{chapter}章修订了世界规则「{rule}」，但此时并无该规则",
        "chapter {chapter} revises the world rule '{rule}', but no such rule is in force then",
    ),
    "conflict_rule_unknown_retired": (
        "第{chapter}章废止了世界规则「{rule}」，但此时并无该规则",
        "chapter {chapter} retires the world rule '{rule}', but no such rule is in force then",
    ),
    "conflict_duplicate_entity": (
        "第{chapter}章在 entities_new 中再次登记了 {who}（id「{entity}」），但其已于第{first}章登场",
        "chapter {chapter} introduces {who} (id '{entity}') again in entities_new, but they "
        "first appeared in chapter {first}",
    ),
    "conflict_dead_entity_active": (
        "第{chapter}章中 {who} 出现或行动（{acts}），但其自第{since}章起状态为「{status}」",
        "in chapter {chapter} {who} appears or acts ({acts}), but their status has been "
        "'{status}' since chapter {since}",
    ),
    "conflict_unknown_entity": (
        "第{chapter}章引用了未登记的实体「{mention}」",
        "chapter {chapter} refers to an entity never introduced: '{mention}'",
    ),
    "conflict_name_taken": (
        "新登场的「{name}」（{entity}）用了名字「{taken}」，它已是 {target}（{other}）的名字或别名",
        "the newly introduced '{name}' ({entity}) takes the name '{taken}', already a name or "
        "alias of {target} ({other})",
    ),
    "conflict_ambiguous_alias": (
        "「{reference}」可指多个实体：{ids}；已按 {who}（{chosen}）处理",
        "'{reference}' may name several entities: {ids}; taken as {who} ({chosen})",
    ),
    # -- secrets (memory/write/knowledge_rules.py) ----------------------------------------------
    "conflict_secret_unknown_revealed": (
        "第{chapter}章揭示了秘密「{secret}」，但此前从未埋设",
        "chapter {chapter} reveals the secret '{secret}', which was never planted",
    ),
    "conflict_secret_unknown_retired": (
        "第{chapter}章废弃了秘密「{secret}」，但此前从未埋设",
        "chapter {chapter} retires the secret '{secret}', which was never planted",
    ),
    "conflict_early_reveal": (
        "秘密「{secret}」原定第{due}章揭示，第{chapter}章提前揭示了",
        "the secret '{secret}' was to be revealed in chapter {due}; chapter {chapter} reveals "
        "it early",
    ),
    "conflict_already_known": (
        "{who} 第{chapter}章又一次得知秘密「{secret}」，但其早已知情（第{since}章起）",
        "{who} learns the secret '{secret}' again in chapter {chapter}, but has known it since "
        "chapter {since}",
    ),
    "conflict_secret_unknown_learnt": (
        "第{chapter}章 {who} 得知了秘密「{secret}」，但此前从未埋设这个秘密",
        "in chapter {chapter} {who} learns the secret '{secret}', which was never planted",
    ),
    "conflict_secret_source_unaware": (
        "第{chapter}章 {target} 从 {who} 处得知秘密「{secret}」，但 {who} 此时并不知情",
        "in chapter {chapter} {target} learns the secret '{secret}' from {who}, who does not "
        "know it then",
    ),
    # -- items (memory/write/item_rules.py) ----------------------------------------------------
    "conflict_item_held_elsewhere": (
        "第{chapter}章{who}得到「{thing}」，但它此时仍在{target}手里（一件有名的物品只有一个持有者）",
        "in chapter {chapter} {who} gets '{thing}', but {target} still holds it then (a named "
        "item has one holder)",
    ),
    "conflict_item_taken_from_nonholder": (
        "第{chapter}章{who}交出了「{thing}」，但它自第{since}章起在{target}手里，"
        "{who}并未持有（一件有名的物品只有一个持有者）",
        "in chapter {chapter} {who} hands over '{thing}', but {target} has held it since "
        "chapter {since}; {who} does not hold it (a named item has one holder)",
    ),
    "unknown_reference": (
        "未知实体「{reference}」{meant}（暂记为待定实体；若是新人物，请在 entities_new 中登记）",
        "unknown entity '{reference}'{meant} (kept as a tentative entity; if it is a new "
        "character, introduce it in entities_new)",
    ),
    "merge_renamed": (
        "entities_new 中的 {old} 与已知实体 {new} 同名，已改为引用 {new}",
        "{old} in entities_new has the name of the known entity {new}; it now refers to {new}",
    ),
}
