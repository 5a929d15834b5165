"""Two people choosing the same display name at the same moment: the check before the save
passes for both, the database's constraint refuses the second save. Each door answered that
with a 500 (noticed by the thirteenth session); now the profile page and the API refuse as
for a name already taken, and a sign-up, whose account exists by then, gets the name
numbered and is told.

The other person's save is made to land between the check and the save by a database
execute wrapper: just before the door's UPDATE of the account, another account with the name
is inserted on the same connection (what a concurrent sign-up's commit looks like from
here)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection
from knox.models import AuthToken

from accounts.models import User
from tests.web.helpers import page_text
from tests.web.test_profile import form_data

pytestmark = pytest.mark.django_db


@contextmanager
def someone_takes(name: str) -> Iterator[None]:
    """Another account named ``name`` appears right before the first UPDATE of an account
    that sets a display name."""
    done: list[bool] = []

    def first(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        if not done and sql.startswith('UPDATE "accounts_user"') and "display_name" in sql:
            done.append(True)
            User.objects.create(email="quick@example.org", display_name=name)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(first):
        yield
    assert done, "the door never saved a display name"


def test_the_profile_page_refuses_a_name_taken_since_its_check(client: Any, ada: User) -> None:
    client.force_login(ada)
    with someone_takes("zelda"):
        response = client.post("/profile/", form_data(display_name="Zelda"))
    assert response.status_code == 400
    assert "Zelda is taken: choose another display name." in page_text(response.content.decode())
    ada.refresh_from_db()
    assert ada.display_name != "Zelda"


def test_the_api_refuses_a_name_taken_since_its_check(client: Any, ada: User) -> None:
    _, token = AuthToken.objects.create(user=ada)
    with someone_takes("ZELDA"):
        response = client.patch(
            "/api/v1/me/",
            {"display_name": "Zelda"},
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Token {token}",
        )
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert "Zelda is taken: choose another display name." in str(error), error
    ada.refresh_from_db()
    assert ada.display_name != "Zelda"


def test_a_sign_up_that_lost_the_name_gets_it_numbered_and_is_told(client: Any) -> None:
    zoe = f"zoe-{uuid.uuid4().hex[:12]}@example.org"  # (allauth's limits: per address)
    form = {
        "email": zoe,
        "password1": "a-long-pass-9",
        "password2": "a-long-pass-9",
        "display_name": "Zelda",
    }
    with someone_takes("Zelda"):
        response = client.post("/accounts/signup/", form, follow=True)
    assert response.status_code == 200
    assert User.objects.get(email=zoe).display_name == "Zelda 2"
    said = page_text(response.content.decode())
    assert "Someone took the name Zelda a moment before you: you are Zelda 2." in said, said
