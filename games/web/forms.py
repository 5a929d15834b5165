"""The web forms: they check the shape of the input and hand it to one service function;
every rule (whose turn, which version, what is legal, who may start) is the service's."""

from __future__ import annotations

import secrets
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engines.registry import get_engine, slugs
from games.web.present import game_name


def edition_choices() -> list[Any]:
    """The editions each engine declares, grouped by game ("" keeps the game's default)."""
    groups: list[Any] = [("", _("default"))]
    for slug in slugs():
        _key, values = get_engine(slug).editions
        groups.append((game_name(slug), [(f"{slug}:{value}", label) for value, label in values]))
    return groups


def new_key() -> str:
    """A fresh idempotency key for one rendering of the move form."""
    return secrets.token_urlsafe(18)


class MoveForm(forms.Form):
    """Commands typed in the notation (one a line or ``;``), or one legal command picked
    with a button (``choice``). ``expected_version`` and ``idempotency_key`` come from the
    page as it was drawn: a stale page is refused, a form sent twice applies once."""

    text = forms.CharField(
        label=_("Your commands"),
        required=False,
        max_length=2000,
        strip=True,
        widget=forms.Textarea(
            attrs={"rows": 3, "autocomplete": "off", "spellcheck": "false", "autofocus": True}
        ),
        help_text=_("One command a line, or several separated by ';'."),
    )
    choice = forms.CharField(required=False, max_length=200, widget=forms.HiddenInput)
    expected_version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    idempotency_key = forms.CharField(max_length=64, widget=forms.HiddenInput)

    @classmethod
    def fresh(cls, *, version: int, text: str = "") -> MoveForm:
        """The form for a page showing ``version``, with a key of its own."""
        return cls(
            initial={"text": text, "expected_version": version, "idempotency_key": new_key()}
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        command = (data.get("choice") or "").strip() or (data.get("text") or "").strip()
        if not command:
            raise forms.ValidationError(_("Type a command, or pick one of the buttons."))
        data["command"] = command
        return data


class TradeForm(forms.Form):
    """A trade in the notation (``trade green pays black 7, ...``); the service parses it
    and the engine judges it."""

    trade = forms.CharField(
        label=_("Your trade"),
        max_length=2000,
        strip=True,
        widget=forms.Textarea(attrs={"rows": 2, "autocomplete": "off", "spellcheck": "false"}),
        help_text=_(
            "Steps separated by commas, for example: "
            "trade green pays black 7, black gives lot D2 to green"
        ),
        error_messages={"required": _("Type a trade in the notation.")},
    )


class CreateGameForm(forms.Form):
    game_type = forms.ChoiceField(label=_("Game"), choices=())
    seats = forms.IntegerField(label=_("Players"), min_value=2, max_value=6, initial=4)
    edition = forms.ChoiceField(label=_("Edition"), choices=(), required=False)
    turn_hours = forms.IntegerField(
        label=_("Hours per turn"),
        min_value=1,
        initial=72,
        help_text=_("How long each player has to act."),
    )
    max_timeouts = forms.IntegerField(
        label=_("Missed turns before a forfeit"),
        required=False,
        min_value=0,
        initial=3,
        help_text=_(
            "A missed deadline plays the safest move for the late player; this many in a row "
            "and they forfeit (a bot plays on). 0: never."
        ),
    )
    vacation_days = forms.IntegerField(
        label=_("Vacation days per player"),
        required=False,
        min_value=0,
        initial=14,
        help_text=_("How long the game waits for a player who set an away date."),
    )
    private = forms.BooleanField(
        label=_("Private (by invitation only)"), required=False, initial=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["game_type"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(slug, game_name(slug)) for slug in slugs()]
        edition = self.fields["edition"]
        assert isinstance(edition, forms.ChoiceField)
        edition.choices = edition_choices()

    def clean(self) -> dict[str, Any]:
        """An edition is picked under its game: it must be one of the chosen game's."""
        data = super().clean() or {}
        picked, game_type = data.get("edition") or "", data.get("game_type")
        if picked and game_type and not picked.startswith(f"{game_type}:"):
            self.add_error(
                "edition",
                _("%(edition)s is not an edition of %(game)s")
                % {"edition": picked.split(":", 1)[1], "game": game_name(game_type)},
            )
        return data

    def service_arguments(self) -> dict[str, Any]:
        """The keyword arguments of ``services.create_game`` (but the creator). The edition
        goes to the game's own option; the engine judges it."""
        data = self.cleaned_data
        options = {}
        if data["edition"]:
            key, _values = get_engine(data["game_type"]).editions
            options[key] = data["edition"].split(":", 1)[1]
        return {
            "game_type": data["game_type"],
            "options": options,
            "seats": data["seats"],
            "turn_hours": data["turn_hours"],
            **{
                name: data[name]
                for name in ("max_timeouts", "vacation_days")
                if data[name] is not None  # left empty: the service's default
            },
            "private": data["private"],
        }
