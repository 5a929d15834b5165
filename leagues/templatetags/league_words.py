"""``{% load league_words %}`` ``{{ season.status|season_status }}``: a season's status in
the reader's language (the stored value stays the stable code)."""

from __future__ import annotations

from django import template

from leagues.models import Season

register = template.Library()


@register.filter
def season_status(value: str) -> str:
    """ "running" -> "en cours" for a French reader."""
    return str(dict(Season.Status.choices).get(value, value))
