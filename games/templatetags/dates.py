"""``{% load dates %}`` ``{{ game.deadline|when:"full" }}``: dates as the reader's language
writes them (see :mod:`lords.dates`)."""

from __future__ import annotations

from datetime import datetime

from django import template

from lords import dates

register = template.Library()


@register.filter
def when(moment: datetime | None, style: str = "time") -> str:
    return dates.when(moment, style)
