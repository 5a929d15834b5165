"""Setting games up and leaving them: create, invite, join, add a bot, leave, start, resign."""

from __future__ import annotations

import math
import secrets
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.addresses import user_at_verified
from games.engines.base import GameEngine, InvalidOptions
from games.engines.registry import get_engine, slugs
from games.engines.rng import SeededRng, new_seed, seed_hash, shuffle
from games.models import Game, Invitation, Move, Seat
from games.services.clock import check_clock, out_of_range
from games.services.errors import GameNotActive, InvalidRequest, NotAllowed, NotFound, ServiceError
from games.services.hooks import table_changed_after_commit
from games.services.lookups import (
    copy_into,
    engine_for,
    lock_game,
    require_active,
    require_signed_in,
    seat_of,
)
from games.services.movelog import Entry, append_moves
from games.services.moves import commit_commands, notify_after_commit
from games.services.saving import final_outcome, finish, save_game
from games.services.trades import close_offers_of

MIN_SEATS, MAX_SEATS = 2, 6
MAX_TURN_HOURS = 24 * 30
MAX_TIMEOUTS = 20
"""At most this many consecutive missed deadlines before a forfeit (0: never forfeit)."""
MAX_VACATION_DAYS = 30
"""At most this many days of vacation per player and game (see 0004-deadlines.md)."""


def may_manage(game: Game, user: Any) -> bool:
    """Staff, or the creator while seated, run an open game; once the creator has left,
    any seated player does (a creator who left no longer adds bots to a table they will
    not play at, as on Board Game Arena, where leaving hands the table on)."""
    if getattr(user, "is_staff", False):
        return True
    seated = set(game.seats.filter(user__isnull=False).values_list("user_id", flat=True))
    me, creator = getattr(user, "pk", None), game.created_by_id
    if creator is not None and creator in seated:
        return me == creator
    return me is not None and me in seated


def _only_managers(game: Game, does: str) -> str:
    """Who :func:`may_manage` lets do it, for a refusal: "only the creator of game #3 starts
    it (or any of its players, once the creator has left)". ``does``: "start", "add_bots",
    "remove_bots" or "withdraw_invitations" (one whole sentence each, for translators)."""
    sentences = {
        "start": _(
            "only the creator of game #%(game)s starts it (or any of its players, once the "
            "creator has left)"
        ),
        "add_bots": _(
            "only the creator of game #%(game)s adds bots to it (or any of its players, once "
            "the creator has left)"
        ),
        "remove_bots": _(
            "only the creator of game #%(game)s removes its bots (or any of its players, once "
            "the creator has left)"
        ),
        "withdraw_invitations": _(
            "only the creator of game #%(game)s withdraws its invitations (or any of its "
            "players, once the creator has left)"
        ),
    }
    return sentences[does] % {"game": game.pk}


def _require_open(game: Game) -> None:
    if game.status != Game.Status.OPEN:
        raise GameNotActive(
            _("game #%(game)s is %(status)s: seats change only before the start")
            % {"game": game.pk, "status": game.get_status_display()},
            status_now=game.status,
        )


def _next_order(game: Game) -> int:
    last = game.seats.order_by("-order").values_list("order", flat=True).first()
    return 0 if last is None else last + 1


