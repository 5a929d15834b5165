"""Leagues, seasons and standings: league admins run seasons of ordinary games
(see docs/decisions/0006-leagues.md)."""
