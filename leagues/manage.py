"""What a league's admins do on the site (no staff access needed): appoint admins, edit
the league, take members in (requests, email invitations), open and close enrolment,
preview the tables, use the game tools on the league's games, announce.

Keyword-only like :mod:`leagues.services` (whose checks these reuse): every refusal is a
``games.services`` error, raised before anything is written. Who may: a league's admins
and the staff; appointing or dismissing admins: the league's owner (its creator) and the
staff. See docs/decisions/0014-league-admins.md.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext as _

from accounts.models import User
from games.models import Game, Move, Seat
from games.selectors import seat_taker
from games.services import tools
from games.services.errors import InvalidRequest, NotAllowed, NotFound
from leagues import mail, tables
from leagues.models import JoinRequest, League, LeagueInvitation, Membership, Season
from leagues.services import (
    _check_options,
    _engine,
    _league,
    _locked_season,
    _require_signed_in,
    _require_status,
    _whole,
    may_manage,
)

MAX_ANNOUNCEMENT = 5000


def is_owner(league: League, user: Any) -> bool:
    """The league's creator (its owner) and the staff appoint its admins."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff) or league.created_by_id == user.pk


def require_manager(league: League, user: Any) -> None:
    """Refuse anyone but the league's admins and the staff (signed-out first)."""
    _require_signed_in(user)
    if not may_manage(league, user):
        raise NotAllowed(
            _("only an admin of the league '%(league)s' does this") % {"league": league.name}
        )


# -- admins -----------------------------------------------------------------------------------


def appoint_admin(*, league: League | str, user: Any, by: Any) -> None:
    """Give ``user`` the admin role of the league (its owner or the staff decide)."""
    found = _league(league)
    _require_signed_in(by)
    if not is_owner(found, by):
        raise NotAllowed(
            _("only the owner of the league '%(league)s' appoints its admins")
            % {"league": found.name}
        )
    found.admins.add(user)


def dismiss_admin(*, league: League | str, user: Any, by: Any) -> None:
    """Take the role back (the owner keeps it: a league always has its owner)."""
    found = _league(league)
    _require_signed_in(by)
    if not is_owner(found, by):
        raise NotAllowed(
            _("only the owner of the league '%(league)s' dismisses its admins")
            % {"league": found.name}
        )
    if user.pk == found.created_by_id:
        raise InvalidRequest(_("the owner of a league stays one of its admins"))
    found.admins.remove(user)


def find_user(who: str) -> User:
    """A person by their name on Lords or their email address."""
    who = (who or "").strip()
    found = (
        User.objects.filter(email__iexact=who).first()
        or User.objects.filter(display_name__iexact=who).first()
        if who
        else None
    )
    if found is None:
        raise NotFound(_("nobody is called or at '%(who)s' on Lords") % {"who": who})
    return found


# -- the league itself -----------------------------------------------------------------------


def update_league(
    *,
    league: League | str,
    by: Any,
    name: str,
    description: str,
    options: Mapping[str, Any],
    open: bool,
    players_per_game: int,
    turn_hours: int,
    max_timeouts: int,
    vacation_days: int,
) -> League:
    """Change the league's name, text, game options and its seasons' default settings;
    its game type stays (its seasons' games are of it)."""
    found = _league(league)
    require_manager(found, by)
    name = (name or "").strip()
    if not name:
        raise InvalidRequest(_("a league needs a name"))
    engine = _engine(found.game_type)
    _whole(
        "players_per_game", players_per_game, max(2, engine.min_players), min(6, engine.max_players)
    )
    _whole("turn_hours", turn_hours, 1, 24 * 30)
    _whole("max_timeouts", max_timeouts, 0, 20)
    _whole("vacation_days", vacation_days, 0, 30)
    _check_options(found.game_type, options, players_per_game)
    found.name, found.description, found.options, found.open = (
        name,
        description,
        dict(options),
        open,
    )
    found.players_per_game, found.turn_hours = players_per_game, turn_hours
    found.max_timeouts, found.vacation_days = max_timeouts, vacation_days
    found.save()
    return found


# -- members -------------------------------------------------------------------------------


def ask_to_join(*, league: League | str, user: Any) -> JoinRequest | Membership:
    """Join an open league at once; ask to join one by approval (an admin decides)."""
    from leagues.services import join_league

    found = _league(league)
    _require_signed_in(user)
    if found.open or found.memberships.filter(user=user).exists():
        return join_league(league=found, user=user)
    request, _created = JoinRequest.objects.get_or_create(league=found, user=user)
    return request


