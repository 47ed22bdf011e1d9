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
}
