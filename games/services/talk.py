"""Table talk and private notes (issue 11): every door (the board page, the API, an email
reply) says things through :func:`say` and reads them through :func:`messages_for`, so the
one rule of who reads what lives here: a message to the table is read by the game's seated
players, a private one by its two players only; a hidden message by nobody; a muted
player's messages not by whoever muted them. See docs/decisions/0016-table-talk-and-trades.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import ChatMessage, ChatMute, Game, PlayerNote, Seat
from games.services.errors import InvalidRequest, NotFound, ServiceError
from games.services.hooks import table_changed_after_commit
from games.services.lookups import seat_of
from games.services.naming import seat_colour

MAX_LENGTH = 1000
"""Characters in one message (a paragraph: table talk, not letters)."""
RATE = 10
"""Messages one player may post in a game per :data:`RATE_WINDOW`."""
RATE_WINDOW = timedelta(minutes=1)
NOTE_LENGTH = 20000
"""Characters of a player's notes in one game."""
PAGE = 20
"""Messages per page (the board page, the API)."""


class TooManyMessages(ServiceError, code="too_many_messages", status=429):
    """More than :data:`RATE` messages in :data:`RATE_WINDOW`: the message says when to
    try again; nothing was posted."""


def _game(game: Game | int) -> Game:
    if isinstance(game, Game):
        return game
    found = Game.objects.filter(pk=game).first()
    if found is None:
        raise NotFound(_("there is no game #%(game)s") % {"game": game}, game=game)
    return found


def say(
    *,
    game: Game | int,
    user: Any,
    text: str,
    to: int | None = None,
    source: str = ChatMessage.Source.API,
    key: str = "",
) -> ChatMessage:
    """Post a message of ``user``'s seat: to the table, or to the seat of order ``to`` (a
    private message). ``key``: a door's retry (the same email's line) posts it once and
    gets the first message back. Refused, with nothing written: a caller not seated, an
    empty or too long text, a recipient who is not another player, too many messages."""
    found = _game(game)
    seat = seat_of(found, user)
    body = clean_text(text)
    recipient = _recipient(found, seat, to)
    if key:
        already = ChatMessage.objects.filter(author=seat, key=key).first()
        if already is not None:
            return already
    _check_rate(seat)
    try:
        with transaction.atomic():
            message = ChatMessage.objects.create(
                game=found,
                author=seat,
                to=recipient,
                author_user_id=seat.user_id,
                to_user_id=recipient.user_id if recipient is not None else None,
                text=body,
                source=source,
                key=key,
            )
            # the event feed hears of it through the outbox, after the commit (0018)
            table_changed_after_commit(found.pk, "message", message_id=message.pk)
            return message
    except IntegrityError:  # the same key posted at the same moment by a redelivery
        return ChatMessage.objects.get(author=seat, key=key)


def clean_text(text: str) -> str:
    """The message as kept: stripped, not empty, at most :data:`MAX_LENGTH` characters.
    (It is escaped wherever it is shown, never here: the text is the player's.)"""
    body = (text or "").strip()
    if not body:
        raise InvalidRequest(_("say something: the message is empty"))
    if len(body) > MAX_LENGTH:
        raise InvalidRequest(
            _("a message holds at most %(max)s characters (this one has %(n)s)")
            % {"max": MAX_LENGTH, "n": len(body)}
        )
    return body


def _recipient(game: Game, seat: Seat, to: int | None) -> Seat | None:
    if to is None:
        return None
    recipient = game.seats.select_related("user").filter(order=to).first()
    if recipient is None or recipient.user is None or recipient.pk == seat.pk:
        raise InvalidRequest(
            _("a private message goes to another player of game #%(game)s: seat %(to)s is not")
            % {"game": game.pk, "to": to}
        )
    return recipient


def _check_rate(seat: Seat) -> None:
    since = timezone.now() - RATE_WINDOW
    recent = ChatMessage.objects.filter(author=seat, created_at__gt=since).count()
    if recent >= RATE:
        raise TooManyMessages(
            _(
                "at most %(n)s messages a minute in one game: wait a minute and say it again "
                "(nothing was posted)"
            )
            % {"n": RATE}
        )


def seat_named(game: Game, name: str) -> Seat | None:
    """The seat a player means by ``name`` (an email's ``to Bob:``): its player's name or
    its colour (in the reader's language or English), any case; None if none or several."""
    wanted = " ".join(name.split()).casefold()
    found = []
    for seat in game.seats.select_related("user"):
        if seat.user is None:
            continue
        names = {seat.name.casefold()}
        if seat.colour:
            names |= {seat.colour.casefold(), str(seat_colour(seat)).casefold()}
        if wanted in names:
            found.append(seat)
    return found[0] if len(found) == 1 else None


# -- reading ------------------------------------------------------------------------------


