"""What is said when a book folder would reach outside itself (a link where the book keeps its
memory, outlines or texts), and of names and results that hide what they say (invisible
characters, a key given twice). Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    # -- a book folder that reaches outside itself (untrusted/safe_paths.py) ---------------------
    "link_refused": (
        "书的文件夹里有符号链接，已拒绝：{named}{more}。书可能来自别人，链接会让程序读写书以外的"
        "文件；请删除链接，换成真实的文件后再试",
        "the book's folder holds a symbolic link, refused: {named}{more}. A book may come from "
        "someone else, and a link would make the program read or write files outside it; "
        "remove the link and put the real file in its place",
    ),
    "link_and_target": ("{link}（指向 {target}）", "{link} (pointing to {target})"),
    "not_a_regular_file": (
        "{path} 不是普通文件（可能是管道、设备或文件夹），已拒绝；请删除它后再试",
        "{path} is not a regular file (a pipe, a device or a folder?), refused; remove it and "
        "try again",
    ),
    # -- names that hide what they say -----------------------------------------------------------
    "invisible_in_name": (
        "含有不可见字符 U+{code}（零宽、方向标记、变体选择符或标签字符）："
        "它让名字看起来和另一个一样，请删去",
        "holds the invisible character U+{code} (zero-width, a direction mark, a variation "
        "selector or a tag character): it makes the name look like another; remove it",
    ),
    "model_path_relative": (
        "本书 [retrieval] embedder = {spec!r} 是相对路径，已拒绝：它从运行命令的文件夹算起，"
        "可能指向随书一起解压的模型。请把模型放在你自己的文件夹，并写它的绝对路径（可用 ~/）",
        "the book's [retrieval] embedder = {spec!r} is a relative path; refused: it is read "
        "from wherever the command runs, and may name a model unpacked with the book. Keep the "
        "model in a folder of your own and write its absolute path (~/ is fine)",
    ),
    "json_key_twice": (
        "{where}里有 {count} 个键在同一对象中写了两次：{keys}。JSON 只保留后写的那个，"
        "先写的会被悄悄丢掉；请每个键只写一次",
        "{where} gives {count} key(s) twice in one object: {keys}. JSON keeps only the last, and "
        "the first would be lost without a word; write each key once",
    ),
    # -- a thread's planting, in the thread ledger ------------------------------------------------
    "thread_planted_in": ("第{chapter}章埋设", "planted in chapter {chapter}"),
    "thread_never_planted": ("未埋设", "never planted"),
    # -- commit --text-dir ------------------------------------------------------------------------
    "text_and_text_dir": (
        "--text 与 --text-dir 只能用一个",
        "use --text or --text-dir, not both",
    ),
    "text_dir_needs_a_name": (
        "从标准输入（-）读结果时没有文件名，无法在 --text-dir 中找到正文；请用 --text 指明正文文件",
        "a result read from standard input (-) has no name to find its text by in --text-dir; "
        "name the text with --text",
    ),
    "text_dir_missing": (
        "正文文件夹 {folder} 不存在：本次提交的章节不带正文，搜索只能查到摘要",
        "the text folder {folder} does not exist: the chapters are committed without their "
        "texts, and search finds only their summaries",
    ),
    "text_missing": (
        "{result} 没有正文：{path} 不存在，这一章不带正文提交，搜索只能查到摘要",
        "{result} has no text: {path} does not exist; the chapter is committed without it, "
        "and search finds only its summary",
    ),
}
