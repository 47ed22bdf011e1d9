"""How to fix each finding of review and commit (memory/write/rulebook.py names the kinds and
their severities): `hint_<kind>`. Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "hint_dead_entity_active": (
        "删去该角色的出场，或把出场方式写为「提及」（回忆或他人提到）；若确为复活，请在 state_changes 中把「状态」改为存活",
        "remove the character's appearance, or make it a mention (a memory, or someone speaking of them); if they really come back, set their status to alive in state_changes",
    ),
    "hint_regression": (
        "若是跌落境界，请在 reason 中写明原因；否则改回不低于当前的值",
        "if the realm really falls, give the reason in reason; otherwise put back a value no lower than the current one",
    ),
    "hint_old_value_mismatch": (
        "把 old 改为记忆中的值，或确认记忆有误后照常提交（提交会记录矛盾）",
        "set old to the value memory holds, or, if memory is wrong, commit as usual (the commit records the contradiction)",
    ),
    "hint_relation_end_missing": (
        "确认关系类型；不存在的关系无需结束",
        "check the relation type; a relation that does not exist need not be ended",
    ),
    "hint_thread_closed": (
        "若要重启该线索，请重新埋设；否则删去这条动作",
        "to reopen the thread, plant it again; otherwise remove this action",
    ),
    "hint_rule_unknown": (
        "若规则恢复，请重新揭示（确立）它；否则检查规则 id",
        "if the rule comes back, reveal (establish) it again; otherwise check the rule id",
    ),
    "hint_unknown_entity": (
        "若是新角色，请在 entities_new 中登记；否则检查名字或别名是否写错",
        "if this is a new character, register it in entities_new; otherwise check the name or alias for a typo",
    ),
    "hint_duplicate_entity": (
        "已登场的实体请写在 entities_appeared / state_changes 中，不要再放进 entities_new",
        "an entity that has appeared goes in entities_appeared / state_changes, not again in entities_new",
    ),
    "hint_reveal_takes_name": (
        "若两者本是同一人，请由作者用 candidates merge 合并；若是同名的两个人，去掉 revealed 或换用能区分的名字；否则删去这条揭示",
        "if the two are one person, let the author merge them with candidates merge; if they are two people of one name, drop revealed or use a name that tells them apart; otherwise remove this reveal",
    ),
    "hint_secret_source_unaware": (
        "换一个知情的来源，或先写明这个人是怎么得知的（knowledge_changes）",
        "choose a source who knows, or first write how this person learned it (knowledge_changes)",
    ),
    "hint_secret_unknown": (
        "先在 secrets 中埋设这个秘密，或检查秘密 id 是否写错",
        "plant the secret in secrets first, or check the secret id for a typo",
    ),
    "hint_thread_unknown": (
        "检查线索 id 是否写错，或补上埋设的章节",
        "check the thread id for a typo, or add the chapter that plants it",
    ),
    "hint_set_remove_missing": (
        "确认要移除的物品；记忆中没有的无需移除",
        "check the item to remove; what memory does not hold need not be removed",
    ),
    "hint_item_not_held": (
        "由真正的持有者交出，或先写明它是怎么到了此人手里（state_changes 的物品 add）",
        "let the real holder hand it over, or first write how it came into this person's hands (an items add in state_changes)",
    ),
    "hint_two_places_at_once": (
        "改掉其中一场的地点或人物，或去掉「同一时刻」，写明两场之间过了多久",
        "change the place or the people of one scene, or drop 「同一时刻」 and say how long passed between the two",
    ),
    "hint_ladder_regression": (
        "确认跌落境界的原因已在正文中交代",
        "check that the text explains why the realm fell",
    ),
    "hint_name_taken": (
        "若是已登场的实体，请用它的 id 写进 entities_appeared / state_changes；否则换一个能区分的名字"
        "或别名",
        "if this is an entity already in the book, put it in entities_appeared / state_changes "
        "under its id; otherwise choose a name or alias that tells them apart",
    ),
    "hint_ambiguous_alias": (
        "把这个名字改写成所指实体的 id（可选的 id 见 candidates），或在 uncertain 里加一条"
        "{{mention: 这个名字, adopted: 所指的 id}}",
        "write the id of the entity meant instead of the name (the ids it may mean are in "
        "candidates), or add {{mention: the name, adopted: the id meant}} to uncertain",
    ),
    "hint_relation_jump": (
        "若是剧情转折（如背叛），无需修改",
        "if it is a turn of the plot (a betrayal, say), nothing needs changing",
    ),
    "hint_early_reveal": (
        "若是有意提前揭示，无需修改；否则推迟到原定章节",
        "if the early reveal is meant, nothing needs changing; otherwise put it off to the planned chapter",
    ),
    "hint_already_known": (
        "此人早已知情，删去这条「得知」，或改写为确认/回忆",
        "this person knew long ago: remove this 'learns', or rewrite it as a confirmation or a memory",
    ),
    "hint_promise_due": (
        "在本章兑现承诺，或推进并顺延 due_chapter",
        "keep the promise in this chapter, or advance it and move due_chapter on",
    ),
    "hint_thread_overdue": (
        "安排回收，或推进它并更新 due_chapter",
        "plan its payoff, or advance it and update due_chapter",
    ),
    "hint_item_held_elsewhere": (
        "若是转交，请在同一章把它从原持有者的物品中移除；若确有两件，请把其中一件登记为另一实体",
        "if it was handed over, remove it from the former holder's items in the same chapter; if there really are two, register one as another entity",
    ),
    "hint_time_backwards": (
        "若是回忆，请在场景上标 flashback；否则改成晚于上一场的时间",
        "if it is a memory, mark the scene flashback; otherwise give it a time later than the scene before",
    ),
    "hint_unstated_night": (
        "在时间前加上「次日」（如「次日清晨」），或补一句交代过了一夜",
        "put 「次日」 before the time (as in 「次日清晨」), or add a line saying a night passed",
    ),
    "hint_deadline_passed": (
        "在本章兑现（resolve）这条线索，或让时间不越过期限，或改写它的 due_time",
        "resolve the thread in this chapter, keep the time from passing the deadline, or rewrite its due_time",
    ),
    "hint_location_continuity": (
        "在开头补一句转场，或确认这是有意的时空跳跃",
        "add a line of transition at the start, or confirm that the jump in time and place is meant",
    ),
    "hint_scene_location": (
        "若此人移动了，请在 state_changes 中记下位置变化（写明 reason）；否则改正场景的地点或人物",
        "if the person moved, record the change of place in state_changes (with a reason); otherwise correct the scene's place or people",
    ),
    "hint_knowledge_unrecorded": (
        "若此人已得知，请在 knowledge_changes 中记下（或在 secrets 的揭示中写 to）；若仍不知情，无需修改",
        "if the person has learned it, record it in knowledge_changes (or write to in the secret's reveal); if they still do not know, nothing needs changing",
    ),
}
