"""Whether a chapter's result is the import's own: no more than what `import text` writes
from the text alone, so an import (or `sync`) may make it again from the text, a checked commit
may replace it without weighing what it erases, and a result committed over it keeps the cast it
introduced (kept_results.py, kept_cast.py).

The shape itself is defined once, in memory (`memory.write.import_shape`), where the write path
also reads it: an import's names are mentions only while the result is still the import's own.
"""

from __future__ import annotations

from ..memory.write.import_shape import import_made, import_marked

__all__ = ["import_made", "import_marked"]
