"""Storage: players, tables, matches and every move, in SQLite or PostgreSQL (same code path)."""
