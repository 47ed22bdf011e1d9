"""What travels over MCP and HTTP says when it refuses: a message too large or too deep, an
argument too long. Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    # -- MCP framing: refused before parsing --------------------------------------------------
    "mcp_message_too_large": (
        "消息超过 {limit} MB，未读取；请把大段内容拆开发送",
        "the message is larger than {limit} MB and was not read; send large content in parts",
    ),
    "mcp_message_too_deep": (
        "消息嵌套超过 {depth} 层，未解析",
        "the message is nested more than {depth} levels deep and was not parsed",
    ),
    "argument_too_long": (
        "长 {chars:,} 个字符，超过上限 {limit:,}",
        "is {chars:,} characters long, over the limit of {limit:,}",
    ),
}
