"""The email choices in the profile API (``/api/v1/me/``, under ``email_choices``): read
and written with the rest of the profile, in one transaction (``accounts.api.PROFILE_PARTS``,
registered by ``NotificationsConfig.ready``). The rules are the settings page's
(``notifications.choices``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from rest_framework import serializers

from accounts.api import ProfilePart
from accounts.forms import email_initial, my_games
from accounts.models import User
from notifications import services as notifications
from notifications.choices import check_lead_times, check_quiet_hours


class EmailChoicesSerializer(serializers.Serializer[Any]):
    """The player's email choices (issue 13); a PATCH may send any of them, the others
    stay as saved."""

    game_email = serializers.ChoiceField(
        choices=["each", "digest", "none"],
        required=False,
        help_text="each: an email every turn; digest: one daily digest; none.",
    )
    digest_hour = serializers.IntegerField(
        min_value=0, max_value=23, required=False, help_text="In your time zone."
    )
    reminders = serializers.BooleanField(required=False)
    remind_before = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Up to 3 lead times in whole hours (1 to 168) before a deadline; "
        "[]: the server's default.",
    )
    quiet_from = serializers.TimeField(required=False, allow_null=True, format="%H:%M")
    quiet_until = serializers.TimeField(required=False, allow_null=True, format="%H:%M")
    muted = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="The ids of the games you muted (the whole set), among the games you "
        "sit in that are not over.",
    )

    def get_attribute(self, instance: Any) -> Any:
        """Read from the saved choices (the user has no such attribute), so the same field
        is read back in answers and written in requests."""
        return email_choices_of(instance)

    def validate_remind_before(self, value: list[int]) -> list[int]:
        if not value:
            return []
        try:
            return check_lead_times(value)
        except ValueError as exc:
            raise serializers.ValidationError(str(exc)) from exc


def email_choices_of(user: User) -> dict[str, Any]:
    """The saved choices, as the API shows them."""
    pref = notifications.preference(user)
    initial = email_initial(pref, [g.pk for g in notifications.muted_games(user)])
    quiet_from, quiet_until = initial["quiet_from"], initial["quiet_until"]
    return {
        **initial,
        "remind_before": list(pref.remind_before or []),
        "quiet_from": quiet_from.strftime("%H:%M") if quiet_from else None,
        "quiet_until": quiet_until.strftime("%H:%M") if quiet_until else None,
        "muted": sorted(initial["muted"]),
    }


def save_email_choices(user: User, changes: dict[str, Any]) -> None:
    """Merge the changes into the saved choices, check them whole, save them."""
    pref = notifications.preference(user)
    merged = {**email_initial(pref, [g.pk for g in notifications.muted_games(user)])}
    merged.update(changes)
    try:
        check_quiet_hours(
            merged["quiet_from"],
            merged["quiet_until"],
            merged["game_email"] == "digest",
            merged["digest_hour"],
        )
    except ValueError as exc:
        raise serializers.ValidationError({"email_choices": [str(exc)]}) from exc
    allowed = set(my_games(user).values_list("pk", flat=True))
    if "muted" in changes and not set(changes["muted"]) <= allowed:
        unknown = sorted(set(changes["muted"]) - allowed)
        raise serializers.ValidationError(
            {
                "email_choices": [
                    gettext("not a game of yours under way: %(games)s")
                    % {"games": ", ".join(f"#{g}" for g in unknown)}
                ]
            }
        )
    if isinstance(merged["remind_before"], str):  # (as the form's initial spells it)
        merged["remind_before"] = list(pref.remind_before or [])
    notifications.set_preferences(
        user=user,
        turn_emails=merged["game_email"] != "none",
        digest=merged["game_email"] == "digest",
        digest_hour=merged["digest_hour"],
        reminders=merged["reminders"],
        remind_before=merged["remind_before"],
        quiet_from=merged["quiet_from"],
        quiet_until=merged["quiet_until"],
        muted=merged["muted"],
    )


def part() -> ProfilePart:
    """The profile part to register."""
    return ProfilePart(
        serializer=lambda: EmailChoicesSerializer(
            required=False,
            help_text="How game email comes: every turn, a daily digest or none; reminder "
            "lead times; quiet hours; muted games. Read back under the same name.",
        ),
        read=email_choices_of,
        save=save_email_choices,
        zone_changed=lambda user: notifications.follow_time_zone(user=user),
    )
