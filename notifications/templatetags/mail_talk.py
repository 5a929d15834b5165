"""``{% load mail_talk %}`` ``{% talk_words as words %}``: the words that start a message
line of a reply (``words.say``, ``words.to``), in the reader's language, for the emails'
hint; they come from the parser (:mod:`notifications.talk_lines`), so the hint teaches what
it reads, not the English keywords."""

from __future__ import annotations

from django import template

from notifications.talk_lines import words

register = template.Library()


@register.simple_tag
def talk_words() -> dict[str, str]:
    return words()
