"""Asking the author at a terminal before something that cannot be taken back (`retract`,
`books --delete`): one question, one answer, and no traceback whatever the keyboard sends."""

from __future__ import annotations

import sys

YES = ("y", "yes", "是")


def confirmed(question: str) -> bool:
    """Whether the author answers yes (y, yes or 是) to `question`. Anything else is no, and so
    are Ctrl-D (end of input) and Ctrl-C at the prompt: both leave the cursor after the question,
    so a line break puts what is said next on a line of its own."""
    try:
        answer = input(f"{question} [y/N] ")
    except (EOFError, KeyboardInterrupt):
        print(file=sys.stderr)
        return False
    return answer.strip().lower() in YES
