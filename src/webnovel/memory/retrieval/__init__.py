"""Episodic retrieval: chapters cut into chunks, indexed for search (tantivy) and optional dense
vectors, ranked as of a chapter."""
