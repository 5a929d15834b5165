"""The web door: server-rendered lobby and board pages with the move form (docs/web.md)."""
