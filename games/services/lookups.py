"""Reading a game for a use case: its engine, its row under the write lock, the caller's
seat, and the refusals that say why a game or a caller cannot act (translated where raised)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext as _

from accounts.addresses import verified_emails
from games.engines.base import GameEngine
from games.engines.registry import get_engine
from games.models import Game, Seat
from games.services import rows
from games.services.errors import (
    GameNotActive,
    InvalidRequest,
    NotAllowed,
    NotFound,
)


def engine_for(game: Game) -> GameEngine:
    try:
        return get_engine(game.game_type)
    except (LookupError, ImportError) as exc:
        raise InvalidRequest(
            _("game type '%(type)s' is not available: %(reason)s")
            % {"type": game.game_type, "reason": exc}
        ) from exc


def lock_game(game: Game | int) -> Game:
    """Re-read the game row under ``SELECT ... FOR UPDATE``: every writer of a game takes
    this lock first, so two submissions for one game are serialised and the second sees the
    version the first wrote (and is refused as stale, or applied after it)."""
    pk = game.pk if isinstance(game, Game) else game
    try:
        return Game.objects.select_for_update().get(pk=pk)
    except Game.DoesNotExist:
        raise NotFound(_("there is no game #%(game)s") % {"game": pk}, game=pk) from None


def lock_game_with_seats(game: Game | int) -> rows.Locked:
    """:func:`lock_game` and the seats in order in one round trip, for the move path
    (``rows``: made once, without the ORM's query building)."""
    pk = game.pk if isinstance(game, Game) else game
    found = rows.locked_game_with_seats(pk)
    if found is None:
        raise NotFound(_("there is no game #%(game)s") % {"game": pk}, game=pk)
    return found


def require_signed_in(user: Any) -> None:
    """Refuse an anonymous caller before anything else: every game action needs a person."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotAllowed(_("sign in first"))


def may_see(game: Game, user: Any) -> bool:
    """Public games are open to everyone; private ones to their players, their creator,
    staff, and the people an invitation still waits on: one naming their account, or none
    yet and sent to one of their *verified* addresses (anyone can sign up with an address
    they do not own: it opens nothing until confirmed, ``accounts.addresses``). A declined,
    withdrawn or accepted invitation opens nothing (an accepted one seated them)."""
    if not game.private or getattr(user, "is_staff", False):
        return True
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if game.created_by_id == user.pk or game.seats.filter(user=user).exists():
        return True
    waiting = game.invitations.filter(
        accepted_at__isnull=True, declined_at__isnull=True, withdrawn_at__isnull=True
    )
    mine = Q(invitee=user) | Q(invitee__isnull=True, typed__in=verified_emails(user))
    return waiting.annotate(typed=Lower("email")).filter(mine).exists()


def check_visible(game: Game, user: Any) -> None:
    """Refuse a game ``user`` may not see (:func:`may_see`): the one place of the rule, for
    the selectors and every door that looks a game up, and for the use cases that find no
    seat of the caller (a stranger to a private game learns nothing of its state)."""
    if not may_see(game, user):
        raise NotAllowed(_("game #%(game)s is private") % {"game": game.pk}, game=game.pk)


def seat_of(game: Game, user: Any) -> Seat:
    """The user's seat, or :class:`NotAllowed` (the private game's refusal for a caller who
    may not see it)."""
    require_signed_in(user)
    seat = game.seats.select_related("user").filter(user=user).first()
    if seat is None:
        check_visible(game, user)
        raise NotAllowed(not_seated(game))
    return seat


def not_seated(game: Game) -> str:
    """The refusal of a caller who has no seat in ``game``."""
    return _("you are not seated in game #%(game)s: only its players may do this") % {
        "game": game.pk
    }


def not_active(game: Game) -> str:
    """Why a game that is not running takes no move, and what is left to do (a function:
    the sentence is translated in the language active when it is raised)."""
    if game.status == Game.Status.OPEN:
        message = _(
            "game #%(game)s has not started yet: moves begin when its creator (or, if the "
            "creator left, one of its players) starts it"
        )
    elif game.status == Game.Status.FINISHED:
        message = _(
            "game #%(game)s is finished: no more moves; its record and its verification are open"
        )
    elif game.status == Game.Status.CANCELLED and game.started_at is not None:  # a tool's abort
        message = _(
            "game #%(game)s was aborted while it was played: nothing more can be played in it"
        )
    elif game.status == Game.Status.CANCELLED:
        message = _("game #%(game)s was cancelled before it started: nothing can be played in it")
    else:
        message = _("game #%(game)s is %(status)s: it is not running")
    return message % {"game": game.pk, "status": game.get_status_display()}


def require_active(game: Game) -> None:
    """Refuse a game that is not running, saying why and what is left to do."""
    if game.status != Game.Status.ACTIVE:
        raise GameNotActive(not_active(game), status_now=game.status)
    if game.paused_at is not None:  # the game tools' pause (games/services/tools.py)
        raise GameNotActive(
            _("game #%(game)s is paused: no move is taken and no deadline runs until it resumes")
            % {"game": game.pk},
            status_now="paused",
        )


def copy_into(target: Game, source: Game) -> None:
    """Bring the caller's instance up to date with the row we wrote."""
    if target is source:
        return
    for f in Game._meta.concrete_fields:
        setattr(target, f.attname, getattr(source, f.attname))


def seats_by_order(game: Game) -> dict[int, Seat]:
    return {s.order: s for s in game.seats.select_related("user")}


def seats_in_order(game: Game) -> list[Seat]:
    """Every seat of the game with its user, in one query (the write path reads them once
    and uses them for the caller's seat, the bots, the waiting flags and the answer)."""
    return list(Seat.objects.filter(game_id=game.pk).select_related("user").order_by("order"))


def seat_among(seats: Sequence[Seat], game: Game, user: Any) -> Seat:
    """:func:`seat_of`, from seats already read (a seated caller costs no query)."""
    require_signed_in(user)
    seat = next((s for s in seats if s.user_id is not None and s.user_id == user.pk), None)
    if seat is None:
        check_visible(game, user)
        raise NotAllowed(not_seated(game))
    return seat
