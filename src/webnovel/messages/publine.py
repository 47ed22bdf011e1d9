"""True words about the published line and the pack: a refusal names only the published chapters
a revision contradicts, a pack says what it leaves out. Part of the one catalogue
(`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "published_revision_contradicts": (
        "与已发布的第{chapters}章矛盾，读者已读过的内容只能往后圆。",
        "It contradicts published chapter(s) {chapters}: readers have them, so it can only be "
        "resolved forward. ",
    ),
    "text_only_line_from_start": (
        "注意：{chapters}只有导入的正文，尚未经模型或代理提取；从第1章起的状态都可能已过时",
        "note: {chapters} stand on the imported text alone, not yet extracted by a model or an "
        "agent; states from chapter 1 on may be out of date",
    ),
    "pack_nothing_fits": (
        "（预算 {budget} token 内放不下任何一条记忆：{dropped} 条全部舍去，请放宽预算）",
        "(nothing fits in a budget of {budget} tokens: all {dropped} items were left out; "
        "allow a larger budget)",
    ),
}
