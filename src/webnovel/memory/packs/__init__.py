"""Orchestration: the token-budgeted memory pack for a task, its recipes, relevance scoring and
renderings."""
