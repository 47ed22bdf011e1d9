"""What is said when a book folder would reach outside itself (a link where the book keeps its
memory, outlines or texts), and of names and results that hide what they say (invisible
characters, a key given twice). Part of the one catalogue (`webnovel.messages`)."""

# key: (中文, English)
MESSAGES: dict[str, tuple[str, str]] = {
    # -- a book folder that reaches outside itself (safe_paths.py) -------------------------------
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
}
