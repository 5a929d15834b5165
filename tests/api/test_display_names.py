"""A display name is shown to every other player (boards, emails, standings): both doors that
set it (the API's ``PATCH /api/v1/me/`` and the settings page ``/profile/``) refuse control and
format characters and over-long names with the same message, and change nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from tests.api.helpers import Player, assert_error, body
from tests.web.helpers import page_text

pytestmark = pytest.mark.django_db

REFUSED = [
    ("Ada\r\nBcc: everyone", "control characters"),
    ("Ada\nLovelace", "control characters"),
    ("Ada\tL.", "control characters"),
    ("Ada\x00", "Null characters are not allowed"),  # both frameworks' own check, first
    ("Ada\x1b[31m", "control characters"),
    ("Ada\u202eecalevol", "control characters"),  # right-to-left override (format)
    ("Ada\u200b", "control characters"),  # zero-width space (format)
    ("Ada\u2028L.", "control characters"),  # line separator
    ("x" * 41, "at most 40 characters"),
]


def _settings_form(**changes: Any) -> dict[str, Any]:
    from tests.web.test_profile import form_data

    return form_data(**{"display_name": "Ada", **changes})


@pytest.mark.parametrize(("name", "message"), REFUSED)
def test_the_api_refuses_a_bad_name_and_keeps_the_old_one(
    alice: Player, name: str, message: str
) -> None:
    error = assert_error(alice.patch("/me/", {"display_name": name}), 400, "invalid")
    assert message in error["message"]
    assert "display_name" in error["detail"]["fields"]
    assert User.objects.get(pk=alice.user.pk).display_name == "alice"


@pytest.mark.parametrize(("name", "message"), REFUSED)
def test_the_settings_page_refuses_a_bad_name_and_keeps_the_old_one(
    client: Client, ada: User, name: str, message: str
) -> None:
    ada.display_name = "Countess"
    ada.save()
    client.force_login(ada)
    response = client.post("/profile/", _settings_form(display_name=name))
    assert response.status_code == 400
    html = response.content.decode()
    field = html.split('id="id_display_name"', 1)[1].split('class="field', 1)[0]
    assert message in page_text(field)  # next to the field
    ada.refresh_from_db()
    assert ada.display_name == "Countess"


def test_both_doors_give_the_same_message(client: Client, alice: Player) -> None:
    api = assert_error(alice.patch("/me/", {"display_name": "A\nB"}), 400)["message"]
    client.force_login(alice.user)
    page = page_text(client.post("/profile/", _settings_form(display_name="A\nB")).content.decode())
    assert api.split(": ", 1)[1] in page


def test_surrounding_spaces_are_trimmed_at_both_doors(client: Client, alice: Player) -> None:
    changed = alice.patch("/me/", {"display_name": "  Ada Lovelace  "})
    assert changed.status_code == 200, changed.content
    assert body(changed)["display_name"] == "Ada Lovelace"

    client.force_login(alice.user)
    response = client.post("/profile/", _settings_form(display_name=" " + "y" * 40 + " "))
    assert response.status_code == 302
    assert User.objects.get(pk=alice.user.pk).display_name == "y" * 40


@pytest.mark.parametrize("name", ["Zoë", "李小龙", "Jean-Luc Picard", "d'Artagnan", "Ω" * 40])
def test_ordinary_names_in_any_script_are_kept(alice: Player, name: str) -> None:
    changed = alice.patch("/me/", {"display_name": name})
    assert changed.status_code == 200, changed.content
    assert User.objects.get(pk=alice.user.pk).display_name == name


def test_a_name_is_required_and_one_persons(alice: Player, bob: Player) -> None:
    """An empty name showed the part of the email address before the @ to everyone (found
    by a privacy test); two players could share a name."""
    for name in ("   ", "BOB"):
        refused = alice.patch("/me/", {"display_name": name})
        assert refused.status_code == 400, refused.content
    assert body(alice.get("/me/"))["name"] == "alice"
