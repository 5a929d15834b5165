"""Persistence of games (filled in by the platform core)."""
