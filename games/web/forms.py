"""The web forms: they check the shape of the input and hand it to one service function;
every rule (whose turn, which version, what is legal, who may start) is the service's."""

from __future__ import annotations

import secrets
from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _

from games.engines.registry import get_engine, slugs
from games.services.games import MAX_TIMEOUTS, MAX_TURN_HOURS, MAX_VACATION_DAYS
from games.web.present import game_name


def edition_choices(game_type: str) -> list[Any]:
    """The editions the game's engine declares (no "default": the first is preselected)."""
    _key, values = get_engine(game_type).editions
    return [(value, label) for value, label in values]


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
    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)
    gamble_lot = forms.RegexField(
        regex=r"^[A-Za-z][0-9]{1,2}$", required=False, max_length=3, widget=forms.HiddenInput
    )
    gamble_amount = forms.IntegerField(
        label=_("Bet ($m)"), required=False, min_value=1, max_value=1000
    )
    expected_version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    idempotency_key = forms.CharField(max_length=64, widget=forms.HiddenInput)

    @classmethod
    def fresh(cls, *, version: int, text: str = "", key: str | None = None) -> MoveForm:
        """The form for a page showing ``version``, with a key of its own (``key``: the
        stand-in of a page to be stored, replaced by a fresh key on each answer)."""
        return cls(
            initial={
                "text": text,
                "expected_version": version,
                "idempotency_key": key if key is not None else new_key(),
            }
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        command = (data.get("choice") or "").strip() or (data.get("text") or "").strip()
        if data.get("gamble_lot"):
            if self.has_error("gamble_amount"):  # (its own message says why: one is enough)
                return data
            if not data.get("gamble_amount"):
                raise forms.ValidationError(_("Say how much to bet."))
            command = f"gamble {data['gamble_lot']} {data['gamble_amount']}"
        if not command:
            raise forms.ValidationError(_("Type a command, or pick one of the buttons."))
        data["command"] = command
        return data


class OfferExpiryForm(forms.Form):
    """When a proposed offer lapses, if the proposer says (a date and time, as a browser's
    ``datetime-local`` input sends it); the service judges it (in the future, within its
    limit). Left empty, the offer lapses when the current turn ends."""

    expires_at = forms.DateTimeField(
        label=_("Expires at (optional)"),
        required=False,
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("Left empty, the offer expires when the current turn ends."),
        error_messages={
            "invalid": _("Give the expiry as a date and a time, for example 2026-05-01 18:00.")
        },
    )


class TradeForm(OfferExpiryForm):
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
    """A new game of one type (chosen first, ``game_type``): only that game's editions and
    seat range, each option with a line on what it changes."""

    game_type = forms.ChoiceField(choices=(), widget=forms.HiddenInput)
    edition = forms.ChoiceField(
        label=_("Edition"),
        choices=(),
        help_text=_("Which rules the game is played by."),
    )
    seats = forms.IntegerField(label=_("Players"), initial=4)
    turn_hours = forms.IntegerField(
        label=_("Hours per turn"),
        min_value=1,
        max_value=MAX_TURN_HOURS,  # (the input's max: the browser stops a larger one)
        initial=72,
        help_text=_("How long each player has to act before the deadline."),
    )
    max_timeouts = forms.IntegerField(
        label=_("Missed turns before a forfeit"),
        required=False,
        min_value=0,
        max_value=MAX_TIMEOUTS,
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
        max_value=MAX_VACATION_DAYS,
        initial=14,
        help_text=_("How long the game waits for a player who set an away date."),
    )
    clock = forms.ChoiceField(
        label=_("Clock"),
        choices=[("fixed", _("Fixed time per turn")), ("bank", _("Time bank"))],
        required=False,  # (left out: fixed)
        initial="fixed",
        help_text=_(
            "Fixed: the hours per turn above, every turn. Time bank: each player has a bank "
            "of hours, spends what they think and earns the increment each turn."
        ),
    )
    bank_hours = forms.IntegerField(
        label=_("Time bank at the start (hours)"),
        required=False,
        min_value=1,
        max_value=720,
        initial=72,
        help_text=_("Time bank: each player's time at the first turn."),
    )
    increment_hours = forms.IntegerField(
        label=_("Increment (hours)"),
        required=False,
        min_value=1,
        max_value=720,
        initial=24,
        help_text=_("Time bank: added to a player's bank for each turn they finish."),
    )
    cap_hours = forms.IntegerField(
        label=_("Largest bank (hours)"),
        required=False,
        min_value=1,
        max_value=720,
        initial=168,
        help_text=_("Time bank: the increment never takes a bank beyond this."),
    )
    weekend_pause = forms.BooleanField(
        label=_("Weekend pause"),
        required=False,
        initial=False,
        help_text=_(
            "The clock stops over each player's weekend (Saturday and Sunday, their zone)."
        ),
    )
    private = forms.BooleanField(
        label=_("Private (by invitation only)"),
        required=False,
        initial=False,
        help_text=_("Only the people you invite can see it and take a seat."),
    )
    rated = forms.BooleanField(
        label=_("Rated"),
        required=False,
        initial=True,
        help_text=_("Its result counts towards the players' ratings for this game."),
    )
    invite = forms.CharField(
        label=_("Invite"),
        required=False,
        max_length=1000,
        help_text=_("Names on Lords or email addresses, separated by commas (optional)."),
    )

    def __init__(self, *args: Any, game_type: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        engine = get_engine(game_type)
        kind = self.fields["game_type"]
        assert isinstance(kind, forms.ChoiceField)
        kind.choices = [(slug, game_name(slug)) for slug in slugs()]
        self.initial.setdefault("game_type", game_type)
        edition = self.fields["edition"]
        assert isinstance(edition, forms.ChoiceField)
        edition.choices = edition_choices(game_type)
        low, high = max(2, engine.min_players), min(6, engine.max_players)
        seats = self.fields["seats"]
        assert isinstance(seats, forms.IntegerField)
        seats.min_value, seats.max_value = low, high
        seats.widget.attrs.update({"min": low, "max": high})
        seats.validators += [MinValueValidator(low), MaxValueValidator(high)]
        seats.help_text = _("%(game)s is for %(low)s to %(high)s players; bots may fill seats.") % {
            "game": engine.name,
            "low": low,
            "high": high,
        }
        self.initial.setdefault("seats", min(4, high))

    def invitees(self) -> list[str]:
        """The names and addresses typed in the invite field, in order, once each."""
        typed = [w.strip() for w in (self.cleaned_data.get("invite") or "").split(",")]
        return list(dict.fromkeys(w for w in typed if w))

    def service_arguments(self) -> dict[str, Any]:
        """The keyword arguments of ``services.create_game`` (but the creator). The edition
        goes to the game's own option; the engine judges it."""
        data = self.cleaned_data
        key, _values = get_engine(data["game_type"]).editions
        return {
            "game_type": data["game_type"],
            "options": {key: data["edition"]},
            "seats": data["seats"],
            "turn_hours": data["turn_hours"],
            **{
                name: data[name]
                for name in ("max_timeouts", "vacation_days")
                if data[name] is not None  # left empty: the service's default
            },
            "private": data["private"],
            "rated": data["rated"],
            "clock": self.clock_settings(),
        }

    def clock_settings(self) -> dict[str, Any]:
        """The clock as the service takes it (it checks the values: one set of rules)."""
        data = self.cleaned_data
        kind = data.get("clock") or "fixed"
        clock: dict[str, Any] = {"kind": kind, "weekend_pause": data["weekend_pause"]}
        if kind == "bank":
            for name in ("bank_hours", "increment_hours", "cap_hours"):
                if data.get(name) is not None:
                    clock[name] = data[name]
        return clock


class InviteForm(forms.Form):
    """Whom to invite: a player's name or an email address (the service tells them apart
    and looks the name up)."""

    who = forms.CharField(
        label=_("Invite a player"),
        max_length=254,
        strip=True,
        help_text=_("Their name on Lords, or any email address (they can sign up)."),
        error_messages={"required": _("Type a player's name or an email address.")},
    )