def visible_to(seat: Seat) -> QuerySet[ChatMessage]:
    """The messages ``seat``'s player may read in its game, newest first: to the table or
    between them and another player, not hidden, not by a player they muted."""
    return (
        _readable(seat)
        .select_related("author__user", "to__user", "author_user", "to_user")
        .order_by("-pk")
    )


def _readable(seat: Seat) -> QuerySet[ChatMessage]:
    """A private message is read by the two people it was written between: not by whoever
    holds one of their seats later (a replacement)."""
    muted = ChatMute.objects.filter(seat=seat).values("muted_id")
    person = seat.user_id
    return (
        ChatMessage.objects.filter(game_id=seat.game_id, hidden_at__isnull=True)
        .filter(
            Q(to__isnull=True)
            | Q(to=seat, to_user_id=person)
            | Q(author=seat, author_user_id=person)
        )
        .exclude(author_id__in=muted)
    )


def newest_seen(seat: Seat) -> tuple[int | None, int]:
    """The newest message ``seat``'s player may read and how many they may read: a board
    page open on the game redraws its talk when either changes (a message said, hidden, or
    from a player just muted)."""
    found = _readable(seat).order_by().aggregate(newest=Max("pk"), count=Count("pk"))
    return found["newest"], found["count"]


def messages_for(
    *,
    game: Game | int,
    user: Any,
    since: int | None = None,
    before: int | None = None,
    limit: int = PAGE,
) -> list[ChatMessage]:
    """What ``user`` may read of the game's talk, newest first: after message ``since``
    (a client that has read up to it), or before message ``before`` (an older page).
    Only the game's seated players read its talk."""
    return messages_seen(seat_of(_game(game), user), since=since, before=before, limit=limit)


def messages_seen(
    seat: Seat, *, since: int | None = None, before: int | None = None, limit: int = PAGE
) -> list[ChatMessage]:
    """:func:`messages_for` for a caller that has read the player's seat already (the board
    page's chat panel)."""
    found = visible_to(seat)
    if since is not None:
        found = found.filter(pk__gt=since)
    if before is not None:
        found = found.filter(pk__lt=before)
    return list(found[: max(1, min(limit, 100))])


def said_since(seat: Seat, when: datetime | None) -> list[ChatMessage]:
    """What was said to ``seat``'s player by the others since ``when`` (None: ever), oldest
    first: the turn email's "said since your last move"."""
    found = visible_to(seat).exclude(author=seat, author_user_id=seat.user_id)
    if when is not None:
        found = found.filter(created_at__gt=when)
    return list(reversed(found[:PAGE]))


def muted_orders(seat: Seat) -> set[int]:
    """The seat orders ``seat``'s player muted (the page offers "unmute" for them)."""
    return set(ChatMute.objects.filter(seat=seat).values_list("muted__order", flat=True))


def set_mute(*, game: Game | int, user: Any, order: int, muted: bool) -> None:
    """Mute (or unmute) the player at seat ``order`` for ``user``: their messages are no
    longer shown to them (on the page, in the API, in their emails). Idempotent."""
    found = _game(game)
    seat = seat_of(found, user)
    other = found.seats.filter(order=order).first()
    if other is None or other.pk == seat.pk:
        raise InvalidRequest(
            _("mute another player of game #%(game)s: seat %(order)s is not one")
            % {"game": found.pk, "order": order}
        )
    if muted:
        ChatMute.objects.get_or_create(seat=seat, muted=other)
    else:
        ChatMute.objects.filter(seat=seat, muted=other).delete()


def hide_messages(*, messages: Iterable[ChatMessage], by: Any) -> int:
    """Staff hide messages (the admin's action): kept for the record, shown to nobody."""
    pks = [m.pk for m in messages]
    return ChatMessage.objects.filter(pk__in=pks, hidden_at__isnull=True).update(
        hidden_at=timezone.now(), hidden_by=by
    )


# -- private notes ------------------------------------------------------------------------


def note_of(*, game: Game | int, user: Any) -> str:
    """``user``'s notes in the game ("" if none yet): theirs only, kept after the end."""
    return note_in(seat_of(_game(game), user))


def note_in(seat: Seat) -> str:
    """:func:`note_of` for a caller that has read the player's seat already."""
    if seat.user_id is None:  # (a bot's seat keeps no notes)
        return ""
    found = PlayerNote.objects.filter(seat=seat, user_id=seat.user_id)  # (the person's own)
    return found.values_list("text", flat=True).first() or ""


def save_note(*, game: Game | int, user: Any, text: str) -> str:
    """Replace ``user``'s notes in the game with ``text`` (at most :data:`NOTE_LENGTH`)."""
    seat = seat_of(_game(game), user)
    body = (text or "").strip()
    if len(body) > NOTE_LENGTH:
        raise InvalidRequest(
            _("notes hold at most %(max)s characters (these have %(n)s)")
            % {"max": NOTE_LENGTH, "n": len(body)}
        )
    PlayerNote.objects.update_or_create(seat=seat, user=seat.user, defaults={"text": body})
    return body
