"""What a league's admins do on the site (no staff access needed): appoint admins, edit
the league, take members in (requests, invitations), open and close enrolment, preview the
tables, use the game tools on the league's games, announce.

Nobody becomes a member without saying yes (an invitation they accept, a request they
made), and no admin learns whether an address has an account here: people are found by
their public display name only, and an address typed is only ever sent an invitation
(docs/decisions/0028-league-invitations-and-consent.md).

Keyword-only like :mod:`leagues.services` (whose checks these reuse): every refusal is a
``games.services`` error, raised before anything is written. Who may: a league's admins
and the staff; appointing or dismissing admins: the league's owner (its creator) and the
staff. See docs/decisions/0014-league-admins.md.
"""

from __future__ import annotations

import enum
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q, Value
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.addresses import confirmed
from accounts.models import User
from games.models import Game, Move, Seat
from games.selectors import seat_taker
from games.services import tools
from games.services.errors import InvalidRequest, NotAllowed, NotFound
from games.services.games import hours_past_daily_cap
from leagues import mail, tables
from leagues.models import (
    INVITATION_LIFETIME,
    JoinRequest,
    League,
    LeagueInvitation,
    Membership,
    Removal,
    Season,
)
from leagues.services import (
    _check_options,
    _engine,
    _league,
    _locked_season,
    _require_signed_in,
    _require_status,
    _whole,
    make_member,
    may_manage,
    require_member,
    require_not_removed,
)
from lords import dates

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
    """Give ``user`` the admin role of the league (its owner or the staff decide). Only a
    member: the role is shown on the league's page, and nobody's name is put on a league
    they did not join."""
    found = _league(league)
    _require_signed_in(by)
    if not is_owner(found, by):
        raise NotAllowed(
            _("only the owner of the league '%(league)s' appoints its admins")
            % {"league": found.name}
        )
    if not found.admins.filter(pk=user.pk).exists():
        require_member(found, user)
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
    with transaction.atomic():
        found.admins.remove(user)
        # Their invitations go with the role (found by review): an address they typed would
        # seat people for 30 days more, and no admin left could see or withdraw it.
        _waiting(found).filter(invited_by=user).update(withdrawn_at=timezone.now())


def find_by_name(who: str) -> User:
    """A person by their display name (public, one person's whatever its case), never by
    address: an answer that depended on whether an address has an account would tell any
    league admin (anyone may create a league) who is on Lords. An address typed is refused
    with the same words whether an account has it or not."""
    who = (who or "").strip()
    found = (
        User.objects.annotate(folded=Lower("display_name"))
        # (compared as the names' unique constraint compares them: accounts.rules)
        .filter(confirmed(), folded=Lower(Value(who)), is_active=True)
        .exclude(display_name="")
        .first()
        if who
        else None
    )
    if found is not None:
        return found
    if is_address(who):
        raise InvalidRequest(
            _("'%(who)s' is an email address: give the player's display name") % {"who": who}
        )
    raise NotFound(_("nobody is called '%(who)s' on Lords") % {"who": who})


def is_address(text: str) -> bool:
    """Whether ``text`` is an email address (as the invitation form takes one)."""
    try:
        validate_email(text)
    except ValidationError:
        return False
    return True


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
    require_not_removed(found, user)
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
            make_member(found, user)


class Outcome(enum.Enum):
    """What :func:`take_in` did (the admin's page says it)."""

    INVITED = "invited"  # an invitation went: to the address typed, or to the player's own
    WAITING = "waiting"  # one to the same address or player waits for an answer already
    ACCEPTED = "accepted"  # the player had asked to join: a member now
    MEMBER = "member"  # a member already (or the admin, who said yes by typing their name)


@dataclass(frozen=True)
class TakenIn:
    outcome: Outcome
    who: str  # what the admin may be shown: the address they typed, or the player's name


def take_in(*, league: League | str, by: Any, who: str) -> TakenIn:
    """The admins' one way to bring someone in. An email address is sent an invitation
    (:func:`invite`), whoever has it: the answer is the same for an address with an account
    and one without. A display name: a player who had asked to join is a member at once
    (they asked); anyone else is sent an invitation to their own address (the admin never
    sees it), and becomes a member by accepting it. An unknown name is refused (names are
    public: that tells nothing)."""
    found = _league(league)
    require_manager(found, by)
    who = (who or "").strip()
    if is_address(who):
        return TakenIn(_invite(found, by, email=who)[1], who)
    user = find_by_name(who)
    if found.memberships.filter(user=user).exists():
        return TakenIn(Outcome.MEMBER, user.name)
    if user.pk == by.pk:
        make_member(found, user)
        return TakenIn(Outcome.MEMBER, user.name)
    if JoinRequest.objects.filter(league=found, user=user).exists():
        answer_request(league=found, user=user, by=by, accept=True)
        return TakenIn(Outcome.ACCEPTED, user.name)
    return TakenIn(_invite(found, by, user=user)[1], user.name)


