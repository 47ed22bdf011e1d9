"""A book in a shared PostgreSQL store: the second backend behind the same `IndexStore` handle
and the same queries (`Connection`, ../connection.py) as the SQLite file.

pg_store (the book's schema, its transactions and migrations, the registry of books),
pg_connection (psycopg in sqlite3's calling convention), pg_sql (the queries and DDL translated
once into PostgreSQL's dialect), pg_vectors (the book's shared dense vectors), pg_statistics (a
burst writer's ANALYZE), pg_unreachable (why a connection failed, in the author's words).
Nothing here is imported until a book lives in PostgreSQL: psycopg is loaded only then.
"""
