"""The dashboard (`webnovel dashboard`) and the reader wiki (`webnovel wiki`): what memory knows,
as of any chapter, as web pages. Needs the [dashboard] extra (Starlette, uvicorn, Jinja2);
nothing here is imported until one of them is used."""
