"""A chapter's prose measured the one way every room measures it (the importer, memory's write
path, the reports): pure functions of a string, importing nothing of the package."""
