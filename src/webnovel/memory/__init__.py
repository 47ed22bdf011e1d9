"""Temporal memory, by layer (each imports only the layers below it, checked by import-linter):
review → packs → retrieval → read → write → store, over the values in schema.py and chains.py."""