def create_game(
    *,
    creator: Any,
    game_type: str,
    options: Mapping[str, Any] | None = None,
    seats: int = 4,
    turn_hours: int = 72,
    private: bool = False,
    max_timeouts: int = 3,
    vacation_days: int = 14,
    rated: bool = True,
    clock: Mapping[str, Any] | None = None,
) -> Game:
    """An open game with the creator in the first seat (``rated``: its result counts
    towards the players' ratings, docs/decisions/0014). ``options`` are checked by the engine
    for ``seats`` players and stored as given; the start normalises them for the actual
    player count. The timeout policy: ``turn_hours`` per turn, a forfeit after
    ``max_timeouts`` missed deadlines in a row (0: never), and at most ``vacation_days`` of
    vacation per player (see ``docs/decisions/0004-deadlines.md``); ``clock``: a fixed
    time per turn or a time bank, and the weekend pause (``clock.check_clock``, 0018)."""
    require_signed_in(creator)
    if game_type not in slugs():
        raise InvalidRequest(
            _("unknown game type '%(type)s'; known: %(known)s")
            % {"type": game_type, "known": ", ".join(slugs())}
        )
    try:
        engine = get_engine(game_type)
    except ImportError as exc:
        raise InvalidRequest(
            _("game type '%(type)s' is not available yet: %(reason)s")
            % {"type": game_type, "reason": exc}
        ) from exc
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise InvalidRequest(_("seats must be a whole number, not %(value)r") % {"value": seats})
    low, high = max(MIN_SEATS, engine.min_players), min(MAX_SEATS, engine.max_players)
    if not low <= seats <= high:
        raise InvalidRequest(
            _("%(game)s is for %(low)s to %(high)s players, not %(seats)s")
            % {"game": engine.name, "low": low, "high": high, "seats": seats}
        )
    if isinstance(turn_hours, bool) or not isinstance(turn_hours, int):
        raise InvalidRequest(
            _("turn_hours must be a whole number, not %(value)r") % {"value": turn_hours}
        )
    if not 1 <= turn_hours <= MAX_TURN_HOURS:
        raise out_of_range("turn_hours", _("Hours per turn"), 1, MAX_TURN_HOURS, turn_hours)
    _check_policy("max_timeouts", max_timeouts, MAX_TIMEOUTS)
    _check_policy("vacation_days", vacation_days, MAX_VACATION_DAYS)
    clock_fields = check_clock(clock)
    raw = dict(options or {})
    try:
        # Checked now for the seats asked; kept as given (defaults depending on the player
        # count, like Lords of Vegas colours, are filled in for the real count at the start).
        engine.normalize_options(raw, seats)
    except InvalidOptions as exc:
        raise InvalidRequest(str(exc), code="invalid_options") from exc
    with transaction.atomic():
        game = Game.objects.create(
            game_type=game_type,
            options=raw,
            max_seats=seats,
            turn_hours=turn_hours,
            max_timeouts=max_timeouts,
            vacation_days=vacation_days,
            private=bool(private),
            rated=bool(rated),
            created_by=creator,
            **clock_fields,
        )
        Seat.objects.create(game=game, user=creator, order=0)
    return game


