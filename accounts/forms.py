"""The settings form of the web door (``/profile/``): the profile fields of the user, and
their email choices (kept by notifications). The vacation rule is ``accounts.rules``'s, the
same as the API's, and so is the display name's."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import MAX_AWAY_DAYS, User
from accounts.rules import (
    away_until_to_save,
    shown_away_until,
    time_zones,
)
from accounts.signup import cleaned_display_name, display_name_field
from games.engines.registry import get_engine
from games.models import Game
from notifications.choices import check_lead_times, check_quiet_hours, saved_quiet_hours

GAME_EMAIL_CHOICES = [
    ("each", _("An email for every turn")),
    ("digest", _("One daily digest of the games waiting for me")),
    ("none", _("No game email")),
]


class GameChoiceField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        """``#12 Lords of Vegas`` (the engine's name, in the reader's language)."""
        try:
            name = str(get_engine(obj.game_type).name)
        except (LookupError, ImportError):  # (an engine not installed: its type names it)
            name = obj.game_type
        return f"#{obj.pk} {name}"


ZONE_REGIONS = {
    "Africa": _("Africa"),
    "America": _("America"),
    "Antarctica": _("Antarctica"),
    "Arctic": _("Arctic"),
    "Asia": _("Asia"),
    "Atlantic": _("Atlantic"),
    "Australia": _("Australia"),
    "Europe": _("Europe"),
    "Indian": _("Indian Ocean"),
    "Pacific": _("Pacific"),
}
"""The regions of the IANA names a person lives in; the rest ("Factory", "localtime",
"Etc/GMT+5", the old "US/Eastern" aliases) is left out of the list, but for the player's
own saved zone."""


def zone_choices(kept: str = "UTC") -> list[tuple[str, Any]]:
    """The time zones grouped by region, each labelled by its place ("Argentina / Buenos
    Aires"), UTC first. ``kept``, the player's saved zone, is offered after UTC, by its
    name, when the list leaves it out ("US/Eastern", "Etc/GMT+5": the API takes any IANA
    name): else the page showed UTC, and saving another field stored it (found by
    play-testing)."""
    groups: dict[str, list[tuple[str, str]]] = {region: [] for region in ZONE_REGIONS}
    for zone in sorted(time_zones()):
        region, _sep, place = zone.partition("/")
        if region in groups and place:
            groups[region].append((zone, place.replace("_", " ").replace("/", " / ")))
    grouped: list[tuple[str, Any]] = [
        (str(ZONE_REGIONS[region]), zones) for region, zones in groups.items() if zones
    ]
    listed = {zone for zones in groups.values() for zone, _place in zones}
    extra = [(kept, kept)] if kept in time_zones() and kept not in listed | {"UTC"} else []
    return [("UTC", "UTC"), *extra, *grouped]


