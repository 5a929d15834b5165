"""A group of radios or checkboxes drawn by the forms' shared partial
(``templates/_form_fields.html``: the league forms, the settings page, the lobby's) is a
fieldset named by its legend and described by its help and its errors. Found by an
accessibility review (WCAG 1.3.1, 3.3.2): the settings page's "Game email:" and "Muted
games:" were a ``<label>`` for no control beside the group, which had no name for a screen
reader."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django import forms
from django.template.loader import render_to_string
from django.test import Client

from accounts.models import User
from tests.web.helpers import page_text

pytestmark = pytest.mark.django_db


def _group(html: str, name: str) -> tuple[str, str]:
    """The opening tag of the fieldset holding the inputs called ``name``, and its inside."""
    for found in re.finditer(r"(<fieldset[^>]*>)(.*?)</fieldset>", html, re.S):
        if f'name="{name}"' in found.group(2):
            return found.group(1), found.group(2)
    raise AssertionError(f"no fieldset holds the inputs called {name}")


def _described_by(html: str, tag: str) -> list[str]:
    """What the ids in ``tag``'s aria-describedby say, in their order."""
    ids = re.search(r'aria-describedby="([^"]*)"', tag)
    assert ids, f"{tag} is described by nothing"
    said = []
    for id_ in ids.group(1).split():
        element = re.search(rf'<(\w+)[^>]* id="{id_}"[^>]*>(.*?)</\1>', html, re.S)
        assert element, f"nothing has the id {id_}"
        said.append(page_text(element.group(2)).strip())
    return said


def _labels_for_nothing(html: str) -> list[str]:
    """Labels that name no control: no ``for`` and no control inside."""
    return [
        page_text(inside).strip()
        for attrs, inside in re.findall(r"<label([^>]*)>(.*?)</label>", html, re.S)
        if "for=" not in attrs and "<input" not in inside and "<select" not in inside
    ]


def test_the_settings_choices_are_groups_named_by_their_legend(
    ada: User, bob: User, client: Client, make_game: Callable[..., Any]
) -> None:
    make_game(ada, bob)  # a game to mute: the muted games are checkboxes
    client.force_login(ada)
    html = client.get("/profile/").content.decode()

    tag, inside = _group(html, "game_email")
    assert re.search(r"<legend>\s*Game email:\s*</legend>", inside)
    assert inside.count('type="radio"') == 3
    assert _described_by(html, tag) == ["Game-over emails come with either of the first two."]

    tag, inside = _group(html, "muted")
    assert re.search(r"<legend>\s*Muted games:\s*</legend>", inside)
    assert 'type="checkbox"' in inside
    assert _described_by(html, tag) == ["No email about these games until you unmute them."]

    assert _labels_for_nothing(html) == []


def test_a_refused_choice_is_said_to_the_group(ada: User, client: Client) -> None:
    ada.language = "fr"
    ada.save(update_fields=["language"])
    client.force_login(ada)
    html = client.post(
        "/profile/",
        {"display_name": "Ada", "language": "fr", "time_zone": "UTC", "digest_hour": "8"},
    ).content.decode()  # (no game email chosen)

    tag, inside = _group(html, "game_email")
    assert re.search(r"<legend>\s*E-mails de partie\xa0:\s*</legend>", inside)
    assert 'aria-invalid="true"' in inside
    help_text, error = _described_by(html, tag)
    assert help_text.startswith("Les e-mails de fin de partie arrivent")
    assert error == "Ce champ est obligatoire."


class _Choices(forms.Form):
    """Any form's group, in a form drawn without a class (a league page's)."""

    colour = forms.ChoiceField(
        label="Colour", choices=[("red", "Red"), ("blue", "Blue")], widget=forms.RadioSelect
    )
    name = forms.CharField(label="Name")


def test_any_form_draws_a_group_as_a_fieldset_and_a_field_as_a_label() -> None:
    html = render_to_string("_form_fields.html", {"form": _Choices()})
    tag, inside = _group(html, "colour")
    assert tag == '<fieldset class="field">'
    assert re.search(r"<legend>\s*Colour:\s*</legend>", inside)
    assert '<label for="id_name">Name:</label>' in html
    assert html.count("<fieldset") == 1
