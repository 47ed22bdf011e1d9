"""What comes from outside, read safely: JSON bounded in depth and size (json_limits), a TOML
file tomllib refused said where and what (toml_errors), paths a book controls opened only
inside the book (safe_paths). docs/security.md draws the boundary."""
