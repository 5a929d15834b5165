"""Persistence of games: a JSON snapshot and a version on the game, an append-only move log.

Rules of the games live in ``games/engines``; rules of the platform (who may move, versions,
idempotency) live in ``games/services``. These models only hold the data. See
``docs/decisions/0001-platform-contract.md`` and ``0002-platform-services.md``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

BOT_NAMES: dict[str, Any] = {
    "random": pgettext_lazy("bot", "random"),
    "greedy": pgettext_lazy("bot", "greedy"),
}
"""The engines' bots by name, as a player reads them (an engine names them in English)."""


def bot_name(bot: str) -> str:
    """ "greedy" -> "glouton bot" said as the reader's language says it ("bot glouton")."""
    return gettext("%(bot)s bot") % {"bot": BOT_NAMES.get(bot, bot)}


class Game(models.Model):
    """One game of one type. ``state`` is the engine state after the Move ``version``."""

    class Status(models.TextChoices):
        OPEN = "open", gettext_lazy("open")
        ACTIVE = "active", gettext_lazy("active")
        FINISHED = "finished", gettext_lazy("finished")
        CANCELLED = "cancelled", gettext_lazy("cancelled")

    game_type = models.CharField(max_length=32)
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    seed = models.CharField(max_length=128, blank=True, editable=False)
    seed_hash = models.CharField(max_length=64, blank=True)
    state = models.JSONField(null=True, blank=True, editable=False)
    version = models.PositiveIntegerField(default=0)
    max_seats = models.PositiveSmallIntegerField(default=4)
    turn_hours = models.PositiveIntegerField(default=72)
    max_timeouts = models.PositiveSmallIntegerField(
        default=3,
        help_text="Consecutive missed deadlines after which a player forfeits (0: never).",
    )
    vacation_days = models.PositiveSmallIntegerField(
        default=14,
        help_text="Days each player's vacation may hold this game up, in all (0: none).",
    )
    private = models.BooleanField(default=False)
    deadline = models.DateTimeField(null=True, blank=True)
    # The game tools (games/services/tools.py): a paused game has no deadline running;
    # ``paused_left`` is the time its deadline had left, given back on resuming.
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_left = models.DurationField(null=True, blank=True)
    # The clock (games/clocks.py, docs/decisions/0018-clocks-and-channels.md): a fixed
    # ``turn_hours`` per turn, or a time bank per player with an increment per turn.
    clock = models.CharField(
        max_length=8,
        choices=[
            ("fixed", gettext_lazy("fixed time per turn")),
            ("bank", gettext_lazy("time bank")),
        ],
        default="fixed",
    )
    bank_hours = models.PositiveIntegerField(
        default=72, help_text="Each player's bank at the start."
    )
    increment_hours = models.PositiveIntegerField(
        default=24, help_text="Added to a player's bank for each turn they finish."
    )
    bank_cap_hours = models.PositiveIntegerField(
        default=168, help_text="The increment never takes a bank beyond this."
    )
    weekend_pause = models.BooleanField(
        default=False, help_text="The clock stops over each player's weekend (their zone)."
    )
    clock_started_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the current wait's clock started (later than now: a vacation wait).",
    )
    pause_votes = models.JSONField(
        default=list, blank=True, help_text="Seat orders whose players voted to pause."
    )
    rated = models.BooleanField(
        default=True, help_text="Its result counts towards the players' ratings."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="created_games",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    outcome = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["status", "deadline"], name="game_status_deadline"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(max_seats__gte=2) & Q(max_seats__lte=6), name="game_seats_2_to_6"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_type} #{self.pk} ({self.status})"


