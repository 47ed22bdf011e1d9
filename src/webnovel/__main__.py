"""`python -m webnovel` runs the `webnovel` command."""

from .cli.main import main

raise SystemExit(main())