def invite(*, league: League | str, by: Any, email: str) -> LeagueInvitation:
    """Email an invitation whose link makes whoever opens it (signed in) a member. Nothing
    here depends on whether an account has the address but the email's language (which
    the admin does not see). One waiting invitation from an admin to an address at a time:
    the same address typed again by them (whatever its case) returns it, and no second
    email goes; another admin's is theirs and not looked at (it would tell them the address
    another admin typed)."""
    found = _league(league)
    require_manager(found, by)
    return _invite(found, by, email=(email or "").strip())[0]


MOST_INVITATIONS_A_DAY = 50
"""League invitations one admin may send in a day, all leagues together: each emails an
address the admin typed, which may be anybody's (anyone may create a league). Fifty takes a
club in at once."""


def _refuse_too_many_invitations(by: Any) -> None:
    """Refuse past :data:`MOST_INVITATIONS_A_DAY`, saying in how many hours the next may go."""
    made = LeagueInvitation.objects.filter(invited_by=by)
    hours = hours_past_daily_cap(made, MOST_INVITATIONS_A_DAY)
    if hours is not None:
        raise InvalidRequest(
            ngettext(
                "you sent %(most)s league invitations within a day, the most: you may invite "
                "more people in %(hours)s hour",
                "you sent %(most)s league invitations within a day, the most: you may invite "
                "more people in %(hours)s hours",
                hours,
            )
            % {"most": MOST_INVITATIONS_A_DAY, "hours": hours}
        )


def _invite(
    league: League, by: Any, *, email: str = "", user: Any = None
) -> tuple[LeagueInvitation, Outcome]:
    """The invitation to ``email`` or to ``user`` (one of them), and whether it was sent
    now (``INVITED``) or waits already (``WAITING``)."""
    if user is None and not is_address(email):
        raise InvalidRequest(_("'%(email)s' is not an email address") % {"email": email})
    with transaction.atomic():
        League.objects.select_for_update().filter(pk=league.pk).first()  # (one at a time)
        # An address: only this admin's own (another admin's address typed is theirs: "an
        # invitation is waiting" would tell it; found by review). A name: anyone's (public).
        same = {"invitee": user} if user is not None else {"email__iexact": email, "invited_by": by}
        waiting = _waiting(league).filter(**same).first()
        if waiting is not None:
            return waiting, Outcome.WAITING
        _refuse_too_many_invitations(by)
        invitation = LeagueInvitation.objects.create(
            league=league,
            email=email if user is None else "",
            invitee=user,
            token=secrets.token_urlsafe(24),
            invited_by=by,
        )
        if user is not None:
            _mail(invitation, user.email, user.language, person=user)
        else:
            known = User.objects.filter(email__iexact=email).first()
            language = getattr(known, "language", "") or getattr(by, "language", "")
            _mail(invitation, email, language)
    return invitation, Outcome.INVITED


def waiting_invitations(*, league: League, by: Any) -> list[LeagueInvitation]:
    """What ``by`` sent to ``league`` and nobody has answered, oldest first (the page shows
    each as typed, an address, or by name, with its expiry and a button to withdraw it):
    another admin's are theirs (an address typed is not shown to the other admins)."""
    waiting = _waiting(league).filter(invited_by=by).select_related("invitee")
    return list(waiting.order_by("created_at", "pk"))


def _waiting(league: League) -> Any:
    """The league's invitations whose link still works: not accepted, not withdrawn, not
    expired."""
    return LeagueInvitation.objects.filter(
        league=league,
        accepted_at__isnull=True,
        withdrawn_at__isnull=True,
        created_at__gt=timezone.now() - INVITATION_LIFETIME,
    )


def withdraw_invitation(*, league: League | str, invitation: int, by: Any) -> str:
    """``by`` takes back an invitation of theirs nobody has answered: its link seats nobody
    now. Answers whom it was for, as the admin typed it. Another admin's, an answered or an
    expired one is "not found" alike (the page only offers one's own waiting ones)."""
    found = _league(league)
    require_manager(found, by)
    with transaction.atomic():
        waiting = _waiting(found).select_for_update(of=("self",))
        taken = waiting.filter(pk=invitation, invited_by=by).select_related("invitee").first()
        if taken is None:
            raise NotFound(_("this invitation is not waiting for an answer any more"))
        taken.withdrawn_at = timezone.now()
        taken.save(update_fields=["withdrawn_at"])
    return taken.addressed_to


def _mail(invitation: LeagueInvitation, to: str, language: str, person: Any = None) -> None:
    """The invitation email (``leagues/emails/invitation-*``), to ``to`` in ``language``.
    Sent whatever the person's game-email choice, as the games' invitations are: a person
    asked by another person, once. To a player invited by name (``person``): not once they
    have unsubscribed from every email, and with the link to do so (found by review: an
    admin of any league could email any player by name)."""
    mail.queue(
        user=person,
        kind="invitation",
        template="invitation",
        context={
            "league": invitation.league.name,
            "by": invitation.invited_by.name if invitation.invited_by else "",
            "link": reverse("leagues:accept", kwargs={"token": invitation.token}),
            "expires_at": invitation.expires_at,  # (said in the reader's language: the template)
        },
        email=to,
        language=language,
        league=invitation.league,
    )


