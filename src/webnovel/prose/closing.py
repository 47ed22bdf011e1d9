"""The storyteller's closing a 章回体 chapter ends on (「欲知后事如何，且听下回分解。」, 「毕竟性命如何，
下回便见」, a closing couplet after 「正是：」) says nothing about where the story stands: where a
chapter's ending is quoted as 上章结尾, it is left off and the last real sentences are taken.
A pure function of a string, importing nothing of the package (the importer and memory both
use it), as is the passage a chapter ends on, which leaves it off."""

from __future__ import annotations

import re

# The formula's core: the next 回 will tell (下回分解, 下回便见, 且看下回, 下文分解 …).
FORMULA = re.compile(
    r"下回(?:书中)?(?:分解|便见|便知|再表|细表|分说|交代|再说)|且(?:听|看)下回|下文分解"
)
# A closing couplet's lead-in; the couplet after it is a few short lines of verse.
COUPLET_LEAD = re.compile(r"(?:正是|有分教|有诗为证|诗曰|有诗赞曰|后人有诗赞曰)\s*[：:]")
FORMULA_CHARS = 40  # a formula sentence is short; a longer one that says 下回 is story
COUPLET_CHARS = 80  # what may follow a lead-in and still be the closing couplet
ENDING_CHARS = 200  # the passage a chapter ends on, cut at a paragraph where possible
PIECE = re.compile(r"[^。！？!?…\n]+[。！？!?…]*[”」』’）)]*|\n+")


def without_closing_formula(text: str) -> str:
    """`text` without the closing formula it ends on and the closing couplet before it (if
    any), its trailing whitespace stripped; a text that ends otherwise is kept whole."""
    pieces = PIECE.findall(text.rstrip())
    formula = False
    while pieces and (
        not pieces[-1].strip()
        or (len(pieces[-1].strip()) <= FORMULA_CHARS and FORMULA.search(pieces[-1]))
    ):
        formula = formula or bool(pieces[-1].strip())
        pieces.pop()
    if not formula:
        return text.rstrip()
    rest = "".join(pieces).rstrip()
    leads = list(COUPLET_LEAD.finditer(rest))
    if leads:  # the couplet (正是：…) the formula follows, when it is the last thing said
        couplet = rest[leads[-1].end() :]
        if len(couplet.strip()) <= COUPLET_CHARS and not any(q in couplet for q in "“「"):
            return rest[: leads[-1].start()].rstrip()
    return rest


def ending_passage(text: str, chars: int = ENDING_CHARS) -> str:
    """The last paragraphs of a chapter's text, about `chars` long, in its own words: the
    story's last words, not the closing formula after them."""
    story = without_closing_formula(text) or text
    paragraphs = [p.strip() for p in story.strip().split("\n") if p.strip()]
    taken: list[str] = []
    size = 0
    for paragraph in reversed(paragraphs):
        if taken and size + len(paragraph) > chars:
            break
        taken.append(paragraph)
        size += len(paragraph)
    passage = "\n".join(reversed(taken))
    return passage if len(passage) <= 2 * chars else "…" + passage[-2 * chars :]
