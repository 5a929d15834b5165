"""Admin for games. The move log is read-only here as in the database; the secret seed is
never shown (only its public hash), so staff cannot peek at future dice either."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from games.models import Announcement, ChatMessage, Game, Invitation, Move, Seat, TradeOffer
from games.services import hooks, talk


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = (
        "order",
        "user",
        "bot",
        "colour",
        "resigned",
        "to_act",
        "timeouts",
        "timeouts_in_a_row",
        "vacation_used",
    )
    readonly_fields = ("to_act",)
    raw_id_fields = ("user",)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """Once a game has started its seats belong to the services (seat order and colour
        are in the engine's state; resigning hands the seat to a bot): staff only look."""
        if obj is not None and obj.status != Game.Status.OPEN:
            return self.fields
        return super().get_readonly_fields(request, obj)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None or obj.status == Game.Status.OPEN

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None or obj.status == Game.Status.OPEN


class ReadOnlyMixin:
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class MoveInline(ReadOnlyMixin, admin.TabularInline):
    model = Move
    extra = 0
    fields = ("seq", "seat", "text", "source", "created_at")
    readonly_fields = fields
    ordering = ("-seq",)
    show_change_link = True

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).select_related("seat__user")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "game_type",
        "status",
        "version",
        "deadline",
        "max_timeouts",
        "private",
        "created_by",
        "created_at",
    )
    list_filter = ("status", "game_type", "private")
    search_fields = ("id", "seats__user__email")
    exclude = ("seed", "state")
    readonly_fields = ("seed_hash", "version", "started_at", "finished_at", "outcome")
    raw_id_fields = ("created_by",)
    inlines = (SeatInline, MoveInline)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """An existing game's status, type and options are the services' to change: marking
        a running game finished here would publish its seed (the API shows the seed of a
        finished game), and other options or type would no longer replay its log."""
        fields = tuple(super().get_readonly_fields(request, obj))
        return fields if obj is None else (*fields, "status", "game_type", "options")


@admin.register(Move)
class MoveAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("game", "seq", "seat", "text", "source", "created_at")
    list_filter = ("source",)
    search_fields = ("game__id", "text")
    list_select_related = ("game", "seat__user")


@admin.register(TradeOffer)
class TradeOfferAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "proposer", "text", "status", "expires_at")
    list_filter = ("status",)
    # An offer is answered and executed by the services only (the last acceptance applies it
    # through the engine): staff see its state and may not forge one.
    readonly_fields = (
        "game",
        "proposer",
        "command",
        "text",
        "parties",
        "accepted_by",
        "status",
        "message",
        "move",
        "created_at",
        "resolved_at",
        "turn",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ("email", "game", "invited_by", "created_at", "accepted_at")
    search_fields = ("email",)
    readonly_fields = ("token",)
    raw_id_fields = ("game", "invited_by")


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Table talk (issue 11): staff read what was reported and hide it (the action); a
    message is never edited nor deleted here: hidden, it stays for the record."""

    list_display = ("id", "game", "author", "to", "text", "created_at", "hidden_at")
    list_filter = ("hidden_at",)
    search_fields = ("text",)
    actions = ("hide",)
    readonly_fields = ("game", "author", "to", "text", "source", "created_at", "hidden_at")

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_staff)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # The action needs it; every field is read-only, so nothing can be edited.
        return bool(request.user.is_staff)

    @admin.action(description="Hide the selected messages from every player")
    def hide(self, request: HttpRequest, queryset: Any) -> None:
        hidden = talk.hide_messages(messages=queryset, by=request.user)
        self.message_user(request, f"{hidden} message(s) hidden.")


@admin.register(Announcement)
class AnnouncementAdmin(admin.ModelAdmin):
    """The outbox (decision 0012): rows waiting to be announced, and those given up after
    failing for ``ANNOUNCEMENT_GIVE_UP_HOURS``. Staff read why, fix the receiver, then send
    them again (the action, for staff who may change them). A row is never edited here (a
    save would write back a lease a worker has just taken, or bring back a row it has just
    announced), and only a given-up row may be deleted, one at a time."""

    list_display = ("id", "game", "seqs", "last_error", "held", "attempts", "given_up_at")
    list_filter = ("change", ("given_up_at", admin.EmptyFieldListFilter))
    actions = ("send_again",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Announcement]:
        """Each row with the count of its game's newer moves rows (:func:`hooks.holds_back`:
        what a failing row keeps back)."""
        return super().get_queryset(request).annotate(newer_moves=hooks.newer_moves_count())

    @admin.display(description="behind it")
    def held(self, obj: Any) -> int | str:
        """The count on a row that holds its game's newer moves back, "-" on the others.
        Not sortable: sorting would count behind every row of the table, not the page's."""
        return int(obj.newer_moves) if hooks.holds_back(obj) else "-"

    readonly_fields = (
        "game",
        "change",
        "seqs",
        "details",
        "created_at",
        "lease_until",
        "attempts",
        "last_error",
        "failing_since",
        "given_up_at",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # The list's action needs it; a row's page is for reading only.
        return obj is None and super().has_change_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        given_up = obj is not None and obj.given_up_at is not None
        return given_up and super().has_delete_permission(request, obj)

    @admin.action(
        description="Send the selected given-up announcements again", permissions=["change"]
    )
    def send_again(self, request: HttpRequest, queryset: Any) -> None:
        count = hooks.send_again(list(queryset.values_list("pk", flat=True)))
        self.message_user(request, f"{count} announcement(s) will be sent at the next run.")