def invitation_for(*, token: str, user: Any) -> LeagueInvitation:
    """The invitation its page offers ``user`` (its league, who sent it), or the refusal
    accepting it would get: the page says it before the button, not after. Writes
    nothing."""
    _require_signed_in(user)
    found = LeagueInvitation.objects.select_related("league", "invited_by").filter(token=token)
    return _acceptable(found.first(), user)


def _acceptable(invitation: LeagueInvitation | None, user: Any) -> LeagueInvitation:
    """For an invitation by address, any signed-in account that opened the link (0024);
    for one by name, that account only (the refusal does not name it)."""
    if invitation is None or invitation.accepted_at or invitation.withdrawn_at:
        raise NotFound(_("this invitation is not valid (any more)"))
    if invitation.expires_at <= timezone.now():
        raise NotFound(
            _("this invitation expired on %(day)s: ask the league's admins for a new one")
            % {"day": dates.when(invitation.expires_at, "time")}
        )
    if invitation.invitee_id is not None and invitation.invitee_id != user.pk:
        raise NotAllowed(_("this invitation is for another account"))
    return invitation


def accept_invitation(*, token: str, user: Any) -> Membership:
    """The invited person becomes a member (:func:`_acceptable` says who may)."""
    _require_signed_in(user)
    with transaction.atomic():
        found = LeagueInvitation.objects.select_for_update().filter(token=token).first()
        invitation = _acceptable(found, user)
        invitation.accepted_at = timezone.now()
        invitation.save(update_fields=["accepted_at"])
        membership = make_member(invitation.league, user)
        JoinRequest.objects.filter(league=invitation.league, user=user).delete()
    return membership


def remove_member(*, league: League | str, user: Any, by: Any) -> None:
    """An admin takes a member out: their entries in draft seasons go, their games already
    started go on (an admin may replace them with the game tools), they are told by email
    in their language, and they do not join again by themselves: an admin's invitation
    brings them back (``Removal``; an open league's "Join" button let them straight back in,
    docs/decisions/0036). Not oneself (leave the league) nor the league's owner."""
    from leagues.services import leave_league

    found = _league(league)
    require_manager(found, by)
    with transaction.atomic():
        # Under the member's row lock: of two clicks on "remove", the second finds no member
        # (and sends no second email).
        require_removable(found, user, by, lock=True)
        leave_league(league=found, user=user)
        Removal.objects.update_or_create(league=found, user=user, defaults={"removed_by": by})
        # (an invitation still waiting for them would bring them straight back: found by review)
        found.invitations.filter(
            Q(invitee=user) | Q(email__iexact=user.email),
            accepted_at__isnull=True,
            withdrawn_at__isnull=True,
        ).update(withdrawn_at=timezone.now())
        mail.queue(
            kind="removed",
            template="removed",
            context={
                "league": found.name,
                "name": user.name,
                "games": len(running_games(league=found, user=user)),
                "link": reverse("leagues:detail", kwargs={"slug": found.slug}),
            },
            user=user,
            league=found,
        )


def require_removable(league: League, user: Any, by: Any, *, lock: bool = False) -> None:
    """A member, not the admin themself (their way out is "Leave the league", which lets
    them back), not the owner (a league always has its owner; 0014), not an admin (only the
    owner dismisses one, 0014: removed, they kept the role and took themself back in)."""
    if user.pk == by.pk:
        raise InvalidRequest(_('to leave the league, use "Leave the league" on its page'))
    if user.pk == league.created_by_id:
        raise InvalidRequest(_("the owner of a league stays one of its members"))
    members = league.memberships.select_for_update() if lock else league.memberships.all()
    if not members.filter(user=user).exists():
        raise NotFound(not_a_member(league, user))
    if league.admins.filter(pk=user.pk).exists():
        # (removed, an admin kept the role, and took themself back in as any admin may)
        raise InvalidRequest(
            _(
                "%(name)s is an admin of the league '%(league)s': its owner dismisses them "
                "as an admin first"
            )
            % {"name": user.name, "league": league.name}
        )


def not_a_member(league: League, user: Any) -> str:
    """What removing someone who is not (or no longer) a member is told."""
    return _("%(name)s is not a member of the league '%(league)s'") % {
        "name": user.name,
        "league": league.name,
    }


def running_games(*, league: League, user: Any) -> list[Game]:
    """The league's games ``user`` still plays: a removal leaves them running (the
    confirmation page and the email say so)."""
    games = Game.objects.filter(
        season_game__season__league=league, status=Game.Status.ACTIVE, seats__user=user
    )
    return list(games.distinct().order_by("pk"))


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
    league = league_of(found)
    if arguments.get("substitute") is not None and league is not None:
        require_member(league, arguments["substitute"])  # (who joined, plays its games)
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
