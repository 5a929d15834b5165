"""allauth's adapter, with two changes. Its emails (the sign-up's code, a password reset) are
signed "Lords", as the site's own are, not the host's name ("[localhost:8000] Hello from
localhost:8000!": the sites framework is not installed, so allauth named the site after the
request's host). And a newcomer goes where their sign-up's link was taking them even when
they get there through a later sign-in.

A sign-up carries its ``?next=`` (an invitation, a public game) to the code page, and the
right code leads there. A code that expired, or was mistyped three times, sends the newcomer
to sign in again, and allauth forgets the ``?next=`` on the way: they landed on the home page,
their invitation's link long gone from the tab. The sign-up's destination is therefore kept
in the session (:func:`keep_the_way`) until the first sign-in of that browser
(:func:`forget_the_way`), and serves where that sign-in names no destination of its own.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.utils import get_next_redirect_url
from django.contrib.sites.shortcuts import get_current_site
from django.http import HttpRequest

SIGNUP_NEXT = "accounts.signup_next"
SITE_NAME = "Lords"


class _Site(NamedTuple):
    """What allauth's emails read of the site (its templates' ``current_site``)."""

    name: str
    domain: str


class AccountAdapter(DefaultAccountAdapter):
    def format_email_subject(self, subject: str) -> str:
        return f"[{SITE_NAME}] {subject}"

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        domain = get_current_site(self.request).domain if self.request is not None else ""
        site = _Site(SITE_NAME, domain)
        super().send_mail(template_prefix, email, {"current_site": site, **context})

    def get_login_redirect_url(self, request: HttpRequest) -> str:
        kept = request.session.get(SIGNUP_NEXT)
        return str(kept) if kept else str(super().get_login_redirect_url(request))


def keep_the_way(sender: Any, *, request: HttpRequest, user: Any, **kwargs: Any) -> None:
    """allauth's ``user_signed_up``: keep the sign-up's ``?next=`` (checked as allauth checks
    it: this site only)."""
    then = get_next_redirect_url(request)
    if then:
        request.session[SIGNUP_NEXT] = then


def forget_the_way(sender: Any, *, request: HttpRequest, **kwargs: Any) -> None:
    """allauth's ``user_logged_in`` (sent once the sign-in's destination is chosen): the
    sign-up's destination served, or was not needed."""
    session = getattr(request, "session", None)
    if session is not None:
        session.pop(SIGNUP_NEXT, None)
