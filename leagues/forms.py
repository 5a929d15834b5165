"""The league forms: the shape of the input only; every rule is in the services.

A league's game options come from what its engine declares (its ``editions``, its seat
range), never typed as text or JSON; the Django admin uses :class:`LeagueForm`'s fields
and checks too (``leagues/admin.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.engines.registry import get_engine, slugs
from games.services.games import MAX_TIMEOUTS, MAX_TURN_HOURS, MAX_VACATION_DAYS
from leagues.models import League


def game_choices() -> list[tuple[str, str]]:
    return [(slug, str(get_engine(slug).name)) for slug in slugs()]


def edition_choices(game_type: str) -> list[tuple[str, str]]:
    """The editions the engine declares, the first the default."""
    _key, values = get_engine(game_type).editions
    return [(value, str(label)) for value, label in values]


class LeagueForm(forms.Form):
    """A league: its game (chosen first: ``game_type``), that game's edition and seats per
    table from the engine, its seasons' turn time and timeout policy, open or by approval."""

    name = forms.CharField(label=_("Name"), max_length=80)
    description = forms.CharField(
        label=_("Description"),
        required=False,
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    game_type = forms.ChoiceField(label=pgettext_lazy("a kind of game", "Game"), choices=())
    edition = forms.ChoiceField(label=_("Edition"), choices=())
    players_per_game = forms.TypedChoiceField(label=_("Players per table"), coerce=int, choices=())
    turn_hours = forms.IntegerField(
        label=_("Hours per turn"), min_value=1, max_value=MAX_TURN_HOURS, initial=72
    )
    max_timeouts = forms.IntegerField(
        label=_("Missed turns before a forfeit"),
        min_value=0,
        max_value=MAX_TIMEOUTS,
        initial=3,
        help_text=_(
            "A missed deadline plays the safest move; this many in a row and the "
            "player forfeits. 0: never."
        ),
    )
    vacation_days = forms.IntegerField(
        label=_("Vacation days per player"), min_value=0, max_value=MAX_VACATION_DAYS, initial=14
    )
    membership = forms.ChoiceField(
        label=_("Membership"),
        choices=[
            ("open", _("open: anyone signed in joins")),
            ("approval", _("by approval: an admin accepts each request")),
        ],
        initial="open",
    )

    def __init__(
        self, *args: Any, game_type: str | None = None, fixed_type: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        chosen = game_type or self.data.get("game_type") or self.initial.get("game_type")
        chosen = chosen if chosen in slugs() else slugs()[0]
        engine = get_engine(chosen)
        self._set("game_type", game_choices())
        self._set("edition", edition_choices(chosen))
        low, high = max(2, engine.min_players), min(6, engine.max_players)
        self._set("players_per_game", [(n, str(n)) for n in range(low, high + 1)])
        self.fields["edition"].help_text = _("The editions of %(game)s.") % {"game": engine.name}
        self.initial.setdefault("game_type", chosen)
        if fixed_type:
            self.fields["game_type"].disabled = True

    @classmethod
    def for_the_game_chosen(cls, data: Mapping[str, Any]) -> LeagueForm:
        """The form again, unbound, for the game just chosen ("Show this game's options"):
        what was typed is kept, a choice only where the new game offers it (the edition of
        the game before is not the reader's mistake: judged against the new game, it said
        "Select a valid choice. 2024 is not one of the available choices")."""
        form = cls(game_type=data.get("game_type"))
        for name, field in form.fields.items():
            value = data.get(name)
            if value in (None, "") or field.disabled:
                continue
            if isinstance(field, forms.ChoiceField) and not field.valid_value(value):
                continue
            form.initial[name] = value
        return form

    def _set(self, name: str, choices: list[Any]) -> None:
        field = self.fields[name]
        assert isinstance(field, forms.ChoiceField)
        field.choices = choices

    def options(self) -> dict[str, Any]:
        """The engine options: its edition key and the value chosen."""
        key, _values = get_engine(self.cleaned_data["game_type"]).editions
        return {key: self.cleaned_data["edition"]}

    def settings(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "players_per_game": data["players_per_game"],
            "turn_hours": data["turn_hours"],
            "max_timeouts": data["max_timeouts"],
            "vacation_days": data["vacation_days"],
            "open": data["membership"] == "open",
        }


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Name"), required=False, max_length=80)
    players_per_game = forms.TypedChoiceField(label=_("Players per table"), coerce=int, choices=())
    smallest_table = forms.TypedChoiceField(
        label=_("Smallest table"),
        coerce=int,
        required=False,
        empty_value=None,
        choices=(),
        help_text=_("When the players do not divide evenly; empty: every table full."),
    )
    rounds = forms.IntegerField(
        label=pgettext_lazy("how many times a season's pairing is played", "Cycles"),
        min_value=1,
        max_value=10,
        initial=1,
    )
    divisions = forms.IntegerField(label=_("Divisions"), min_value=1, max_value=10, initial=1)
    turn_hours = forms.IntegerField(
        label=_("Hours per turn"), min_value=1, max_value=MAX_TURN_HOURS
    )
    max_timeouts = forms.IntegerField(
        label=_("Missed turns before a forfeit"), min_value=0, max_value=MAX_TIMEOUTS
    )
    vacation_days = forms.IntegerField(
        label=_("Vacation days per player"), min_value=0, max_value=MAX_VACATION_DAYS
    )

    def __init__(self, *args: Any, league: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        engine = get_engine(league.game_type)
        low, high = max(2, engine.min_players), min(6, engine.max_players)
        sizes = [(n, str(n)) for n in range(low, high + 1)]
        for name, choices in (("players_per_game", sizes), ("smallest_table", [("", "—"), *sizes])):
            field = self.fields[name]
            assert isinstance(field, forms.ChoiceField)
            field.choices = choices
        for name in ("players_per_game", "turn_hours", "max_timeouts", "vacation_days"):
            self.initial.setdefault(name, getattr(league, name))


class PersonForm(forms.Form):
    """A member of the league by display name (appoint an admin, enter a season): never
    found by address (docs/decisions/0028)."""

    who = forms.CharField(
        label=_("Display name"), max_length=254, help_text=_("A member of the league.")
    )


class TakeInForm(forms.Form):
    """Someone to invite: a display name, or an email address (sent an invitation,
    whoever has it)."""

    who = forms.CharField(
        label=_("Invite a player"),
        max_length=254,
        help_text=_(
            "Their display name or an email address. They become a member when they "
            "accept the invitation."
        ),
    )


class InviteForm(forms.Form):
    email = forms.EmailField(label=_("Email address"))


class AnnounceForm(forms.Form):
    subject = forms.CharField(label=_("Subject"), max_length=200)
    body = forms.CharField(
        label=_("Text"), max_length=5000, widget=forms.Textarea(attrs={"rows": 5})
    )


class ToolForm(forms.Form):
    """Every tool says why (the players read it); some take more."""

    why = forms.CharField(label=_("Why"), max_length=500)
    hours = forms.IntegerField(
        label=_("Hours"), required=False, min_value=1, max_value=MAX_TURN_HOURS
    )
    seat = forms.IntegerField(label=_("Seat"), required=False, min_value=0, max_value=5)
    substitute = forms.CharField(
        label=_("Substitute (display name)"), required=False, max_length=254
    )
    bot = forms.CharField(label=_("Bot"), required=False, max_length=32)


class LeagueAdminForm(forms.ModelForm):
    """The Django admin's league form: the same choices and checks as :class:`LeagueForm`
    (the game from the registry, its edition, seats per table in its range; no raw text or
    JSON for the options), which judges the input; the admin adds the slug and the admins."""

    game_type = forms.ChoiceField(label=pgettext_lazy("a kind of game", "Game"), choices=())
    edition = forms.ChoiceField(label=_("Edition"), choices=())
    players_per_game = forms.TypedChoiceField(label=_("Players per table"), coerce=int, choices=())

    class Meta:
        model = League
        fields = [
            "name",
            "slug",
            "description",
            "game_type",
            "edition",
            "players_per_game",
            "turn_hours",
            "max_timeouts",
            "vacation_days",
            "open",
            "admins",
            "created_by",
        ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        game_choices_now = game_choices()
        for name in ("game_type", "edition", "players_per_game"):
            field = self.fields[name]
            assert isinstance(field, forms.ChoiceField)
            if name == "game_type":
                field.choices = game_choices_now
            elif name == "edition":  # every game's editions; the check ties it to the game
                field.choices = [
                    (value, f"{game}: {label}")
                    for slug, game in game_choices_now
                    for value, label in edition_choices(slug)
                ]
            else:
                field.choices = [(n, str(n)) for n in range(2, 7)]
        if self.instance.pk:
            key, _values = get_engine(self.instance.game_type).editions
            self.initial.setdefault("edition", (self.instance.options or {}).get(key))
            if self.instance.seasons.exists():  # its seasons' games are of that type
                self.fields["game_type"].disabled = True

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        site = LeagueForm(
            data={
                "name": data.get("name", ""),
                "description": data.get("description", ""),
                "game_type": data.get("game_type", ""),
                "edition": data.get("edition", ""),
                "players_per_game": data.get("players_per_game", ""),
                "turn_hours": data.get("turn_hours", ""),
                "max_timeouts": data.get("max_timeouts", ""),
                "vacation_days": data.get("vacation_days", ""),
                "membership": "open" if data.get("open") else "approval",
            },
            game_type=data.get("game_type"),
        )
        if site.is_valid():
            self.instance.options = site.options()
        else:
            for name, errors in site.errors.items():
                for error in errors:
                    self.add_error(name if name in self.fields else None, error)
        return data
