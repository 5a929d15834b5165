"""Leagues, their members, seasons, entries and the games of a season.

A season's games are ordinary games (``games.Game``): the link lives here, on the leagues
side (:class:`SeasonGame`), so the platform knows nothing of leagues. Rules (who manages a
league, pairing, standings) live in ``leagues/services.py`` and ``leagues/standings.py``.
See ``docs/decisions/0006-leagues.md``.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class League(models.Model):
    """A league of one game type (and options) with its admins and members."""

    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    game_type = models.CharField(_("game type"), max_length=32)
    options = models.JSONField(_("game options"), default=dict, blank=True)
    description = models.TextField(_("description"), blank=True)
    admins = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="administered_leagues", blank=True
    )
    open = models.BooleanField(
        _("open membership"),
        default=True,
        help_text=_("Anyone signed in may join; otherwise only an admin adds members."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="created_leagues",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # The defaults of its seasons' games (an admin may change them per season).
    players_per_game = models.PositiveSmallIntegerField(_("players per table"), default=2)
    turn_hours = models.PositiveIntegerField(_("hours per turn"), default=72)
    max_timeouts = models.PositiveSmallIntegerField(
        _("missed deadlines before a forfeit"), default=3
    )
    vacation_days = models.PositiveSmallIntegerField(_("vacation days per game"), default=14)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_memberships"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league_id", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="membership_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.league}"


class Season(models.Model):
    """A season: ``draft`` (entries open) -> ``running`` (its games exist) -> ``finished``."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=80, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    starts_at = models.DateTimeField(_("starts"), null=True, blank=True)
    ends_at = models.DateTimeField(_("ends"), null=True, blank=True)
    players_per_game = models.PositiveSmallIntegerField(_("players per game"), default=2)
    rounds = models.PositiveSmallIntegerField(
        # (not a round of the round robin, SeasonGame.round, nor a player's turn: a word
        # of its own in Italian, docs/decisions/0036)
        pgettext_lazy("how many times a season's pairing is played", "cycles"),
        default=1,
        help_text=_(
            "2-player seasons: how many times the whole round robin is played; "
            "bigger games: how many times groups are drawn."
        ),
    )
    turn_hours = models.PositiveIntegerField(_("hours per turn"), default=72)
    max_timeouts = models.PositiveSmallIntegerField(
        _("missed deadlines before a forfeit"), default=3
    )
    vacation_days = models.PositiveSmallIntegerField(_("vacation days per game"), default=14)
    pairing_seed = models.CharField(
        max_length=64, blank=True, help_text=_("Drawn at the start; public: it only pairs.")
    )
    enrolment_open = models.BooleanField(
        _("enrolment open"), default=True, help_text=_("Members may enter while it is open.")
    )
    smallest_table = models.PositiveSmallIntegerField(
        _("smallest table"),
        null=True,
        blank=True,
        help_text=_(
            "Tables may be this small when the players do not divide evenly (empty: "
            "every table is full)."
        ),
    )
    divisions = models.PositiveSmallIntegerField(_("divisions"), default=1)
    movers = models.PositiveSmallIntegerField(
        _("promoted and relegated"),
        default=1,
        help_text=_(
            "How many players go up from each division and down from the one above "
            "when the next season is opened."
        ),
    )
    previous = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="following",
    )
    """The finished season this one was opened from ("open the next season"): one next
    season per season, held by the database (a double click opened two, both startable:
    docs/decisions/0036)."""
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["league_id", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="season_unique_number"),
            models.CheckConstraint(
                condition=Q(players_per_game__gte=2) & Q(players_per_game__lte=6),
                name="season_players_2_to_6",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.league} — {self.title}"

    @property
    def title(self) -> str:
        return self.name or _("Season %(number)s") % {"number": self.number}


class SeasonEntry(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="season_entries"
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    division = models.PositiveSmallIntegerField(_("division"), default=1)

    class Meta:
        ordering = ["season_id", "entered_at", "id"]
        verbose_name_plural = "season entries"
        constraints = [
            models.UniqueConstraint(fields=["season", "user"], name="entry_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.season}"


class SeasonGame(models.Model):
    """One game of a season, and the round it belongs to (1-based)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="season_games")
    game = models.OneToOneField("games.Game", on_delete=models.PROTECT, related_name="season_game")
    round = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["season_id", "round", "game_id"]

    def __str__(self) -> str:
        return f"game #{self.game_id} of {self.season} (round {self.round})"


class Removal(models.Model):
    """An admin removed ``user`` from ``league``: they do not join again by themselves (an
    open league's "Join" button let them straight back in); an admin's invitation, or a
    request an admin accepts, makes them a member again and this row goes
    (docs/decisions/0036). Leaving by oneself leaves no row."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="removals")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_removals"
    )
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    removed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="removal_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} removed from {self.league}"


class JoinRequest(models.Model):
    """A request to join a league by approval; an admin accepts it (a membership) or
    refuses it (the row goes)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="join_requests")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_requests"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league_id", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="join_request_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} asks to join {self.league}"


INVITATION_LIFETIME = timedelta(days=30)
"""How long a league's invitation waits for an answer."""


class LeagueInvitation(models.Model):
    """An invitation to become a member, emailed with a link; following it (signed in) and
    accepting makes the person a member: nobody is put in a league without saying yes.

    By address (``email``, what the admin typed): whoever follows the link, as the games'
    invitations by address. By a player's name (``invitee``, ``email`` empty): the email
    goes to that account's own address, which the admin never sees, and only that account
    accepts it (docs/decisions/0024 and 0028)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(blank=True)
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,  # (never an invitation by name left for anyone to take)
        null=True,
        blank=True,
        related_name="league_invitations",
    )
    token = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    """Its admin took it back before it was answered: its link seats nobody."""

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # One or the other: an address typed, or the account named.
            models.CheckConstraint(
                condition=Q(invitee__isnull=True) & ~Q(email="")
                | Q(invitee__isnull=False) & Q(email=""),
                name="league_invitation_address_or_invitee",
            ),
        ]

    def __str__(self) -> str:
        return f"invitation of {self.addressed_to} to {self.league}"

    @property
    def addressed_to(self) -> str:
        """Whom the admin typed, as they may see it: the address, else the player's name."""
        return self.email if self.invitee is None else str(self.invitee.name)

    @property
    def expires_at(self) -> datetime:
        """When its link stops working if nobody followed it (OGS: 30 days): an address
        typed once is not a way into the league for good (docs/decisions/0033)."""
        return self.created_at + INVITATION_LIFETIME


class Mail(models.Model):
    """One league email to one address, rendered when it was decided (in the recipient's
    language) and written in the same transaction as what it tells: an outbox row. A sender
    takes it with a conditional UPDATE (``due_at`` passed, not sent) and sends it; a failed
    send waits for the next ``send_mail`` (docs/decisions/0014-league-admins.md)."""

    class Kind(models.TextChoices):
        INVITATION = "invitation", _("invitation")
        ANNOUNCEMENT = "announcement", _("announcement")
        TOOL = "tool", _("game tool")
        REMOVED = "removed", _("removal from a league")
        SEASON_OVER = "season_over", _("end of a season")

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, null=True, blank=True, related_name="mails"
    )
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    to = models.EmailField()
    subject = models.CharField(max_length=300)
    body_text = models.TextField()
    body_html = models.TextField(blank=True)
    headers = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    due_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(
                fields=["due_at"], name="league_mail_due", condition=Q(due_at__isnull=False)
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.to} ({'sent' if self.sent_at else 'waiting'})"
