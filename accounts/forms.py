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
from accounts.rules import check_away_until, check_display_name, time_zones


def zone_choices() -> list[tuple[str, str]]:
    return [(zone, zone) for zone in sorted(time_zones())]


class ProfileForm(forms.ModelForm):
    """Display name, language, time zone and vacation (saved on the user), and the two email
    switches (``turn_emails``, ``reminders``: handed to ``notifications.services``).
    ``away_until`` is read in the time zone active while the form is bound (the user's)."""

    # No ``max_length`` here: ``accounts.rules.check_display_name`` says it, as the API does.
    display_name = forms.CharField(
        label=_("Display name"),
        required=False,
        help_text=_("What other players see (empty: your email's name)."),
    )
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
    turn_emails = forms.BooleanField(
        label=_("Email me when it is my turn and when a game ends"), required=False
    )
    reminders = forms.BooleanField(label=_("Email me a reminder before a deadline"), required=False)

    class Meta:
        model = User
        fields = ("display_name", "language", "time_zone", "away_until")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["away_until"].help_text = gettext(
            "Vacation: until then, the games waiting on you push their deadline to your "
            "return. At most %(days)s days ahead; leave it empty when you are not away."
        ) % {"days": MAX_AWAY_DAYS}

    def clean_display_name(self) -> str:
        try:
            return check_display_name(self.cleaned_data.get("display_name") or "")
        except ValidationError as exc:
            raise forms.ValidationError(exc.messages) from exc

    def clean_away_until(self) -> datetime | None:
        value: datetime | None = self.cleaned_data.get("away_until")
        try:
            check_away_until(value)
        except ValidationError as exc:
            raise forms.ValidationError(exc.messages) from exc
        return value

    def email_choices(self) -> dict[str, Any]:
        """The keyword arguments of ``notifications.services.set_preferences``."""
        return {
            "turn_emails": self.cleaned_data["turn_emails"],
            "reminders": self.cleaned_data["reminders"],
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
