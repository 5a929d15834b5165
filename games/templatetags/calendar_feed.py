"""``{% calendar_url user as url %}``: the player's secret calendar address, for the profile
page's calendar panel (the profile view need not know of it)."""

from __future__ import annotations

from typing import Any

from django import template

from games.web.calendar import feed_url

register = template.Library()


@register.simple_tag
def calendar_url(user: Any) -> str | None:
    return feed_url(user)
