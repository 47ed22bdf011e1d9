"""Sentences of the trust boundary's edges: chapter files leading outside the book, a received
book's store URL and the servers a password may go to (docs/security.md)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "status_link": (
        "第{chapter}章的章节文件是指向书的文件夹之外的链接，已拒绝，不读取、不提交：{path}（指向 {target}）；"
        "要提交它，把真正的文件放进书的文件夹",
        "chapter {chapter}'s file is a link leading outside the book's folder, refused (not read, "
        "not offered to commit): {path} (points to {target}); to commit it, put the real file in "
        "the book's folder",
    ),
    "store_book_parameter": (
        "{config} 的 [store] url 带有参数 {parameters}，已拒绝，没有连接任何服务器：一本书的配置可能来自"
        "任何人，不能让连接读写书外的文件、改用别的主机、读取密码或降低加密。书的 url 只能带这些参数："
        "{allowed}。若这个地址是你自己的，请亲手输入一次（webnovel books --store 地址），"
        "或把整个地址写进 {path} 的 [stores] trusted",
        "the [store] url in {config} has the parameter(s) {parameters}, refused; nothing was "
        "connected to: a book's config may come from anyone and may not make the connection "
        "read or write a file outside the book, go to another host, read a password or weaken "
        "encryption. A book's url may have only: {allowed}. If this URL is yours, type it once "
        "yourself (webnovel books --store URL), or add the whole URL to [stores] trusted in "
        "{path}",
    ),
    "store_why_cleartext": (
        "服务器要求以明文发送密码，已拒绝：这本书的书库地址不是你亲手输入的。若这是你的书库，"
        "请亲手输入一次它的地址（webnovel books --store 地址）",
        "the server asks for the password in clear, refused: this book's store URL is not one "
        "you typed. If the store is yours, type its URL once yourself (webnovel books --store URL)",
    ),
    "store_why_no_password_unchosen": (
        "服务器要求密码：你还没有选用过这台服务器，不会为它读取 ~/.pgpass、环境变量中的密码或客户端证书。"
        "若这是你的书库，请亲手输入一次它的地址（webnovel books --store 地址），或在 {path} 的 "
        "[stores] trusted 中加入它",
        "the server asks for a password: you have not chosen this server, so neither ~/.pgpass, "
        "a password from the environment nor a client certificate is used for it. If the store "
        "is yours, type its URL once yourself (webnovel books --store URL), or add it to "
        "[stores] trusted in {path}",
    ),
}
