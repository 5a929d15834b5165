"""Table talk: what the players say to each other in a game, whom they do not want to hear,
and the notes each keeps for themself (issue 11, docs/decisions/0016-table-talk-and-trades.md).

A module of the games app (imported at the end of ``games.models``): the messages belong to a
game and its seats, and every door (web, API, email) reaches them through
``games.services.talk``. Nothing here is part of the engine's state or of the move log: talk
never changes the game, and it is not replayed.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext


class ChatMessage(models.Model):
    """One message of a seat's player: to the whole table (``to`` empty) or to one seat
    (a whisper, seen only by its two players). ``key`` makes a door's retry post it once
    (an email's Message-ID and line). Staff hide a message (``hidden_at``); it stays for
    the record but nobody sees it any more."""

    class Source(models.TextChoices):
        WEB = "web", "web"
        API = "api", "api"
        EMAIL = "email", "email"

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey("games.Seat", on_delete=models.CASCADE, related_name="said")
    to = models.ForeignKey(
        "games.Seat",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="whispered",
        help_text="Empty: to the whole table; else a private message to this seat.",
    )
    # A seat may change hands (a replacement): a message stays its writer's, and a private
    # one stays between the two people it was written between.
    author_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    text = models.TextField()
    source = models.CharField(max_length=8, choices=Source.choices)
    key = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["game_id", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["author", "key"], condition=~Q(key=""), name="chat_message_key_once"
            ),
        ]
        indexes = [models.Index(fields=["game", "-id"], name="chat_game_newest")]

    def __str__(self) -> str:
        return f"message #{self.pk} in game #{self.game_id}"

    @property
    def written_by(self) -> Any:
        """The author's seat with the person who wrote the message (the seat's player now
        may be another: a replacement)."""
        return _as_held(self.author, self.author_user_id, lambda: self.author_user)

    @property
    def written_to(self) -> Any:
        """The recipient's seat (None: to the table) with the person it was written to."""
        if self.to is None:
            return None
        return _as_held(self.to, self.to_user_id, lambda: self.to_user)


def _as_held(seat: Any, user_id: int | None, user: Callable[[], Any]) -> Any:
    """``seat`` as held by the person ``user_id`` (the seat itself while it still is; the
    person read only when it is not). Nobody recorded (talk from before the people were
    kept, whose replacement did not say whom it replaced): "an earlier player", never the
    seat's player of now."""
    if seat.user_id == user_id:
        return seat
    held = copy.copy(seat)
    if user_id is None:
        held.user = get_user_model()(display_name=gettext("an earlier player"))
    else:
        held.user = user()
    return held


class ChatMute(models.Model):
    """A seat's player does not want to read another seat's player in this game."""

    seat = models.ForeignKey("games.Seat", on_delete=models.CASCADE, related_name="mutes")
    muted = models.ForeignKey("games.Seat", on_delete=models.CASCADE, related_name="muted_by")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["seat", "muted"], name="chat_mute_once")]

    def __str__(self) -> str:
        return f"seat {self.seat_id} mutes seat {self.muted_id}"


class PlayerNote(models.Model):
    """The private notes of a seat's player in a game: seen by nobody else, kept after the
    end (deleted with the seat or the account). A player who takes over a seat starts with
    notes of their own: the ones before stay their writer's."""

    seat = models.ForeignKey("games.Seat", on_delete=models.CASCADE, related_name="notes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, related_name="+"
    )
    text = models.TextField(blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["seat", "user"], name="player_note_once"),
        ]

    def __str__(self) -> str:
        return f"notes of seat {self.seat_id}"
