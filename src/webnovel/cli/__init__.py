"""The `webnovel` command: parse, call the facade, render. No memory logic lives here."""
