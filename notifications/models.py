"""What the notifications app stores: each person's email choices, and one row per email
(claimed before it is sent, so a retried or duplicated task never sends it twice; it keeps
the email itself until it is sent, so a lost worker's email goes out again unchanged)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class EmailPreference(models.Model):
    """A person's choices about game email (no row: everything on)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="email_preference"
    )
    turn_emails = models.BooleanField(default=True, help_text="'Your turn' and 'game over' emails.")
    reminders = models.BooleanField(default=True, help_text="Reminders before a deadline.")
    unsubscribed_at = models.DateTimeField(
        null=True, blank=True, help_text="When the unsubscribe link turned everything off."
    )
    # Issue 13: how the 'your turn' news comes (docs/decisions/0017-email-choices-and-digest.md).
    digest = models.BooleanField(
        default=False,
        help_text="With turn_emails on: one daily digest of the games waiting on the player "
        "instead of an email per turn.",
    )
    digest_hour = models.PositiveSmallIntegerField(
        default=8, help_text="The hour (0-23, in the player's zone) the digest is sent."
    )
    digest_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="The next digest moment in UTC (set while the digest is on): the hourly run "
        "reads only the rows due, through an index, however many players there are.",
    )
    quiet_from = models.TimeField(
        null=True, blank=True, help_text="Quiet hours start (the player's zone): nothing sent."
    )
    quiet_until = models.TimeField(
        null=True, blank=True, help_text="Quiet hours end: what waited is sent then."
    )
    remind_before = models.JSONField(
        default=list,
        blank=True,
        help_text="Reminder lead times in hours before a deadline, largest first (empty: "
        "the server's NOTIFICATIONS_REMIND_BEFORE_HOURS).",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            models.Index(
                fields=["digest_at"],
                name="email_digest_due",
                condition=models.Q(digest_at__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"email preferences of {self.user}"


class GameMute(models.Model):
    """A game the player muted: no email about it (nor in the digest) until unmuted. The
    answers to their own replies still come: they asked."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="muted_games"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="mutes")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="game_mute_once")]

    def __str__(self) -> str:
        return f"game #{self.game_id} muted by {self.user_id}"


class Notification(models.Model):
    """One email to one person about one game: ``kind`` + ``key`` say which (the game
    version it was about, or "end"). The unique row is the claim: whoever creates it sends;
    everyone else does nothing. A claim is a lease: a row not ``sent`` whose ``due_at`` has
    passed (a failed send waiting for its retry, or a sender that died mid-send) is taken
    back by one caller with a conditional UPDATE and sent again from the stored message,
    with the same Message-ID (see docs/decisions/0012-outbox-and-leases.md)."""

    class Kind(models.TextChoices):
        TURN = "turn", "your turn"
        REMINDER = "reminder", "reminder"
        GAME_OVER = "game_over", "game over"
        ANSWER = "answer", "answer to an emailed move"  # key: a digest of the Message-ID
        FORFEIT = "forfeit", "forfeit after missed deadlines"  # key: "forfeit"
        # The table (notifications/table.py): who sits down, who leaves, the start.
        JOINED = "joined", "a player joined"  # key: "seat<pk of the new seat>"
        LEFT = "left", "a player left"  # key: "seat<pk of the seat given up>"
        STARTED = "started", "the game started"  # key: "start"
        # Game-less rows (issue 13): the daily digest, and the answer to a reply to it.
        DIGEST = "digest", "daily digest"  # key: "d<local date>"
        DIGEST_ANSWER = "digest_answer", "answer to a reply to the digest"  # key: as ANSWER
        # Trade offers (issue 11, notifications/offers.py): key "o<offer>-<event>[-<seat>]".
        OFFER = "offer", "a trade offer to answer"
        OFFER_ANSWER = "offer_answer", "an answer to the player's trade offer"
        OFFER_CLOSED = "offer_closed", "a trade offer executed, failed, declined or expired"

    class Status(models.TextChoices):
        SENDING = "sending", "sending"
        SENT = "sent", "sent"
        FAILED = "failed", "failed"
        # Stored and held through the recipient's quiet hours: due_at is their end.
        WAITING = "waiting", "waiting for the end of quiet hours"
        # Not sent: by the time it could go (quiet hours over, a retry), it was no longer
        # true (a 'your turn' or a reminder for a turn that had ended, a game over).
        DROPPED = "dropped", "not sent: out of date"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="notifications",
        help_text="Empty for the emails about no one game (the digest and its answers).",
    )
    seat = models.ForeignKey(
        "games.Seat", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    key = models.CharField(max_length=32)
    version = models.PositiveIntegerField(help_text="The game version the email was about.")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.SENDING)
    attempts = models.PositiveSmallIntegerField(default=1)
    due_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="While not sent: when the claim lapses (sending) or the retry is due "
        "(failed); then the periodic task sends it again. Empty once sent or given up.",
    )
    error = models.TextField(blank=True)
    message_id = models.CharField(max_length=255, blank=True)
    subject = models.CharField(max_length=300, blank=True)
    body_text = models.TextField(blank=True, help_text="The email's text part, as sent.")
    body_html = models.TextField(
        blank=True, help_text="The email's HTML part, kept until it is sent (for a resend)."
    )
    headers = models.JSONField(
        default=dict,
        blank=True,
        help_text="From, To, Reply-To and the extra headers (Message-ID, threading, "
        "unsubscribe), so a resend is the same email.",
    )
    verdict = models.JSONField(
        null=True,
        blank=True,
        help_text="An answer's first verdict on the incoming message, recorded before the "
        'answer is sent: {"status": "played"} or {"status": "refused", "error", "received"}. '
        "A redelivery resends it instead of judging the message again.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game", "kind", "key"], name="notification_once"
            ),
            # (NULLs are distinct in the constraint above: the game-less emails have theirs.)
            models.UniqueConstraint(
                fields=["user", "kind", "key"],
                condition=models.Q(game__isnull=True),
                name="notification_once_without_game",
            ),
        ]
        indexes = [
            # The resend sweep reads only the rows that wait (a handful), whatever the size
            # of the table.
            models.Index(
                fields=["due_at"],
                name="notification_waiting",
                condition=models.Q(due_at__isnull=False),  # (a sent row has none)
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.key} of game #{self.game_id} to {self.user_id} ({self.status})"
