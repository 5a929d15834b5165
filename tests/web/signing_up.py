"""Signing up as a newcomer does: the form, then the code the email brings, typed on the next
page (docs/decisions/0034-a-sign-up-tells-nothing.md)."""

from __future__ import annotations

import re
from typing import Any

from django.core import mail
from django.test import Client

PASSWORD = "a-long-test-password-9"
CODE = re.compile(r"^\s*([A-Z0-9]{4}-[A-Z0-9]{4})\s*$", re.MULTILINE)


def fill_in(client: Client, email: str, *, then: str = "", name: str = "", **form: str) -> Any:
    """Post the sign-up form (``then``: its ``?next=``); the answer sends to the code page."""
    url = f"/accounts/signup/?next={then}" if then else "/accounts/signup/"
    fields = {
        "email": email,
        "password1": PASSWORD,
        "password2": PASSWORD,
        "display_name": name or email.split("@")[0],
        **form,
    }
    return client.post(url, fields)


def code_sent_to(email: str) -> str:
    """The code in the last email to ``email``, as its reader finds it."""
    sent = [m for m in mail.outbox if email in m.to]
    assert sent, f"no email to {email}"
    found = CODE.search(str(sent[-1].body))
    assert found is not None, sent[-1].body
    return found.group(1)


def type_the_code(client: Client, email: str) -> Any:
    """Type the code mailed to ``email`` on the page the sign-up led to: the answer."""
    page = client.get("/accounts/confirm-email/")
    assert page.status_code == 200, page
    return client.post("/accounts/confirm-email/", {"code": code_sent_to(email)})


def sign_up(client: Client, email: str, *, then: str = "", name: str = "") -> Any:
    """Sign up and confirm the address: the answer to the code (a redirect to ``then``)."""
    filled = fill_in(client, email, then=then, name=name)
    assert filled.status_code == 302, filled.content
    assert filled["Location"].startswith("/accounts/confirm-email/"), filled["Location"]
    confirmed = type_the_code(client, email)
    assert confirmed.status_code == 302, confirmed.content
    return confirmed