def answer_request(*, league: League | str, user: Any, by: Any, accept: bool) -> None:
    """Accept (a membership) or refuse a request to join."""
    found = _league(league)
    require_manager(found, by)
    with transaction.atomic():
        asked = JoinRequest.objects.select_for_update().filter(league=found, user=user).first()
        if asked is None:
            raise NotFound(_("%(name)s has not asked to join") % {"name": user.name})
        asked.delete()
        if accept:
            Membership.objects.get_or_create(league=found, user=user)


def invite(*, league: League | str, by: Any, email: str) -> LeagueInvitation:
    """Email an invitation whose link makes whoever opens it (signed in) a member."""
    found = _league(league)
    require_manager(found, by)
    email = (email or "").strip()
    try:
        validate_email(email)
    except ValidationError:
        raise InvalidRequest(_("'%(email)s' is not an email address") % {"email": email}) from None
    with transaction.atomic():
        invitation = LeagueInvitation.objects.create(
            league=found, email=email, token=secrets.token_urlsafe(24), invited_by=by
        )
        link = reverse("leagues:accept", kwargs={"token": invitation.token})
        known = User.objects.filter(email__iexact=email).first()
        mail.queue(
            kind="invitation",
            template="invitation",
            context={"league": found.name, "by": by.name, "link": link},
            email=email,
            language=getattr(known, "language", "") or getattr(by, "language", ""),
            league=found,
        )
    return invitation


def accept_invitation(*, token: str, user: Any) -> Membership:
    """The invited person (any signed-in account that opened the link) becomes a member."""
    _require_signed_in(user)
    with transaction.atomic():
        invitation = LeagueInvitation.objects.select_for_update().filter(token=token).first()
        if invitation is None or invitation.accepted_at is not None:
            raise NotFound(_("this invitation is not valid (any more)"))
        invitation.accepted_at = timezone.now()
        invitation.save(update_fields=["accepted_at"])
        membership, _created = Membership.objects.get_or_create(league=invitation.league, user=user)
        JoinRequest.objects.filter(league=invitation.league, user=user).delete()
    return membership


def remove_member(*, league: League | str, user: Any, by: Any) -> None:
    """An admin takes a member out (their draft entries go; games started go on)."""
    from leagues.services import leave_league

    found = _league(league)
    require_manager(found, by)
    leave_league(league=found, user=user)


# -- seasons --------------------------------------------------------------------------------


def set_enrolment(*, season: Season | int, by: Any, open: bool) -> Season:
    """Open or close a draft season's enrolment."""
    _require_signed_in(by)
    with transaction.atomic():
        locked = _locked_season(season)
        require_manager(locked.league, by)
        _require_status(locked, Season.Status.DRAFT, "enter")
        locked.enrolment_open = bool(open)
        locked.save(update_fields=["enrolment_open"])
    return locked


def preview(*, season: Season) -> list[tables.Plan]:
    """The tables the season would be drawn into now, per division, explained."""
    return tables.season_plans(season, list(season.entries.all()))


# -- game tools -------------------------------------------------------------------------------


def league_of(game: Game) -> League | None:
    """The league a game was played in (None: not a league game)."""
    return League.objects.filter(seasons__season_games__game=game).first()


def tools_refusal(game: Game | int, user: Any) -> str | None:
    """Why ``user`` may not use the game tools on ``game``, in their language (None: they
    may). The staff on any game; a league's admins (its owner is one) on their league's
    games, but not on a game they play or played in: a tournament director does not
    arbitrate their own game (lichess, OGS), another admin or the staff does (0014). One
    query for whoever is not an admin of the game's league (the board page asks for every
    viewer), the game's row not read."""
    if not getattr(user, "is_authenticated", False):
        return _("sign in first")
    if user.is_staff:
        return None
    game_id = game.pk if isinstance(game, Game) else game
    if not League.objects.filter(seasons__season_games__game=game_id, admins=user).exists():
        return _("only the staff or an admin of its league may use the tools on game #%(game)s") % {
            "game": game_id
        }
    if plays_or_played(game_id, user):
        return _(
            "you play or played in game #%(game)s: its tools are for the league's other "
            "admins and the staff"
        ) % {"game": game_id}
    return None


