"""What a memory pack says: why each item is in it (`why_<code>`, a pack reason's words for a
person; the contract's English `why` stays in `memory/packs/reasons.py`), its lines and its text
and prompt renderings, and what a pack an agent can trust says (issue 38): who learnt a secret by
being there, the information gap's lines and advice, the dead and the uncertain in a pack, items
as things, places against scenes. Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "pack_learnt_there": ("第{chapter}章在场得知", "told it in chapter {chapter}, being there"),
    "pack_did_they_learn": (
        "第{chapter}章 {who} 与 {other} 同场，但没有 {who} 得知此事的记录：{who} 是否已得知"
        "「{content}」？",
        "in chapter {chapter} {who} shares a scene with {other}, but nothing records {who} "
        "learning it: does {who} know by now that '{content}'?",
    ),
    "pack_dead_mark": ("（已故）", " (dead)"),
    "pack_dead_recalled": (
        "（回忆或梦境中可以出现：该场景标 flashback）",
        " (may appear in a memory or a dream: mark that scene flashback)",
    ),
    "no_such_scene": (
        "本章没有序号为 {got} 的场景（scenes 的 index 有：{have}）",
        "this chapter has no scene with index {got} (scenes' indexes: {have})",
    ),
    "no_scenes": ("无", "none"),
    "pack_rumor": ("传闻，", "hearsay, "),
    "pack_rumor_by": ("据{who}所说，", "by {who}'s word, "),
    "pack_claimed": ("自称，", "claimed, "),
    "pack_claimed_by": ("{who}自称，", "by {who}'s own claim, "),
    "pack_scene_elsewhere": (
        "第{chapter}章场景{scene}把 {who} 放在「{place}」，但记忆中其位置是「{memory}」（第{since}章起），"
        "本章没有记录其移动",
        "scene {scene} of chapter {chapter} puts {who} at '{place}', but memory has them at "
        "'{memory}' (since chapter {since}) and the chapter records no move",
    ),
    "pack_ending_elsewhere": (
        "上一章结束于「{before}」，本章首个场景在「{after}」，中间的转场是否交代清楚？",
        "the previous chapter ended at '{before}' and this one opens at '{after}': is the "
        "change of place told?",
    ),
    "pack_gaps_held_back": (
        "另有 {count} 条「尚不知」未列出（与本场关系较远）；需要时用 knows 人物 或 secrets 查询",
        "{count} more 'does not know' lines not shown (further from this scene); ask with "
        "knows CHARACTER or secrets",
    ),
    # -- why an item is in a pack (memory/packs/reasons.py) --------------------------------------
    "why_outline": (
        "本章大纲（放得下就一定保留）",
        "the chapter's outline (kept whenever it fits the budget)",
    ),
    "why_ending": ("上一章的结尾", "where the previous chapter ended"),
    "why_recent_summary": ("近期第{n}章的摘要", "summary of recent chapter {n}"),
    "why_named": ("{source}中提及", "named in the {source}"),
    "why_named_as": ("{source}中以「{text}」提及", "named in the {source} as '{text}'"),
    "why_protagonist": ("主角", "protagonist"),
    "why_recently_active": ("最近几章出场", "appears in the last chapters"),
    "why_in_draft": ("草稿涉及", "touched by the draft"),
    "why_last_scene": ("第{n}章最后一场在场", "present in the last scene of chapter {n}"),
    "why_point_of_view": ("视角人物", "point-of-view character"),
    "why_thread_names": ("第{n}章到期的伏笔涉及", "named by a thread due in chapter {n}"),
    "why_conflict_names": ("未解决的矛盾涉及", "named by an open conflict"),
    "why_shared_scenes": ("近期与{who}同场", "shared recent scenes with {who}"),
    "why_of_entity": ("{who}：{why}", "{who}: {why}"),
    "why_between_in_play": ("两个在场实体之间", "between two entities in play"),
    "why_relation_of": ("{who}的关系（{why}）", "a relation of {who} ({why})"),
    "why_hops_out": ("经{who}相连，隔{hops}层", "linked through {who}, {hops} steps out"),
    "why_overdue": ("自第{n}章起逾期", "overdue since chapter {n}"),
    "why_due": (
        "应于第{n}章回收，还剩{left}章",
        "due to pay off in chapter {n}, {left} chapters left",
    ),
    "why_involves": ("涉及{who}", "involves {who}"),
    "why_open_thread": ("未回收的线索", "an open thread"),
    "why_reveal_due": ("本章应揭示", "to be revealed in this chapter"),
    "why_reader_unaware": (
        "读者尚不知（勿在叙述中揭示）",
        "the reader does not know it yet (do not reveal it in the narration)",
    ),
    "why_unaware": ("{who}在场且不知情", "{who} is in play and does not know it"),
    "why_gaps_held_back": (
        "在场人物的另外 {count} 条信息差，未逐条列出",
        "{count} more gaps of the people in play, not listed one by one",
    ),
    "why_suspects": ("{who}在场且仅怀疑", "{who} is in play and only suspects it"),
    "why_died": ("第{n}章已死", "died in chapter {n}"),
    "why_dead_in_play": ("在场人物中已死亡者", "in play but dead"),
    "why_dead_near": ("近期同场者中已死亡者", "shared a recent scene but dead"),
    "why_open_conflict": ("未解决的矛盾（{severity}）", "an open conflict ({severity})"),
    "why_rule_in_force": ("自第{n}章起生效的规则", "a rule in force since chapter {n}"),
    "why_rule_shares_outline": ("与大纲共有词：{words}", "shares terms with the outline: {words}"),
    "why_rule_shares_scene": (
        "与在场人物的物品或所在共有词：{words}",
        "shares terms with the items or places of those in play: {words}",
    ),
    "why_event": ("与{who}有关的事件（第{n}章）", "an event involving {who} (chapter {n})"),
    "why_recent_change": (
        "{who}的近期变化（至第{n}章）",
        "a recent change of {who} (until chapter {n})",
    ),
    "why_passage": ("第{n}章的{kind}", "the {kind} of chapter {n}"),
    "pack_source_outline": ("大纲", "outline"),
    "pack_source_query": ("提问", "question"),
    "pack_source_draft": ("草稿", "draft"),
    # -- a pack, rendered (memory/packs/memory_pack.py) -------------------------------------------
    "pack_prompt_head": (
        "# 记忆包：第{chapter}章（{task}）",
        "# Memory pack: chapter {chapter} ({task})",
    ),
    "pack_prompt_as_of": (
        "以下为截至第{chapter}章的记忆；标注（第N章）为出处。",
        "What memory holds up to chapter {chapter}; a mark (chapter N) names the source.",
    ),
    "pack_text_dropped": (
        "，预算内放不下而舍去 {dropped} 条",
        ", {dropped} left out for the budget",
    ),
    "pack_text_head": (
        "第{chapter}章的记忆包（{task}）：用量 {used}/{budget} token{dropped}",
        "memory pack for chapter {chapter} ({task}): {used}/{budget} tokens used{dropped}",
    ),
    "pack_text_in_play": ("在场：{entities}", "in play: {entities}"),
    "pack_text_in_play_one": ("{name}（{why}）", "{name} ({why})"),
    "pack_text_section": ("【{title}】{tokens} token", "[{title}] {tokens} tokens"),
    "pack_text_item": ("{line}    ← {why}", "{line}    ← {why}"),
    # -- a pack's lines (memory/packs/*_sections.py) -------------------------------------------
    "pack_line_outline": ("- 本章大纲：{outline}", "- this chapter's outline: {outline}"),
    "pack_line_summary": (
        "- {named}：{summary}",
        "- {named}: {summary}",
    ),
    "pack_ending_part": ("{label}：{value}", "{label}: {value}"),
    "pack_line_ending": (
        "- 上章结尾（第{chapter}章）：{ending}",
        "- where the last chapter ended (chapter {chapter}): {ending}",
    ),
    "pack_line_fact": (
        "- {name} {field}：{value}（{source}第{since}章起）",
        "- {name} {field}: {value} ({source}since chapter {since})",
    ),
    "pack_line_relation": (
        "- {source} → {target}：{type}（第{since}章起）",
        "- {source} → {target}: {type} (since chapter {since})",
    ),
    "pack_thread_due": ("，第{chapter}章前回收", ", to pay off by chapter {chapter}"),
    "pack_thread_overdue": ("【已逾期】", "[overdue] "),
    "pack_thread_progress": ("；进展：{progress}", "; progress: {progress}"),
    "pack_thread_planted": ("第{chapter}章埋下", "planted in chapter {chapter}"),
    "pack_line_thread": (
        "- {flag}{content}（{kind}，{planted}{due}{progress}）",
        "- {flag}{content} ({kind}, {planted}{due}{progress})",
    ),
    "pack_rule_domain": ("[{domain}] ", "[{domain}] "),
    "pack_line_rule": ("- {domain}{text}（第{since}章）", "- {domain}{text} (chapter {since})"),
    "pack_at_place": ("＠{place}", " at {place}"),
    "pack_scene_mode": ("〔{mode}〕", "({mode}) "),
    "pack_line_event": (
        "- 第{chapter}章：{mode}{event}{place}",
        "- chapter {chapter}: {mode}{event}{place}",
    ),
    "pack_line_was": (
        "- {name} {field} 曾为{value}（{span}，已变）",
        "- {name} {field} was {value} ({span}, since changed)",
    ),
    "pack_line_passage": ("- 第{chapter}章：{text}", "- chapter {chapter}: {text}"),
    "pack_gap_suspects": ("{who} 仅怀疑", "{who} only suspects"),
    "pack_gap_unaware": ("{who} 尚不知", "{who} does not know yet"),
    "pack_line_gap": ("- {gap}：{secret}", "- {gap}: {secret}"),
    "pack_line_conflict": (
        "- 【未解决矛盾·{severity}】{message}",
        "- [open conflict · {severity}] {message}",
    ),
    "dead_constraint": (
        "{name} 已于第{since}章{status}，不得再出场或行动",
        "{name} is {status} since chapter {since} and must not appear or act again",
    ),
    "pack_gap_reveal_due": ("本章应揭示", "to be revealed in this chapter"),
    "pack_gap_author_only": (
        "仅作者知（勿在叙述中揭示）",
        "known to the author only (do not reveal it in the narration)",
    ),
}