def _check_policy(name: str, value: Any, high: int) -> None:
    """``name``: "max_timeouts" or "vacation_days". A value that is no whole number comes
    only from the API (the create form's number field refuses it first): its refusal names
    the field as the API does; one out of range, as the create form labels it."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRequest(
            _("%(field)s must be a whole number, not %(value)r") % {"field": name, "value": value},
            code="invalid_policy",
            field=name,
        )
    if not 0 <= value <= high:
        label = (
            _("Missed turns before a forfeit")
            if name == "max_timeouts"
            else _("Vacation days per player")
        )
        raise out_of_range(name, label, 0, high, value, code="invalid_policy")


def invite(*, game: Game | int, by: Any, email: str) -> Invitation:
    """An invitation (with a token to join a private game); the same email invited twice
    gets the same open invitation. The account it is for is known at once when the address
    is a *verified* one of an account (an unverified one may be anybody's claim)."""
    require_signed_in(by)
    email = (email or "").strip().lower()
    try:
        validate_email(email)
    except ValidationError:
        raise InvalidRequest(_("'%(email)s' is not an email address") % {"email": email}) from None
    return _invite(game, by, email, user_at_verified(email))


def invite_player(*, game: Game | int, by: Any, who: str) -> Invitation:
    """Invite by email address, or by the display name of a player (their account: the
    invitation keeps no address, which the inviter would otherwise be shown). A name several
    players share, or nobody's, is refused with what to do."""
    require_signed_in(by)
    who = (who or "").strip()
    if "@" in who:
        return invite(game=game, by=by, email=who)
    if not who:
        raise InvalidRequest(_("type a player's name or an email address"), field="who")
    from accounts.addresses import confirmed
    from accounts.models import FORMER_DOMAIN, User

    found = list(
        User.objects.filter(confirmed(), display_name__iexact=who, is_active=True).exclude(
            email__endswith=f"@{FORMER_DOMAIN}"
        )[:2]
    )
    if not found:
        raise InvalidRequest(
            _("no player is called '%(who)s': invite them by email address instead") % {"who": who},
            code="unknown_player",
            field="who",
        )
    if len(found) > 1:
        raise InvalidRequest(
            _("several players are called '%(who)s': invite by email address instead")
            % {"who": who},
            code="ambiguous_player",
            field="who",
        )
    return _invite(game, by, "", found[0])


def _invite(game: Game | int, by: Any, email: str, invitee: Any) -> Invitation:
    """``email``: the address typed, or "" for an invitation by name (to ``invitee``)."""
    with transaction.atomic():
        locked = lock_game(game)
        _require_open(locked)
        if not (may_manage(locked, by) or locked.seats.filter(user=by).exists()):
            raise NotAllowed(
                _("only players of game #%(game)s invite others to it") % {"game": locked.pk}
            )
        if invitee is not None and locked.seats.filter(user=invitee).exists():
            raise InvalidRequest(
                _("%(name)s already plays in game #%(game)s")
                % {"name": invitee.name, "game": locked.pk},
                code="already_seated",
            )
        _require_free_seat(locked, "invite")
        same = Q(email=email) if email else Q(invitee=invitee)
        existing = _pending(locked.invitations.filter(same)).first()
        if existing is not None:
            return existing
        _refuse_too_many_invitations(by)
        invitation = Invitation.objects.create(
            game=locked,
            email=email,
            token=secrets.token_urlsafe(24),
            invited_by=by,
            invitee=invitee,
            email_due_at=timezone.now(),  # the email is due now (notifications send it)
        )
        table_changed_after_commit(locked.pk, "invited", invitation_id=invitation.pk)
    return invitation


MOST_INVITATIONS_A_DAY = 30
"""Invitations one person may send in a day, all games together. Each emails an address the
inviter typed, which may be anybody's: without a limit the server would mail strangers at
the API's rate on anyone's say (the per-inviter limit left by decision 0034)."""


def _refuse_too_many_invitations(by: Any) -> None:
    """Refuse past :data:`MOST_INVITATIONS_A_DAY`, saying in how many hours the next may go."""
    hours = hours_past_daily_cap(Invitation.objects.filter(invited_by=by), MOST_INVITATIONS_A_DAY)
    if hours is not None:
        raise InvalidRequest(
            ngettext(
                "you sent %(most)s game invitations within a day, the most: you may invite "
                "more people in %(hours)s hour",
                "you sent %(most)s game invitations within a day, the most: you may invite "
                "more people in %(hours)s hours",
                hours,
            )
            % {"most": MOST_INVITATIONS_A_DAY, "hours": hours},
            code="too_many_invitations",
        )


def hours_past_daily_cap(made: Any, most: int) -> int | None:
    """None while fewer than ``most`` of ``made`` (rows with a ``created_at``) are from the
    last 24 hours; else in how many whole hours (at least one) the oldest of the ``most``
    newest leaves them, letting one more go (a sliding day, not a calendar day)."""
    now = timezone.now()
    recent = made.filter(created_at__gt=now - timedelta(days=1))
    if recent.count() < most:
        return None
    oldest = recent.order_by("-created_at").values_list("created_at", flat=True)[most - 1]
    left = oldest + timedelta(days=1) - now
    return max(1, math.ceil(left.total_seconds() / 3600))


def _pending(invitations: Any) -> Any:
    """The invitations neither answered nor withdrawn."""
    return invitations.filter(
        accepted_at__isnull=True, declined_at__isnull=True, withdrawn_at__isnull=True
    )


def _invitation(token: str, *, lock: bool = False) -> Invitation:
    found = Invitation.objects.select_related("game", "invitee")
    if lock:
        found = found.select_for_update(of=("self",))
    invitation = found.filter(token=token or "").first()
    if invitation is None:
        raise NotFound(_("there is no such invitation: check the link in the email"))
    return invitation


def invitation_problem(invitation: Invitation, user: Any) -> ServiceError | None:
    """Why ``user`` may not answer ``invitation`` now (None: they may): withdrawn, already
    answered, for another account, or the game started or full. One list of rules for the
    invitation page (what it offers) and for :func:`accept_invitation` (what it does)."""
    game = invitation.game
    if invitation.withdrawn_at is not None:
        return NotAllowed(
            _("this invitation to game #%(game)s was withdrawn by its creator") % {"game": game.pk},
            code="invitation_withdrawn",
        )
    if not _is_for(invitation, user):
        return NotAllowed(
            _(
                "this invitation to game #%(game)s is for another account, and you are "
                "signed in as %(email)s: sign in to the invited account and open the link "
                "again"
            )
            % {"game": game.pk, "email": user.email},
            code="invitation_for_another",
        )
    if invitation.accepted_at is not None:
        return InvalidRequest(
            _("you already accepted this invitation: you play in game #%(game)s")
            % {"game": game.pk},
            code="invitation_accepted",
        )
    if invitation.declined_at is not None:
        return InvalidRequest(
            _("you declined this invitation to game #%(game)s") % {"game": game.pk},
            code="invitation_declined",
        )
    if game.status != Game.Status.OPEN:
        return GameNotActive(
            _("game #%(game)s is %(status)s: this invitation can no longer seat anyone")
            % {"game": game.pk, "status": game.get_status_display()},
            status_now=game.status,
        )
    taken = game.seats.count()
    if taken >= game.max_seats:
        return InvalidRequest(
            _game_full("invitation") % {"game": game.pk, "taken": taken, "seats": game.max_seats},
            code="game_full",
        )
    return None


def _is_for(invitation: Invitation, user: Any) -> bool:
    """The invitation is ``user``'s: it names their account, or names none yet (an address
    that is no account's verified one), and then its link seats whoever follows it, with
    the account they have: which address that account has proves nothing either way."""
    return invitation.invitee_id in (None, user.pk)


def accept_invitation(*, token: str, user: Any) -> Seat:
    """Take a seat through an invitation (the emailed link): see :func:`invitation_problem`
    for what refuses it. No address of ``user`` changes: whoever holds the link may be
    someone the address's owner forwarded it to, or anyone who saw it on the way
    (docs/decisions/0024-invitations-and-what-they-show.md)."""
    require_signed_in(user)
    with transaction.atomic():
        invitation = _invitation(token, lock=True)
        locked = lock_game(invitation.game_id)
        invitation.game = locked
        problem = invitation_problem(invitation, user)
        if problem is not None:
            raise problem
        _require_free_seat(locked, "invitation")
        seat = Seat.objects.create(game=locked, user=user, order=_next_order(locked))
        _answer(invitation, user, "accepted_at")
        table_changed_after_commit(locked.pk, "joined", seat_id=seat.pk, user_id=user.pk)
    return seat


def decline_invitation(*, token: str, user: Any) -> Invitation:
    """Say no to an invitation (the creator sees it); a game started since may still be
    declined, a withdrawn or answered invitation not."""
    require_signed_in(user)
    with transaction.atomic():
        invitation = _invitation(token, lock=True)
        problem = invitation_problem(invitation, user)
        if problem is not None and problem.code not in ("game_not_active", "game_full"):
            raise problem
        _answer(invitation, user, "declined_at")
    return invitation


def _answer(invitation: Invitation, user: Any, field: str) -> None:
    setattr(invitation, field, timezone.now())
    invitation.invitee = user
    invitation.email_due_at = None  # an unsent invitation email is no longer needed
    invitation.save(update_fields=[field, "invitee", "email_due_at"])


def claim_invitation(*, token: str, user: Any) -> Invitation | None:
    """After a sign-up through an invitation's link: the invitation is the new account's
    (it names no other), whatever address it signed up with, as a link shared on lichess
    or OGS seats whoever follows it. The invitation's address does not become the
    account's: a link proves nothing about a mailbox (a forwarded email, a shared screen),
    so only allauth's own confirmation email verifies one. None when the token is unknown
    or the invitation is another account's already."""
    require_signed_in(user)
    with transaction.atomic():
        invitation = Invitation.objects.select_for_update().filter(token=token or "").first()
        if invitation is None or invitation.invitee_id not in (None, user.pk):
            return None
        invitation.invitee = user
        invitation.save(update_fields=["invitee"])
    return invitation


def withdraw_invitation(*, game: Game | int, invitation: int, by: Any) -> Invitation:
    """Take back an unanswered invitation: its link says so from now on and seats nobody."""
    require_signed_in(by)
    with transaction.atomic():
        locked = lock_game(game)
        found = (
            locked.invitations.select_for_update(of=("self",))
            .select_related("invitee")
            .filter(pk=invitation)
            .first()
        )
        if found is None:
            raise NotFound(
                _("game #%(game)s has no invitation #%(invitation)s")
                % {"game": locked.pk, "invitation": invitation}
            )
        if not (may_manage(locked, by) or found.invited_by_id == by.pk):
            raise NotAllowed(_only_managers(locked, "withdraw_invitations"))
        if not found.is_pending:
            raise InvalidRequest(
                _("the invitation of %(email)s is already answered or withdrawn")
                % {"email": found.addressed_to},
                code="invitation_closed",
            )
        found.withdrawn_at = timezone.now()
        found.email_due_at = None
        found.save(update_fields=["withdrawn_at", "email_due_at"])
    return found


def join_game(
    *, game: Game | int, user: Any, token: str | None = None, announce: bool = True
) -> Seat:
    """Take the next seat. Private games need an invitation token. Joining twice returns the
    seat already held. ``announce=False``: the others seated are not told "X joined" (an app
    that seats a whole table and starts it at once, as a league season does: the "game
    started" email names everyone; 18 "joined" emails for a season's 6 games were noise)."""
    require_signed_in(user)
    with transaction.atomic():
        locked = lock_game(game)
        existing = locked.seats.filter(user=user).first()
        if existing is not None:
            return existing
        _require_open(locked)
        invitation = None
        if token:
            invitation = _pending(locked.invitations.filter(token=token)).first()
            if invitation is None:
                raise NotAllowed(
                    _("this invitation is not valid (used, withdrawn, or for another game)")
                )
            if invitation.invitee_id not in (None, user.pk):
                raise NotAllowed(
                    _("this invitation to game #%(game)s is for another account")
                    % {"game": locked.pk}
                )
        elif locked.private:
            raise NotAllowed(_("this game is private: join it with your invitation"))
        _require_free_seat(locked, "join")
        seat = Seat.objects.create(game=locked, user=user, order=_next_order(locked))
        if invitation is not None:
            invitation.accepted_at = timezone.now()
            invitation.invitee = user
            invitation.email_due_at = None
            invitation.save(update_fields=["accepted_at", "invitee", "email_due_at"])
        if announce:
            table_changed_after_commit(locked.pk, "joined", seat_id=seat.pk, user_id=user.pk)
    return seat


def add_bot(*, game: Game | int, by: Any, bot: str = "greedy") -> Seat:
    """A bot takes the next seat."""
    require_signed_in(by)
    with transaction.atomic():
        locked = lock_game(game)
        _require_open(locked)
        if not may_manage(locked, by):
            raise NotAllowed(_only_managers(locked, "add_bots"))
        engine = engine_for(locked)
        if bot not in engine.bots:
            raise InvalidRequest(
                _("unknown bot '%(bot)s'; %(game)s has: %(bots)s")
                % {"bot": bot, "game": engine.name, "bots": ", ".join(engine.bots)}
            )
        _require_free_seat(locked, "bot")
        return Seat.objects.create(game=locked, bot=bot, order=_next_order(locked))


def remove_bot(*, game: Game | int, by: Any, seat: int) -> None:
    """Take a bot off the table before the start (``seat``: its place, the join order);
    the seats after it move up."""
    require_signed_in(by)
    with transaction.atomic():
        locked = lock_game(game)
        _require_open(locked)
        if not may_manage(locked, by):
            raise NotAllowed(_only_managers(locked, "remove_bots"))
        target = locked.seats.filter(order=seat).first()
        if target is None or target.user_id is not None:
            raise InvalidRequest(
                _("seat %(seat)s of game #%(game)s is not a bot's")
                % {"seat": seat, "game": locked.pk}
            )
        target.delete()
        _renumber(locked, list(locked.seats.order_by("order")))
    if isinstance(game, Game):
        copy_into(game, locked)


def _require_free_seat(game: Game, doing: str) -> None:
    """``doing``: "invite", "invitation", "join" or "bot" (one whole sentence each)."""
    taken = game.seats.count()
    if taken >= game.max_seats:
        raise InvalidRequest(
            _game_full(doing) % {"game": game.pk, "taken": taken, "seats": game.max_seats},
            code="game_full",
        )


def _game_full(doing: str) -> str:
    """The sentence refusing a seat in a full game, with the advice fitting ``doing``."""
    if doing == "invite":
        return _(
            "game #%(game)s is full (%(taken)s of %(seats)s seats taken): nobody else can join it"
        )
    if doing == "invitation":
        return _(
            "game #%(game)s is full (%(taken)s of %(seats)s seats taken): this invitation can "
            "no longer seat anyone"
        )
    if doing == "bot":
        return _(
            "game #%(game)s is full (%(taken)s of %(seats)s seats taken): a bot needs a free seat"
        )
    return _(
        "game #%(game)s is full (%(taken)s of %(seats)s seats taken): join another game, or "
        "ask its creator for a bigger one"
    )


def _renumber(game: Game, seats: list[Seat]) -> None:
    """Give ``seats`` the orders 0..n-1 in list order (two steps, so that the unique
    (game, order) constraint holds after every statement)."""
    Seat.objects.filter(game=game).update(order=F("order") + 100)
    for index, seat in enumerate(seats):
        seat.order = index
        seat.save(update_fields=["order", "colour"])


def leave_game(*, game: Game | int, user: Any) -> None:
    """Give up a seat before the start; the last person leaving cancels the game."""
    require_signed_in(user)
    with transaction.atomic():
        locked = lock_game(game)
        seat = seat_of(locked, user)  # (a stranger learns nothing of the game's state)
        _require_open(locked)
        table_changed_after_commit(locked.pk, "left", seat_id=seat.pk, user_id=user.pk)
        seat.delete()
        rest = list(locked.seats.order_by("order"))
        if not any(s.user_id for s in rest):
            locked.status = Game.Status.CANCELLED
            locked.save(update_fields=["status"])
            return
        _renumber(locked, rest)
    if isinstance(game, Game):
        copy_into(game, locked)


def start_game(
    *, game: Game | int, by: Any, seed: str | None = None, keep_order: bool = False
) -> Game:
    """Seed, seat order, setup: Move 0 holds the setup events. Seats are shuffled with a draw
    from the (secret, later published) seed, so the seating is verifiable too. ``seed`` is
    for tests and tools that must replay a known game; no door lets a player choose it."""
    require_signed_in(by)
    with transaction.atomic():
        locked = lock_game(game)
        engine, options = _check_start(locked, by)
        seats = list(locked.seats.order_by("order"))
        players = len(seats)
        seed = seed or new_seed()
        if not keep_order:  # (a league rotates its tables' seat order itself)
            shuffle(SeededRng(seed, "seating"), seats)
        colours = engine.seat_colours(options, players)
        for seat, colour in zip(seats, colours, strict=True):
            seat.colour = colour
        _renumber(locked, seats)
        state, events = engine.new_game(players, options, seed)
        now = timezone.now()
        locked.options = options
        locked.seed = seed
        locked.seed_hash = seed_hash(seed)
        locked.status = Game.Status.ACTIVE
        locked.started_at = now
        locked.version = 0
        setup = Move.objects.create(
            game=locked,
            seq=0,
            seat=None,
            command=None,
            text="",
            events=list(events),
            source=Move.Source.SYSTEM,
            batch=0,
        )
        notify_after_commit(locked, [setup])
        commit_commands(locked, engine, state, [])
    if isinstance(game, Game):
        copy_into(game, locked)
    return locked


def start_refusal(*, game: Game, by: Any) -> ServiceError | None:
    """What :func:`start_game` would answer ``by`` now (None: it would start the game): for
    the doors that offer a Start button only to whom it works, with the rules kept here."""
    try:
        _check_start(game, by)
    except ServiceError as exc:
        return exc
    return None


def _check_start(game: Game, by: Any) -> tuple[GameEngine, dict[str, Any]]:
    """Refuse a start that cannot be: not open, not a manager, too few seated, options the
    engine refuses for this many players. The engine and the normalised options."""
    require_signed_in(by)
    _require_open(game)
    if not may_manage(game, by):
        raise NotAllowed(_only_managers(game, "start"))
    engine = engine_for(game)
    players = game.seats.count()
    if players < max(MIN_SEATS, engine.min_players):
        raise InvalidRequest(
            ngettext(
                "%(game)s needs at least %(least)s players; %(count)s seated",
                "%(game)s needs at least %(least)s players; %(count)s seated",
                players,
            )
            % {"game": engine.name, "least": engine.min_players, "count": players},
            code="not_enough_players",
        )
    try:
        options = engine.normalize_options(game.options, players)
    except InvalidOptions as exc:
        raise InvalidRequest(str(exc), code="invalid_options") from exc
    return engine, dict(options)


def resign(*, game: Game | int, user: Any, source: str = Move.Source.API) -> Game:
    """Resign: the player is ranked last (behind anyone who resigns later) and a bot plays
    the seat on; when fewer than two seats remain unresigned, the game ends there.
    ``source``: the door it came through (the log shows it, as for a move)."""
    require_signed_in(user)
    with transaction.atomic():
        locked = lock_game(game)
        seat = seat_of(locked, user)  # (a stranger learns nothing of the game's state)
        require_active(locked)
        if not seat.resigned:
            resign_seat(locked, seat, now=timezone.now(), source=source)
    if isinstance(game, Game):
        copy_into(game, locked)
    return locked


def ends_the_game(unresigned: int) -> bool:
    """Whether a game left with ``unresigned`` players after a resignation ends there (a
    bot plays a resigned seat on only while two players or more remain)."""
    return unresigned < 2


def resign_seat(
    game: Game, seat: Seat, *, now: Any, reason: str = "", source: str = Move.Source.SYSTEM
) -> list[Move]:
    """Resign ``seat`` of ``game``, whose row the caller has locked: a bot takes the seat
    and plays where the game waits on it, or the game ends if fewer than two seats remain
    unresigned. ``reason`` ("timeouts": a forfeit) goes into the logged event. Returns the
    Moves written (the resignation, then any bot moves)."""
    engine = engine_for(game)
    close_offers_of(game=game, seat=seat, now=now, why=_WHY.get(reason, "resigned"))
    seat.resigned = True
    seat.resigned_at = now
    seat.bot = "greedy" if "greedy" in engine.bots else next(iter(engine.bots))
    seat.save(update_fields=["resigned", "resigned_at", "bot"])
    ends = ends_the_game(game.seats.filter(resigned=False).count())
    moves = _log_resignation(game, seat, reason, ends=ends, source=source)
    assert game.state is not None
    notify_after_commit(game, moves)
    if ends:
        finish(game, final_outcome(game, None), now)
        save_game(game, engine, game.state, moved=True)
        return moves
    return moves + commit_commands(game, engine, game.state, [])


_WHY = {"timeouts": "forfeited"}  # a resignation's reason, as the closed offers give it


def _log_resignation(
    game: Game, seat: Seat, reason: str = "", ends: bool = False, source: str = Move.Source.SYSTEM
) -> list[Move]:
    """The platform's own log entry (no engine command: the replay skips it); ``ends``:
    the resignation ends the game (one player is left), which the log then says rather
    than that a bot plays on."""
    event: dict[str, Any] = {"type": "resign", "seat": seat.order}
    if reason:
        event["reason"] = reason
    if ends:
        event["ends"] = True
    entry = Entry(seat, None, "resign", [event], source)
    return append_moves(game, [entry])