class Seat(models.Model):
    """A place at the table: a person, or a bot (``user`` null, ``bot`` its name).

    ``order`` is the engine's seat index once the game has started (before the start: the
    join order). A resigned player keeps the seat row (``user`` stays set) and a bot plays it.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    bot = models.CharField(max_length=32, blank=True)
    order = models.PositiveSmallIntegerField()
    colour = models.CharField(max_length=16, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)
    timeouts = models.PositiveIntegerField(
        default=0, help_text="Deadlines missed in this game, in all."
    )
    timeouts_in_a_row = models.PositiveIntegerField(
        default=0, help_text="Deadlines missed since the player last moved themself."
    )
    vacation_used = models.DurationField(
        default=timedelta(0), help_text="How long this seat's vacation has held the game up."
    )
    preferences = models.JSONField(default=dict, blank=True)
    bank_left = models.DurationField(
        null=True, blank=True, help_text="The player's time bank (bank clock; empty: untouched)."
    )
    resigned = models.BooleanField(default=False)
    resigned_at = models.DateTimeField(null=True, blank=True)
    to_act = models.BooleanField(
        default=False, help_text="The game waits on this seat (kept in step with the state)."
    )
    remind_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="No later than this seat's next reminder before the deadline: set when a "
        "wait on it starts (games.services.clock.schedule_reminders), moved on by the "
        "reminder run (notifications.services.send_reminders), which reads only the seats "
        "due, through a partial index. Empty: no reminder to come.",
    )

    class Meta:
        ordering = ["game_id", "order"]  # the column, not a join to Game
        constraints = [
            models.UniqueConstraint(fields=["game", "order"], name="seat_unique_order"),
            models.UniqueConstraint(
                fields=["game", "user"], condition=Q(user__isnull=False), name="seat_unique_user"
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=False) | ~Q(bot=""), name="seat_user_or_bot"
            ),
        ]
        indexes = [
            models.Index(fields=["user", "to_act"], name="seat_user_to_act"),
            # The reminder run reads only the seats due (issue 15): not every waiting seat.
            models.Index(
                fields=["remind_at"], name="seat_remind_due", condition=Q(remind_at__isnull=False)
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.order} of game #{self.game_id})"

    @property
    def name(self) -> str:
        """How other players call this seat."""
        if self.user is not None:
            return self.user.name
        return bot_name(self.bot)

    @property
    def is_bot(self) -> bool:
        """A bot plays this seat (a bot seat, or a person's seat after they resigned)."""
        return bool(self.bot)


class Move(models.Model):
    """One applied command and the events it produced. Append-only: PostgreSQL refuses any
    UPDATE or DELETE of a row (a trigger, see migration 0002).

    ``seq`` 0 is the setup (no command); a Move with ``command`` null is a platform event (a
    resignation), skipped by the replay. ``batch`` is the ``seq`` of the first Move written by
    the same submission, so a retried idempotency key can return the whole first answer.
    """

    class Source(models.TextChoices):
        WEB = "web", gettext_lazy("web")
        API = "api", gettext_lazy("api")
        EMAIL = "email", gettext_lazy("email")
        SYSTEM = "system", gettext_lazy("system")
        BOT = "bot", gettext_lazy("bot")

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.ForeignKey(
        Seat, on_delete=models.PROTECT, null=True, blank=True, related_name="moves"
    )
    command = models.JSONField(null=True, blank=True)
    text = models.TextField(blank=True)
    events = models.JSONField(default=list, blank=True)
    source = models.CharField(max_length=8, choices=Source.choices)
    # null, not "": a submission without a key must not collide with another (unique).
    idempotency_key = models.CharField(max_length=200, null=True, blank=True)  # noqa: DJ001
    # What the keyed submission asked for (a hash, see services.moves.request_fingerprint), so
    # a key reused for a different request is refused instead of answering the first one.
    # "" on moves without a key and on those written before the field existed.
    request_fingerprint = models.CharField(max_length=64, blank=True, default="")
    batch = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game_id", "seq"]  # the column, not a join to Game
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="move_unique_seq"),
            models.UniqueConstraint(
                fields=["game", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="move_unique_idempotency_key",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.game_id}.{self.seq} {self.text or '(setup)'}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not self._state.adding:
            raise ValueError("the move log is append-only: a Move is never changed")
        super().save(*args, **kwargs)


class TradeOffer(models.Model):
    """A trade one player proposed; it executes through the engine when the last party
    accepts. ``parties`` and ``accepted_by`` are seat orders."""

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("trade offer", "open")  # (not a game's "free" seats)
        EXECUTED = "executed", gettext_lazy("executed")
        FAILED = "failed", gettext_lazy("failed")
        DECLINED = "declined", gettext_lazy("declined")
        WITHDRAWN = "withdrawn", gettext_lazy("withdrawn")
        EXPIRED = "expired", gettext_lazy("expired")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="trade_offers")
    proposer = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="trade_offers")
    command = models.JSONField()
    text = models.TextField(blank=True)
    parties = models.JSONField(default=list)
    accepted_by = models.JSONField(default=list)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    message = models.TextField(blank=True, help_text="Why it failed (the engine's words).")
    closed_by = models.ForeignKey(
        Seat,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The seat that declined or withdrew it (its name is said in each "
        "reader's language where it is shown).",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    turn = models.CharField(
        max_length=100,
        blank=True,
        default="",
        help_text="The engine's turn marker when it was made: it expires when that turn "
        "ends. Empty when the proposer set its expiry time.",
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    move = models.ForeignKey(
        Move, on_delete=models.PROTECT, null=True, blank=True, related_name="trade_offers"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "expires_at"], name="trade_status_expires")]

    def __str__(self) -> str:
        return f"trade #{self.pk} in game #{self.game_id}: {self.text} ({self.status})"


class Invitation(models.Model):
    """An invitation, emailed with a link whose token seats the invitee (a private game too).

    ``email`` is the address the inviter typed; an invitation by a player's name keeps
    none (``""``): the inviter must never see that player's address, and the email goes to
    the account's own (docs/decisions/0024). ``invitee`` is the account it is for, once
    known: found at a *verified* address or by name when it was made, or the account that
    followed the link. It is answered once (``accepted_at`` or ``declined_at``) unless
    the creator withdraws it first. The email is claimed on the row itself (there may be
    no user to key a notification on yet): ``email_due_at`` says when it is (again) due,
    a sender takes it with a conditional UPDATE, and ``emailed_at`` records the send
    (docs/decisions/0013-the-table-on-the-web.md)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(blank=True)
    token = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="invitations_sent",
    )
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="invitations",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    declined_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    email_due_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="While the invitation email is not sent: when a sender may (again) take "
        "it. Empty once sent or given up.",
    )
    email_attempts = models.PositiveSmallIntegerField(default=0)
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            # The resend run reads only the invitations due, not every one ever sent.
            models.Index(
                fields=["email_due_at"],
                name="invitation_email_due",
                condition=Q(email_due_at__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"invitation of {self.addressed_to} to game #{self.game_id}"

    @property
    def addressed_to(self) -> str:
        """Whom the inviter typed, as every door shows it to them: the address they typed,
        else the name of the player they invited by name."""
        if self.email or self.invitee is None:
            return self.email
        return str(self.invitee.name)

    @property
    def mail_to(self) -> str:
        """Where the invitation email goes: the typed address, else the invited account's
        own, read when the email is sent."""
        if self.email or self.invitee is None:
            return self.email
        return str(self.invitee.email)

    @property
    def is_pending(self) -> bool:
        """Not answered and not withdrawn: its link still seats someone."""
        return not (self.accepted_at or self.declined_at or self.withdrawn_at)


class Announcement(models.Model):
    """Committed moves, and changes at an open table (an invitation, a player who joined or
    left), not yet announced to the apps built on the games: the transactional outbox. The
    services write one row in the change's own transaction (so a committed change is never
    lost to a broker outage, and a rolled-back one leaves none); a periodic task claims rows
    with a lease, sends ``hooks.moves_committed`` or ``hooks.table_changed`` and deletes
    them. A claim whose worker died lapses at ``lease_until`` and is taken again (see
    docs/decisions/0012-outbox-and-leases.md)."""

    class Change(models.TextChoices):
        MOVES = "moves", "moves"
        INVITED = "invited", "invited"
        JOINED = "joined", "joined"
        LEFT = "left", "left"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    change = models.CharField(max_length=16, choices=Change.choices, default=Change.MOVES)
    seqs = models.JSONField(default=list, help_text="The seqs of the moves committed together.")
    details = models.JSONField(
        default=dict, blank=True, help_text="The ids a change at the table concerns."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    lease_until = models.DateTimeField(
        null=True, blank=True, help_text="Claimed by a worker until then (empty: free)."
    )
    # (``db_default`` too: the code still running while a deployment migrates inserts rows
    # without these columns.)
    attempts = models.PositiveIntegerField(
        default=0, db_default=0, help_text="Announcements that failed (a receiver raised)."
    )
    last_error = models.CharField(max_length=300, blank=True, default="", db_default="")
    failing_since = models.DateTimeField(
        null=True, blank=True, help_text="The first failure (empty: none, or sent again)."
    )
    given_up_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Still failing ANNOUNCEMENT_GIVE_UP_HOURS after its first failure: no "
        "longer tried, kept until staff send it again (the admin's action) or delete it.",
    )

    class Meta:
        indexes = [
            # The claim's scan in key order, past given-up rows however many there are.
            models.Index(
                fields=["id"],
                condition=models.Q(given_up_at__isnull=True),
                name="announcement_claimable",
            ),
            # The given-up rows, looked for at each claim (none, normally: one probe).
            models.Index(
                fields=["game"],
                condition=models.Q(given_up_at__isnull=False),
                name="announcement_given_up",
            ),
        ]

    def __str__(self) -> str:
        return f"moves {self.seqs} of game #{self.game_id}"


class CalendarFeed(models.Model):
    """A player's secret calendar address (an iCal feed of their deadlines): the token is
    the only credential, since calendar apps cannot sign in; making a new one (the
    profile page) voids the old address at once (docs/decisions/0018)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed"
    )
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"calendar of user #{self.user_id}"


