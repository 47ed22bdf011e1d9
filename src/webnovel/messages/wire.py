"""What travels over MCP and HTTP says when it refuses: a message too large or too deep, an
argument too long. Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    # -- MCP framing: refused before parsing --------------------------------------------------
    "mcp_message_too_large": (
        "消息超过 {limit} MB，未读取：一章正文 text 至多 2,000,000 字符（逐字转义成 \\uXXXX "
        "也在此内），其余参数远小于此；请检查是否多发了内容",
        "the message is larger than {limit} MB and was not read: a chapter's text holds at "
        "most 2,000,000 characters (within this even escaped as \\uXXXX), the other "
        "arguments far less; check that nothing extra was sent",
    ),
    "mcp_message_too_deep": (
        "消息嵌套超过 {depth} 层，未解析",
        "the message is nested more than {depth} levels deep and was not parsed",
    ),
    "argument_too_long": (
        "长 {chars:,} 个字符，超过上限 {limit:,}",
        "is {chars:,} characters long, over the limit of {limit:,}",
    ),
    # -- the command line's hints -----------------------------------------------------------
    "unknown_command": (
        "没有命令 {name}{hint}；webnovel -h 列出全部命令",
        "no command '{name}'{hint}; webnovel -h lists them all",
    ),
    "global_option_first": (
        "。{option} 是整条命令的选项，要写在命令之前，例如：webnovel {option} demo-book fact 林砚 境界",
        ". {option} belongs to the whole command line and goes before the command, as in: "
        "webnovel {option} demo-book fact 林砚 realm",
    ),
    "genre_ladders": (
        "题材「{genre}」写入了等级阶梯（倒退会被查出）：{ladders}",
        "genre 「{genre}」 filled these ladders (a fall down one is caught): {ladders}",
    ),
    "genre_ladder": ("{field}：{values}", "{field}: {values}"),
    "genre_without_ladder": (
        "题材「{genre}」没有预设的等级阶梯（有预设的：{known}），倒退不会被查出；需要时在 "
        '.webnovel/config.toml 的 [ladders] 下写一条，如 rank = ["九品", "八品", "七品"]',
        "genre 「{genre}」 has no ladder of its own (these do: {known}), so no fall is caught; "
        'add one under [ladders] in .webnovel/config.toml, e.g. rank = ["九品", "八品", "七品"]',
    ),
    # -- the cost of an extraction ------------------------------------------------------------
    "cost_column": ("费用（{currency}）", "cost ({currency})"),
    "cost_column_estimated": ("费用（{currency}，估）", "cost ({currency}, estimated)"),
    "currency_unsaid": ("未注明币种", "currency not said"),
    "currency_how": (
        '价格未注明币种：在 [llm] prices 里写 currency = "元"（或 "¥"、"USD"），费用一栏就会标出',
        'the prices name no currency: add currency = "USD" (or "元") to [llm] prices',
    ),
    "llm_currency": (
        'config.toml：llm.prices 的 currency 应为不超过 8 个字的币种，如 "元"、"¥"、"USD"',
        'config.toml: llm.prices currency must be a currency of at most 8 characters, e.g. "USD"',
    ),
    # -- a question past the book's end -------------------------------------------------------
    "as_of_beyond_end": (
        "本书最新只到第{latest}章：这是截至第{latest}章（全书末尾）的回答，不是第{asked}章的",
        "the book ends at chapter {latest}: this answers as of chapter {latest} (the end), "
        "not chapter {asked}",
    ),
    "pack_beyond_end": (
        "本书最新只到第{latest}章：第{asked}章的记忆包按全书末尾（第{latest}章）组装，中间的章节记忆里没有",
        "the book ends at chapter {latest}: the pack for chapter {asked} holds memory as of "
        "chapter {latest} (the end); the chapters between are not in memory",
    ),
    # -- the dashboard's door: refused before any page -----------------------------------------
    "dashboard_host_not_local": (
        "Host 不是本机：面板只回答本机地址（防 DNS 重绑定）",
        "the Host is not this machine: the dashboard answers only this machine's addresses "
        "(against DNS rebinding)",
    ),
    "dashboard_login_needed": (
        "需要登录：请打开启动面板时打印的网址（带 login=…）",
        "login needed: open the URL printed when the dashboard started (with login=…)",
    ),
}
