"""One passage a search found: where it stands in the book, how well it answers the question
and why (the terms it shares, with the stretch of text that holds them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, kw_only=True)
class SearchHit:
    chunk_id: str
    chapter: int
    kind: str
    text: str
    score: float  # 0–1, comparable across questions
    entities: tuple[str, ...] = ()
    lexical: float = 0.0  # 0–1: the share of the question's evidence the passage holds
    semantic: float | None = None  # 0–1, None without vectors for this passage
    matched: tuple[str, ...] = ()  # the question's terms found in the passage, as written
    snippet: str = ""  # the stretch of the passage that holds them
    marks: tuple[tuple[int, int], ...] = field(default=())  # where they stand in `snippet`
    weak: bool = False  # too little evidence to trust

    def marked_snippet(self, left: str = "【", right: str = "】") -> str:
        out, at = [], 0
        for start, end in self.marks:
            out += [self.snippet[at:start], left, self.snippet[start:end], right]
            at = end
        out.append(self.snippet[at:])
        return "".join(out)

    def to_dict(self) -> dict[str, Any]:
        return {
            "chunk_id": self.chunk_id,
            "chapter": self.chapter,
            "kind": self.kind,
            "text": self.text,
            "score": round(self.score, 4),
            "entities": list(self.entities),
            "lexical": round(self.lexical, 4),
            "semantic": None if self.semantic is None else round(self.semantic, 4),
            "matched": list(self.matched),
            "snippet": self.snippet,
            "marks": [list(m) for m in self.marks],
            "weak": self.weak,
        }
