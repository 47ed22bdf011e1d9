"""SQL for `index.db`, split by the kind of thing it stores; nothing outside this package runs SQL
against it."""
