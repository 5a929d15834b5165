"""The settings form of the web door (``/profile/``): the profile fields of the user, and
their email choices (kept by notifications). The vacation rule is ``accounts.rules``'s, the
same as the API's."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import MAX_AWAY_DAYS, User
from accounts.rules import check_away_until, time_zones


def zone_choices() -> list[tuple[str, str]]:
    return [(zone, zone) for zone in sorted(time_zones())]


class ProfileForm(forms.ModelForm):
    """Display name, language, time zone and vacation (saved on the user), and the two email
    switches (``turn_emails``, ``reminders``: handed to ``notifications.services``).
    ``away_until`` is read in the time zone active while the form is bound (the user's)."""

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
        labels = {"display_name": _("Display name")}
        help_texts = {"display_name": _("What other players see (empty: your email's name).")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["away_until"].help_text = gettext(
            "Vacation: until then, the games waiting on you push their deadline to your "
            "return. At most %(days)s days ahead; leave it empty when you are not away."
        ) % {"days": MAX_AWAY_DAYS}

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
