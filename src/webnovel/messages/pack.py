"""What a pack an agent can trust says (issue 38): who learnt a secret by being there, the
information gap's lines and advice, the dead and the uncertain in a pack, items as things, places
against scenes. Part of the one catalogue (`webnovel.messages`)."""

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
    "pack_gaps_held_back_why": (
        "在场人物的另外 {count} 条信息差，未逐条列出",
        "{count} more gaps of the people in play, not listed one by one",
    ),
}
