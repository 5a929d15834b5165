"""The API's sentence for a refused CSRF check, shared by DRF's session authentication
(:mod:`lords.api.auth`) and Django's ``CSRF_FAILURE_VIEW`` (:mod:`lords.api.errors`).
Django's own imports only: the authentication classes are loaded with DRF's settings,
before ``rest_framework.views`` can be."""

from __future__ import annotations

from django.utils.translation import gettext as _


def csrf_refusal(reason: str) -> str:
    """A refused CSRF check as a sentence in the reader's language, with what to do about
    it. ``reason`` is Django's own (English, meant for its log), recognised by its words."""
    if reason.startswith("CSRF cookie not set"):
        why = _("the CSRF cookie is missing (a browser gets it with any page of the site)")
    elif reason.startswith("CSRF cookie"):  # (its length or its characters are wrong)
        why = _("the CSRF cookie is damaged: reload a page of the site to get a new one")
    elif reason.startswith("CSRF token missing"):
        why = _(
            "the request carries no CSRF token (the csrftoken cookie's value, sent in the "
            "X-CSRFToken header)"
        )
    elif reason.startswith("CSRF token"):
        why = _("the CSRF token is not this session's: reload the page and try again")
    elif reason.startswith(("Origin checking", "Referer checking")):
        why = _("the request does not say it comes from this site")
    else:
        why = _("the request did not pass it")
    return _(
        "Refused by the check against cross-site requests (CSRF): %(why)s. A script signs "
        "in with its API token instead (Authorization: Token ...), which needs no CSRF token."
    ) % {"why": why}
