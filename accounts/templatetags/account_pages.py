"""``{% load account_pages %}`` ``{{ form|without_placeholders }}``: allauth's forms as the
site draws its own (templates/allauth/elements/fields.html)."""

from __future__ import annotations

from django import template
from django.forms import BaseForm

register = template.Library()


@register.filter
def without_placeholders(form: BaseForm) -> BaseForm:
    """The form with no placeholder in its inputs. allauth gives each input its label as a
    placeholder, for pages that draw no label; ours draw the label above the input, as every
    form of the site does, and the same words again inside the box only looked like a value
    already typed. (The form is this request's own: its fields and widgets are copies.)"""
    for field in form.fields.values():
        field.widget.attrs.pop("placeholder", None)
    return form