def may_use_tools(game: Game | int, user: Any) -> bool:
    """Whether the game tools are for ``user`` on ``game`` (:func:`tools_refusal`)."""
    return tools_refusal(game, user) is None


def plays_or_played(game_id: int, user: Any) -> bool:
    """Seated in the game (resigned too), or replaced in it: the replace tool's log entry
    names whom it took the seat from (``before_user``; an entry written before that field
    only by name, ``before``)."""
    if Seat.objects.filter(game_id=game_id, user=user).exists():
        return True
    replaced = Move.objects.filter(
        game_id=game_id, source=Move.Source.SYSTEM, command__isnull=True, text="replace"
    ).values_list("events", flat=True)
    for events in replaced:
        event = events[0] if events else {}
        if event.get("type") != "tool":
            continue
        if "before_user" in event:
            if event["before_user"] == user.pk:
                return True
        elif event.get("before") == user.name:
            return True
    return False


_TOOLS: dict[str, Callable[..., Any]] = {
    "extend": tools.extend_deadline,
    "pause": tools.pause_game,
    "resume": tools.resume_game,
    "replace": tools.replace_player,
    "abort": tools.abort_game,
}


def use_tool(*, game: Game | int, by: Any, tool: str, why: str, **arguments: Any) -> Any:
    """Decide who may (here, where leagues are known), then call the games service with
    ``by`` and tell every person seated by email (the record is in the game's log)."""
    _require_signed_in(by)
    found = Game.objects.filter(pk=game.pk if isinstance(game, Game) else game).first()
    if found is None:
        raise NotFound(_("there is no game #%(game)s") % {"game": game})
    refusal = tools_refusal(found, by)
    if refusal is not None:
        raise NotAllowed(refusal)
    if tool not in _TOOLS:
        raise InvalidRequest(_("no tool '%(tool)s'") % {"tool": tool})
    if arguments.get("substitute") == by and not by.is_staff:
        # (seated, he would arbitrate a game he plays: see tools_refusal)
        raise NotAllowed(
            _("an admin does not seat themselves in a game of the league: another admin may")
        )
    with transaction.atomic():
        seated = list(User.objects.filter(seats__game=found))  # a replaced player too
        move = _TOOLS[tool](game=found.pk, by=by, why=why, authorized=True, **arguments)
        seated += [u for u in User.objects.filter(seats__game=found) if u not in seated]
        _tell_players(found.pk, move, by, seated)
    return move


_seat_taker_later = lazy(seat_taker, str)
"""``seat_taker``, said when the email is rendered (under its reader's language)."""


def _tell_players(game_id: int, move: Any, by: Any, people: list[User]) -> None:
    game = Game.objects.get(pk=game_id)
    event = move.events[0]
    for user in people:
        mail.queue(
            kind="tool",
            template="tool",
            context={
                "game": game.pk,
                "tool": event["tool"],
                "by": by.name,
                "why": event["why"],
                "hours": event.get("hours"),
                # (said when the email is rendered, in its reader's language)
                "before": _seat_taker_later(event, "before"),
                "after": _seat_taker_later(event, "after"),
                "link": reverse("web:game", kwargs={"game_id": game.pk}),
                "deadline": game.deadline,
            },
            user=user,
            game=game,
            league=league_of(game),
        )


# -- announcements ----------------------------------------------------------------------------


def announce(*, league: League | str, by: Any, subject: str, body: str) -> int:
    """Email every member (and admin) who wants league email; how many were written."""
    found = _league(league)
    require_manager(found, by)
    subject, body = " ".join((subject or "").split()), (body or "").strip()
    if not subject or not body:
        raise InvalidRequest(_("an announcement has a subject and a text"))
    if len(subject) > 200 or len(body) > MAX_ANNOUNCEMENT:
        raise InvalidRequest(
            _("an announcement's subject has at most 200 characters and its text %(most)s")
            % {"most": MAX_ANNOUNCEMENT}
        )
    people = {m.user for m in found.memberships.select_related("user")}
    people |= set(found.admins.all())
    with transaction.atomic():
        written = [
            mail.queue(
                kind="announcement",
                template="announcement",
                context={
                    "league": found.name,
                    "by": by.name,
                    "subject": subject,
                    "body": body,
                    "link": reverse("leagues:detail", kwargs={"slug": found.slug}),
                },
                user=user,
                league=found,
            )
            for user in sorted(people, key=lambda u: u.pk)
        ]
    return sum(1 for m in written if m is not None)
