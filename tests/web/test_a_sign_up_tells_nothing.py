"""A sign-up says nothing of whether its address has an account: a taken address leads to the
same code page, word for word, as a new one, and its owner is told by email instead
(docs/decisions/0034-a-sign-up-tells-nothing.md)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from accounts.models import User
from tests.conftest import PASSWORD as OWNERS_PASSWORD
from tests.web.helpers import page_text
from tests.web.signing_up import CODE, PASSWORD, fill_in

pytestmark = pytest.mark.django_db


def _fresh(name: str) -> str:
    """A new address each run: allauth's limits (one email per address in 10 s) are cached."""
    return f"{name}-{uuid.uuid4().hex[:12]}@example.org"


def _as_seen(client: Client, email: str, then: str) -> tuple[Any, ...]:
    """What the person signing up sees: the answer to the form, the page it leads to, the
    answer to a wrong code; the address they typed is blanked where the page repeats it."""
    filled = fill_in(client, email, then=then, name=f"Zed {uuid.uuid4().hex[:6]}")
    page = client.get(filled["Location"])
    wrong = client.post(filled["Location"], {"code": "AAAA-AAAA"})
    return (
        filled.status_code,
        filled["Location"],
        page.status_code,
        page_text(page.content.decode()).replace(email, "ADDRESS"),
        wrong.status_code,
        page_text(wrong.content.decode()).replace(email, "ADDRESS"),
    )


def test_a_taken_address_and_a_new_one_cannot_be_told_apart(make_user: Any) -> None:
    owner = make_user(_fresh("owner"))
    taken, new = (
        _as_seen(Client(), owner.email, "/games/"),
        _as_seen(Client(), _fresh("new"), "/games/"),
    )
    assert taken == new
    assert taken[:3] == (302, "/accounts/confirm-email/", 200)
    assert "Confirmation email sent to ADDRESS." in taken[3]
    assert "We've sent a code to ADDRESS" in taken[3]
    assert "Incorrect code." in taken[5]


def test_the_owner_of_a_taken_address_is_told_by_email_and_keeps_the_account(
    make_user: Any,
) -> None:
    owner = make_user(_fresh("owner"))
    fill_in(Client(), owner.email, name="Somebody Else")
    (sent,) = [m for m in mail.outbox if owner.email in m.to]
    assert "Account Already Exists" in sent.subject
    assert "an account using that email address already exists" in sent.body
    assert "/accounts/password/reset/" in sent.body  # the way back in if they forgot
    assert CODE.search(str(sent.body)) is None  # nothing to type: no account is made
    assert User.objects.filter(email__iexact=owner.email).count() == 1
    assert not User.objects.filter(display_name="Somebody Else").exists()
    owner.refresh_from_db()
    assert owner.check_password(OWNERS_PASSWORD) and not owner.check_password(PASSWORD)


def test_a_new_address_gets_its_code_and_the_account_waits_for_it() -> None:
    email = _fresh("new")
    client = Client()
    fill_in(client, email, name="Newcomer")
    (sent,) = [m for m in mail.outbox if email in m.to]
    assert CODE.search(str(sent.body)) is not None
    assert "_auth_user_id" not in client.session  # signed in only once the code is typed


def test_the_code_comes_from_lords_not_from_the_hosts_name() -> None:
    """Found by play-testing ``make run``: "[localhost:8000] … Hello from localhost:8000!"."""
    email = _fresh("signed")
    fill_in(Client(), email, name=f"Sig {uuid.uuid4().hex[:6]}")
    [sent] = [m for m in mail.outbox if email in m.to]
    assert sent.subject.startswith("[Lords] ")
    assert "Hello from Lords!" in str(sent.body)
    assert "localhost" not in sent.subject
