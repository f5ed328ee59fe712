"""One module per check, discovered by listing this package; modules starting with '_' are helpers."""
