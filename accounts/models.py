"""The user: email is the login; the rest is what the turn server needs to reach a player."""

from __future__ import annotations

from typing import Any, ClassVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.contrib.auth.base_user import BaseUserManager
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

MAX_AWAY_DAYS = 30
"""How far ahead a player may set ``away_until`` (each game also caps what it waits)."""

FORMER_DOMAIN = "deleted.invalid"
"""A deleted account keeps its row (games point at it) under ``former-<id>@`` this domain:
``.invalid`` is reserved (RFC 2606), so no email can ever go there (accounts/deletion.py)."""


def zone_named(name: str | None) -> ZoneInfo:
    """The time zone of that name; UTC when it is empty or unknown (a zone removed from the
    tz database must not break a page or an email)."""
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


class UserManager(BaseUserManager["User"]):
    """Creates users keyed by email (there is no username)."""

    use_in_migrations = True

    def _create(self, email: str, password: str | None, **extra: Any) -> User:
        """A user made by the server (``createsuperuser``, the demo seed, the tests): its
        address is recorded as verified, since whoever made it vouched for it (allauth's own
        signup never comes here and records it unverified until confirmed)."""
        from accounts.addresses import record_verified

        if not email:
            raise ValueError("A user needs an email address")
        user = self.model(email=self.normalize_email(email).lower(), **extra)
        user.set_password(password)
        user.save(using=self._db)
        record_verified(user)
        return user

    def create_user(self, email: str, password: str | None = None, **extra: Any) -> User:
        extra.setdefault("is_staff", False)
        extra.setdefault("is_superuser", False)
        return self._create(email, password, **extra)

    def create_superuser(self, email: str, password: str | None = None, **extra: Any) -> User:
        extra.setdefault("is_staff", True)
        extra.setdefault("is_superuser", True)
        return self._create(email, password, **extra)


def unnamed(number: int | None) -> str:
    """What an account without a display name is called, in the reader's language."""
    if number is None:
        return gettext("a new player")
    return pgettext("an account without a display name", "Player %(number)s") % {"number": number}


NAME_CONSTRAINT = "display_name_once"
"""The constraint that keeps a display name (without case) one person's."""


class User(AbstractUser):
    """A player (or admin). Logs in with email; ``display_name`` is shown to other players."""

    username = None  # type: ignore[assignment]
    first_name = None  # type: ignore[assignment]
    last_name = None  # type: ignore[assignment]
    email = models.EmailField(_("email address"), unique=True)
    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    language = models.CharField(_("language"), max_length=8, default="en")
    away_until = models.DateTimeField(
        _("away until"),
        null=True,
        blank=True,
        help_text=_("Vacation: deadlines of games waiting on this player wait until then."),
    )

    USERNAME_FIELD = "email"
    REQUIRED_FIELDS: ClassVar[list[str]] = []

    objects: ClassVar[UserManager] = UserManager()  # type: ignore[assignment]

    class Meta(AbstractUser.Meta):
        constraints: ClassVar[list[models.BaseConstraint]] = [
            # One person per name, whatever its case (accounts.rules.check_display_name).
            models.UniqueConstraint(
                Lower("display_name"),
                condition=~models.Q(display_name=""),
                name=NAME_CONSTRAINT,
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        """What other players see: the display name; "former player" (in the reader's
        language) once the account is deleted. An account without a name (made by the
        admin, or older than names chosen at sign-up) is "Player 12", its number: never the
        part of its address before the @, which a table, a league and a visitor of a public
        game would read (docs/decisions/0030)."""
        if self.is_former:
            return gettext("former player")
        return self.display_name or unnamed(self.pk)

    @property
    def is_former(self) -> bool:
        """The account was deleted: the row stays, anonymised (see accounts/deletion.py)."""
        return self.email.endswith(f"@{FORMER_DOMAIN}")

    @property
    def zone(self) -> ZoneInfo:
        """The player's time zone, for every time shown to them (pages and emails)."""
        return zone_named(self.time_zone)