# Table talk lives in its own module of the app (issue 11); importing it here registers it.
from games.talk_models import ChatMessage, ChatMute, PlayerNote  # noqa: E402, F401


class PlayerEvent(models.Model):
    """One thing a player hears of through their channels (the event stream, webhooks):
    written when the games' outbox is drained (games/events.py), so it survives a worker
    crash; ``key`` makes a second drain of the same announcement write nothing. The id is
    the stream's ``Last-Event-ID``: rows are written under one lock, so ids commit in
    order and a reader never skips one that commits later (docs/decisions/0018)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=16)
    key = models.CharField(max_length=100)
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="player_event_once"),
        ]
        indexes = [models.Index(fields=["user", "id"], name="player_event_user_id")]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} for user #{self.user_id}"


class Webhook(models.Model):
    """A player's outbound webhook: their events POSTed to ``url``, signed per Standard
    Webhooks with ``secret``. ``last_event`` is how far it was delivered (the events are
    the queue); ``failures`` counts failed attempts in a row, ``retry_at`` the backoff;
    switched off (``active`` false) after too many, and the player told."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=100)
    active = models.BooleanField(default=True)
    last_event = models.BigIntegerField(default=0)
    failures = models.PositiveSmallIntegerField(default=0)
    retry_at = models.DateTimeField(null=True, blank=True)
    pending = models.BooleanField(
        default=False,
        help_text="The player has events this hook may not have delivered: set when events "
        "are written (games.events.write), cleared when a run claims the hook. The periodic "
        "run reads only these and the hooks whose retry is due, not every hook.",
    )
    last_error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(
                fields=["retry_at"],
                name="webhook_due",
                condition=Q(active=True) & (Q(pending=True) | Q(retry_at__isnull=False)),
            ),
        ]

    def __str__(self) -> str:
        return f"webhook #{self.pk} of user #{self.user_id}"
