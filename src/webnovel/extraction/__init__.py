"""From prose to memory: a model reads a stored chapter and the engine commits what it found.

`prompt` builds the request (stable instructions and schema first, then what memory knows, the
chapter's text last), `context` reads what memory knows as of a chapter, `chat_client` speaks the
OpenAI chat-completions protocol, `answers` parses and quotes problems for repair,
`answer_cache` keeps every paid answer in the book, and `run` drives a range of chapters.
The facade (`Project.extract`) is the only caller.
"""