class ProfileForm(forms.ModelForm):
    """Display name, language, time zone and vacation (saved on the user), and the two email
    switches (``turn_emails``, ``reminders``: handed to ``notifications.services``).
    ``away_until`` is read in the time zone active while the form is bound (the user's)."""

    display_name = display_name_field()
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        choices=zone_choices,
        help_text=_("Deadlines and times are shown in it."),
    )
    away_until = forms.DateTimeField(
        label=_("Away until"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    game_email = forms.ChoiceField(
        label=_("Game email"),
        choices=GAME_EMAIL_CHOICES,
        widget=forms.RadioSelect,
        help_text=_("Game-over emails come with either of the first two."),
    )
    digest_hour = forms.TypedChoiceField(
        label=_("Digest hour"),
        choices=[(h, f"{h:02d}:00") for h in range(24)],
        coerce=int,
        help_text=_("When your daily digest is sent, in your time zone."),
    )
    reminders = forms.BooleanField(label=_("Email me a reminder before a deadline"), required=False)
    remind_before = forms.CharField(
        label=_("Reminder lead times (hours)"),
        required=False,
        help_text=_("For example: 24, 2 (empty: the server's default)."),
    )
    quiet_from = forms.TimeField(
        label=_("Quiet hours from"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )
    quiet_until = forms.TimeField(
        label=_("Quiet hours until"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        # (emails only: a webhook goes at once, to a machine; found by play-testing)
        help_text=_("No email is sent in your quiet hours: it waits for their end."),
    )
    muted = forms.ModelMultipleChoiceField(
        label=_("Muted games"),
        queryset=Game.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("No email about these games until you unmute them."),
    )

    class Meta:
        model = User
        fields = ("display_name", "language", "time_zone", "away_until")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initial["away_until"] = shown_away_until(self.initial.get("away_until"))
        zone_field = self.fields["time_zone"]
        assert isinstance(zone_field, forms.ChoiceField)
        zone_field.choices = zone_choices(kept=self.instance.time_zone)
        self.fields["away_until"].help_text = gettext(
            "Vacation: until then, the games waiting on you push their deadline to your "
            "return. At most %(days)s days ahead; leave it empty when you are not away."
        ) % {"days": MAX_AWAY_DAYS}
        self.fields["muted"] = GameChoiceField(
            label=self.fields["muted"].label,
            queryset=my_games(self.instance),
            required=False,
            widget=forms.CheckboxSelectMultiple,
            help_text=self.fields["muted"].help_text,
        )

    def clean_display_name(self) -> str:
        return cleaned_display_name(self.cleaned_data.get("display_name"), self.instance)

    def clean_away_until(self) -> datetime | None:
        try:
            return away_until_to_save(self.cleaned_data.get("away_until"), self.instance.away_until)
        except ValidationError as exc:
            raise forms.ValidationError(exc.messages) from exc

    def clean_remind_before(self) -> list[int]:
        value = self.cleaned_data.get("remind_before") or ""
        if not value.strip():
            return []
        try:
            return check_lead_times(value)
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from exc

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        try:
            check_quiet_hours(
                data.get("quiet_from"),
                data.get("quiet_until"),
                data.get("game_email") == "digest",
                int(data.get("digest_hour") or 0),
            )
        except ValueError as exc:
            self.add_error("quiet_until", str(exc))
        return data

    def email_choices(self) -> dict[str, Any]:
        """The keyword arguments of ``notifications.services.set_preferences``."""
        mode = self.cleaned_data["game_email"]
        return {
            "turn_emails": mode != "none",
            "digest": mode == "digest",
            "digest_hour": self.cleaned_data["digest_hour"],
            "reminders": self.cleaned_data["reminders"],
            "remind_before": self.cleaned_data["remind_before"],
            "quiet_from": self.cleaned_data.get("quiet_from"),
            "quiet_until": self.cleaned_data.get("quiet_until"),
            "muted": [game.pk for game in self.cleaned_data.get("muted") or []],
        }


def my_games(user: Any) -> Any:
    """The games a player may mute: those they sit in that are not over."""
    over = [Game.Status.FINISHED, Game.Status.CANCELLED]
    return Game.objects.filter(seats__user=user).exclude(status__in=over).distinct().order_by("pk")


def email_initial(pref: Any, muted: list[int]) -> dict[str, Any]:
    """The email fields as saved (the form's initial values)."""
    mode = "none" if not pref.turn_emails else "digest" if pref.digest else "each"
    quiet_from, quiet_until = saved_quiet_hours(pref)
    return {
        "game_email": mode,
        "digest_hour": pref.digest_hour,
        "reminders": pref.reminders,
        "remind_before": ", ".join(str(h) for h in pref.remind_before or []),
        "quiet_from": quiet_from,
        "quiet_until": quiet_until,
        "muted": muted,
    }


class DeleteAccountForm(forms.Form):
    """The confirmation of "delete my account": the password, so that a session left open on
    a shared computer cannot delete it."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, user: User, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.request = request

    def clean_password(self) -> str:
        from accounts.lockout import locked_message, password_confirms, seconds_left

        password: str = self.cleaned_data["password"]
        if not password_confirms(self.request, self.user, password):
            if getattr(self.request, "axes_locked_out", False):
                raise forms.ValidationError(
                    locked_message(seconds_left(self.request)), code="locked_out"
                )
            raise forms.ValidationError(
                gettext("That is not your password: the account is not deleted."),
                code="wrong_password",
            )
        return password
