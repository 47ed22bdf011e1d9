"""Review: a draft judged by the commit's own write path, rolled back."""
