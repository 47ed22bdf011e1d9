"""The read layer: as-of answers from memory (facts, histories, relations, threads, rules,
secrets), the alias automaton, and the projections state.json and memory_scratchpad.json."""
