"""League use cases, keyword-only like ``games.services``: every door (the Django admin, the
web pages, tests, tools) calls these and nothing else writes leagues.

A season's games are created through the platform's own services (``create_game``,
``join_game``, ``start_game``): they are ordinary games, played through every door. Only a
league admin (or staff) manages a league; refusals are ``games.services`` errors, with a
message for a person, and write nothing. See ``docs/decisions/0006-leagues.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from games import services as game_services
from games.engines.base import InvalidOptions
from games.engines.registry import get_engine, slugs
from games.engines.rng import new_seed
from games.models import Game
from games.services.errors import InvalidRequest, NotAllowed, NotFound, ServiceError
from games.services.games import MAX_TIMEOUTS, MAX_TURN_HOURS, MAX_VACATION_DAYS
from leagues import pairing, tables
from leagues.models import (
    League,
    LeagueInvitation,
    Membership,
    Removal,
    Season,
    SeasonEntry,
    SeasonGame,
)
from leagues.selectors import season_standings

MAX_ROUNDS = 10


class SeasonStatusConflict(ServiceError, code="season_status", status=409):
    """The season is not in the status the action needs (entries change only in draft...)."""


# -- who may ----------------------------------------------------------------------------------


def may_manage(league: League, user: Any) -> bool:
    """A league's admins and the staff manage it."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff) or league.admins.filter(pk=user.pk).exists()


def _require_signed_in(user: Any) -> None:
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotAllowed(_("sign in first"))


def _only_admins(does: str) -> str:
    """The refusal for ``does`` (a key of the sentences above), translated now."""
    sentences = {
        "add_members": _("only an admin of the league '%(league)s' adds members"),
        "open_seasons": _("only an admin of the league '%(league)s' opens seasons"),
        "enter_others": _("only an admin of the league '%(league)s' enters other players"),
        "withdraw_others": _("only an admin of the league '%(league)s' withdraws other players"),
        "start_seasons": _("only an admin of the league '%(league)s' starts its seasons"),
        "finish_seasons": _("only an admin of the league '%(league)s' finishes its seasons"),
    }
    return sentences[does]


def _require_admin(league: League, user: Any, does: str) -> None:
    """``does``: "add_members", "open_seasons", "enter_others", "withdraw_others",
    "start_seasons" or "finish_seasons" (one whole sentence each, for translators)."""
    _require_signed_in(user)
    if not may_manage(league, user):
        raise NotAllowed(_only_admins(does) % {"league": league.name})


def require_member(league: League, user: Any) -> None:
    """Refuse anyone who is not a member of ``league`` (a message on the admin's page, not
    a 403: the admin may, the person is not in the league): admins appoint, enter and seat
    as substitutes members only (docs/decisions/0028)."""
    if not league.memberships.filter(user=user).exists():
        raise InvalidRequest(
            _("%(name)s is not a member of the league '%(league)s': invite them first")
            % {"name": user.name, "league": league.name}
        )


def _league(league: League | str) -> League:
    if isinstance(league, League):
        return league
    found = League.objects.filter(slug=league).first()
    if found is None:
        raise NotFound(_("there is no league '%(league)s'") % {"league": league}, league=league)
    return found


def _locked_season(season: Season | int) -> Season:
    pk = season.pk if isinstance(season, Season) else season
    found = Season.objects.select_for_update().select_related("league").filter(pk=pk).first()
    if found is None:
        raise NotFound(_("there is no season #%(season)s") % {"season": pk}, season=pk)
    return found


def _require_status(season: Season, status: str, doing: str) -> None:
    """``doing``: "enter", "withdraw", "start" or "finish" (one whole sentence each)."""
    if season.status != status:
        sentences = {
            "enter": _("%(season)s of %(league)s is %(status)s: entries close at the start"),
            "withdraw": _("%(season)s of %(league)s is %(status)s: its players are drawn already"),
            "start": _("%(season)s of %(league)s is %(status)s: it can be started once only"),
            "finish": _("%(season)s of %(league)s is %(status)s: only a running season finishes"),
        }
        raise SeasonStatusConflict(
            sentences[doing]
            % {
                "season": season.title,
                "league": season.league.name,
                "status": season.get_status_display(),
            },
            status_now=season.status,
        )


def _whole(name: str, value: Any, low: int, high: int) -> int:
    """``name``: "players_per_game", "rounds", "turn_hours", "max_timeouts" or
    "vacation_days" (one whole sentence each, for translators)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        sentences = {
            "players_per_game": _(
                "players per game is a whole number from %(low)s to %(high)s, not %(value)r"
            ),
            "rounds": _("rounds is a whole number from %(low)s to %(high)s, not %(value)r"),
            "turn_hours": _(
                "hours per turn is a whole number from %(low)s to %(high)s, not %(value)r"
            ),
            "max_timeouts": _(
                "missed deadlines before a forfeit is a whole number from %(low)s to "
                "%(high)s, not %(value)r"
            ),
            "vacation_days": _(
                "vacation days is a whole number from %(low)s to %(high)s, not %(value)r"
            ),
        }
        raise InvalidRequest(sentences[name] % {"low": low, "high": high, "value": value})
    return value


def _engine(game_type: str) -> Any:
    if game_type not in slugs():
        raise InvalidRequest(
            _("unknown game type '%(type)s'; known: %(known)s")
            % {"type": game_type, "known": ", ".join(slugs())}
        )
    return get_engine(game_type)


def _check_options(game_type: str, options: Mapping[str, Any], players: int) -> None:
    try:
        _engine(game_type).normalize_options(dict(options), players)
    except InvalidOptions as exc:
        raise InvalidRequest(str(exc), code="invalid_options") from exc


# -- leagues and members ------------------------------------------------------------------------


def create_league(
    *,
    creator: Any,
    name: str,
    game_type: str,
    slug: str | None = None,
    options: Mapping[str, Any] | None = None,
    description: str = "",
    open: bool = True,
    players_per_game: int | None = None,
    turn_hours: int = 72,
    max_timeouts: int = 3,
    vacation_days: int = 14,
) -> League:
    """A league; its creator is its first admin (not a member: admins need not play). The
    game settings are its seasons' defaults (``players_per_game`` not given: the engine's
    fewest, at least 2), checked here like a season's, in one place for every door."""
    _require_signed_in(creator)
    name = (name or "").strip()
    if not name:
        raise InvalidRequest(_("a league needs a name"))
    slug, field = _address(name, slug)
    engine = _engine(game_type)
    low, high = max(2, engine.min_players), min(6, engine.max_players)
    players_per_game = low if players_per_game is None else players_per_game
    _whole("players_per_game", players_per_game, low, high)
    _whole("turn_hours", turn_hours, 1, MAX_TURN_HOURS)
    _whole("max_timeouts", max_timeouts, 0, MAX_TIMEOUTS)
    _whole("vacation_days", vacation_days, 0, MAX_VACATION_DAYS)
    _check_options(game_type, options or {}, players_per_game)
    try:
        with transaction.atomic():
            league = League.objects.create(
                name=name,
                slug=slug,
                game_type=game_type,
                options=dict(options or {}),
                description=description,
                open=bool(open),
                created_by=creator,
                players_per_game=players_per_game,
                turn_hours=turn_hours,
                max_timeouts=max_timeouts,
                vacation_days=vacation_days,
            )
            league.admins.add(creator)
    except IntegrityError:
        taken = (
            _("the address '%(slug)s' is taken: choose another slug")
            if field == "slug"
            else _(
                "a league of that name already exists (its address is '%(slug)s'): choose "
                "another name"
            )
        )
        raise InvalidRequest(taken % {"slug": slug}, field=field) from None
    return league


def _address(name: str, slug: str | None) -> tuple[str, str]:
    """The league's address and the field it comes from, for a refusal to name: the slug
    given, else the name. The site's form has no slug: a refusal that said "choose another
    slug" asked its reader for a field they could not find."""
    if slug:
        made = slugify(slug)
        if not made:
            raise InvalidRequest(
                _("cannot make an address from '%(name)s': give a slug") % {"name": name},
                field="slug",
            )
        return made, "slug"
    made = slugify(name)
    if not made:
        raise InvalidRequest(
            _("the name '%(name)s' makes no web address: put some Latin letters or digits in it")
            % {"name": name},
            field="name",
        )
    return made, "name"


def join_league(*, league: League | str, user: Any) -> Membership:
    """Join an open league (joining twice returns the membership held)."""
    _require_signed_in(user)
    found = _league(league)
    existing = found.memberships.filter(user=user).first()
    if existing is not None:
        return existing
    require_not_removed(found, user)
    if not found.open:
        raise NotAllowed(
            _("the league '%(league)s' is closed: ask one of its admins to add you")
            % {"league": found.name}
        )
    return make_member(found, user)


def was_removed(league: League, user: Any) -> bool:
    """Whether an admin removed ``user`` from ``league`` and nobody brought them back."""
    return bool(getattr(user, "pk", None)) and league.removals.filter(user=user).exists()


def require_not_removed(league: League, user: Any) -> None:
    """A member an admin removed does not come back by themselves (joining an open league,
    asking to join): an admin's invitation brings them back (docs/decisions/0036)."""
    if was_removed(league, user):
        raise NotAllowed(
            _(
                "an admin removed you from the league '%(league)s': you may join again with "
                "an invitation from one of its admins"
            )
            % {"league": league.name}
        )


def make_member(league: League, user: Any) -> Membership:
    """The membership, made once whatever the way in (joining an open league, a request
    accepted, an invitation accepted): the invitations by the person's name to the league
    that wait go with it, answered (the admins' list of invitations waiting went on showing a
    member, and the link let them back in after they were removed; found by review)."""
    membership, _created = Membership.objects.get_or_create(league=league, user=user)
    Removal.objects.filter(league=league, user=user).delete()  # (an admin took them back)
    LeagueInvitation.objects.filter(league=league, invitee=user, accepted_at__isnull=True).delete()
    return membership


def add_member(*, league: League | str, user: Any, by: Any) -> Membership:
    """An admin makes ``user`` a member at once (open or closed league), without asking
    them: for tools and tests only. The site's admins invite (``leagues.manage.take_in``):
    nobody is put in a league without saying yes (docs/decisions/0028)."""
    found = _league(league)
    _require_admin(found, by, "add_members")
    return make_member(found, user)


def leave_league(*, league: League | str, user: Any) -> None:
    """Leave a league: the entries in its draft seasons go too; games already started go on
    (resign them to stop playing)."""
    _require_signed_in(user)
    found = _league(league)
    with transaction.atomic():
        SeasonEntry.objects.filter(
            season__league=found, season__status=Season.Status.DRAFT, user=user
        ).delete()
        found.memberships.filter(user=user).delete()
        # (an invitation by their name waits no more: its link would let them back in; one
        # to an address is whoever follows it, and is the admin's as typed: it stays)
        LeagueInvitation.objects.filter(
            league=found, invitee=user, accepted_at__isnull=True
        ).delete()


# -- seasons ----------------------------------------------------------------------------------


def open_season(
    *,
    league: League | str,
    by: Any,
    name: str = "",
    players_per_game: int | None = None,
    rounds: int = 1,
    turn_hours: int | None = None,
    max_timeouts: int | None = None,
    vacation_days: int | None = None,
    starts_at: Any = None,
    ends_at: Any = None,
    smallest_table: int | None = None,
    divisions: int = 1,
    movers: int = 1,
) -> Season:
    """A draft season, numbered after the league's last one: members enter it, then an
    admin starts it. The game settings not given are the league's."""
    found = _league(league)
    _require_admin(found, by, "open_seasons")
    players_per_game = found.players_per_game if players_per_game is None else players_per_game
    turn_hours = found.turn_hours if turn_hours is None else turn_hours
    max_timeouts = found.max_timeouts if max_timeouts is None else max_timeouts
    vacation_days = found.vacation_days if vacation_days is None else vacation_days
    engine = _engine(found.game_type)
    low, high = max(2, engine.min_players), min(6, engine.max_players)
    _whole("players_per_game", players_per_game, low, high)
    _whole("rounds", rounds, 1, MAX_ROUNDS)
    _whole("turn_hours", turn_hours, 1, MAX_TURN_HOURS)
    _whole("max_timeouts", max_timeouts, 0, MAX_TIMEOUTS)
    _whole("vacation_days", vacation_days, 0, MAX_VACATION_DAYS)
    if smallest_table is not None:
        _whole("players_per_game", smallest_table, low, players_per_game)
    _whole("rounds", divisions, 1, MAX_ROUNDS)
    _whole("rounds", movers, 0, 10)
    _check_options(found.game_type, found.options, players_per_game)
    if starts_at and ends_at and ends_at <= starts_at:
        raise InvalidRequest(_("a season ends after it starts"))
    with transaction.atomic():
        League.objects.select_for_update().get(pk=found.pk)  # numbers one at a time
        last = found.seasons.aggregate(last=Max("number"))["last"] or 0
        return Season.objects.create(
            league=found,
            number=last + 1,
            name=name,
            players_per_game=players_per_game,
            rounds=rounds,
            turn_hours=turn_hours,
            max_timeouts=max_timeouts,
            vacation_days=vacation_days,
            starts_at=starts_at,
            ends_at=ends_at,
            smallest_table=smallest_table,
            divisions=divisions,
            movers=movers,
        )


def enter_season(*, season: Season | int, user: Any, by: Any = None) -> SeasonEntry:
    """Enter a draft season: a member enters themself; an admin enters a member (who
    joined the league, so agreed to play its seasons: a season's games start and email
    them; nobody else is entered without saying yes, docs/decisions/0028). Entering twice
    returns the entry held."""
    by = user if by is None else by
    _require_signed_in(by)
    with transaction.atomic():
        locked = _locked_season(season)
        league = locked.league
        existing = locked.entries.filter(user=user).first()
        if existing is not None:
            return existing
        _require_status(locked, Season.Status.DRAFT, "enter")
        if by.pk != getattr(user, "pk", None):
            _require_admin(league, by, "enter_others")
            require_member(league, user)
        elif not league.memberships.filter(user=user).exists():
            raise NotAllowed(
                _("join the league '%(league)s' first, then enter its seasons")
                % {"league": league.name}
            )
        elif not locked.enrolment_open:
            raise SeasonStatusConflict(
                _("enrolment in %(season)s of %(league)s is closed: ask an admin")
                % {"season": locked.title, "league": league.name},
                status_now=locked.status,
            )
        division = locked.divisions  # newcomers start in the lowest division
        return SeasonEntry.objects.create(season=locked, user=user, division=division)


def withdraw_entry(*, season: Season | int, user: Any, by: Any = None) -> None:
    """Leave a draft season (yourself, or an admin takes a player out)."""
    by = user if by is None else by
    _require_signed_in(by)
    with transaction.atomic():
        locked = _locked_season(season)
        if by.pk != getattr(user, "pk", None):
            _require_admin(locked.league, by, "withdraw_others")
        _require_status(locked, Season.Status.DRAFT, "withdraw")
        locked.entries.filter(user=user).delete()


def start_season(*, season: Season | int, by: Any, seed: str | None = None) -> Season:
    """Draw the pairing from the season's seed and create, fill and start every game of
    every round through the platform's services, all in one transaction (all or nothing).
    ``seed`` is for tests and tools; the admin door never sets it."""
    _require_signed_in(by)
    with transaction.atomic():
        locked = _locked_season(season)
        league = locked.league
        _require_admin(league, by, "start_seasons")
        _require_status(locked, Season.Status.DRAFT, "start")
        entries = list(locked.entries.select_related("user").order_by("id"))
        refused = next((p for p in tables.season_plans(locked, entries) if not p.ok), None)
        if len(entries) < 2:
            raise InvalidRequest(
                _("%(season)s needs at least 2 players entered; it has %(count)s")
                % {"season": locked.title, "count": len(entries)},
                code="not_enough_players",
            )
        if refused is not None:  # what the season's preview says, word for word
            raise InvalidRequest(refused.text, code="tables_do_not_fit")
        locked.pairing_seed = seed or new_seed()
        for division in range(1, locked.divisions + 1):
            players = [e.user for e in entries if e.division == division]
            if not players:
                continue
            rounds = pairing.schedule(
                players,
                per_game=locked.players_per_game,
                rounds=locked.rounds,
                seed=locked.pairing_seed
                if division == 1
                else f"{locked.pairing_seed} division {division}",
            )
            met: dict[frozenset[int], list[list[Any]]] = {}
            for number, games in enumerate(rounds, start=1):
                for table in games:
                    game = _start_game(locked, pairing.rotated(table, met))
                    SeasonGame.objects.create(season=locked, game=game, round=number)
        locked.status = Season.Status.RUNNING
        locked.started_at = timezone.now()
        locked.save(update_fields=["pairing_seed", "status", "started_at"])
    if isinstance(season, Season):
        _copy(season, locked)
    return locked


def _start_game(season: Season, table: list[Any]) -> Game:
    """One game of the season: its first player creates it (so the game has a manager
    seated in it), the others join, and it starts. A public game: anyone may watch."""
    first, *others = table
    league = season.league
    game = game_services.create_game(
        creator=first,
        game_type=league.game_type,
        options=league.options,
        seats=len(table),
        turn_hours=season.turn_hours,
        max_timeouts=season.max_timeouts,
        vacation_days=season.vacation_days,
    )
    for user in others:  # (no "X joined" email: the start email names the whole table)
        game_services.join_game(game=game, user=user, announce=False)
    return game_services.start_game(game=game, by=first, keep_order=True)


def finish_season(*, season: Season | int, by: Any) -> Season:
    """Close a running season once every one of its games is over."""
    _require_signed_in(by)
    with transaction.atomic():
        locked = _locked_season(season)
        _require_admin(locked.league, by, "finish_seasons")
        _require_status(locked, Season.Status.RUNNING, "finish")
        over = (Game.Status.FINISHED, Game.Status.CANCELLED)
        games = Game.objects.filter(season_game__season=locked)
        left = games.exclude(status__in=over).count()
        if left:
            raise SeasonStatusConflict(
                _(
                    "%(season)s has games still being played (%(left)s of %(total)s): it "
                    "finishes when they are over"
                )
                % {"season": locked.title, "left": left, "total": games.count()},
                games_left=left,
            )
        locked.status = Season.Status.FINISHED
        locked.finished_at = timezone.now()
        locked.save(update_fields=["status", "finished_at"])
        _tell_the_end(locked)
    if isinstance(season, Season):
        _copy(season, locked)
    return locked


def _tell_the_end(season: Season) -> None:
    """Each entrant is emailed their final place in the season's table, in their language,
    with the link to it (closing a season told nobody; docs/decisions/0036). Written with
    the season's status: sent after the commit."""
    from leagues import mail, present  # (mail renders templates; present reads selectors)

    table = season_standings(season=season)
    places = _places(season, table)
    link = reverse("leagues:detail", kwargs={"slug": season.league.slug})
    for line in table:
        if line.user is None or line.user.pk not in places:  # (a substitute: no division)
            continue
        place, shared, players, division = places[line.user.pk]
        mail.queue(
            kind="season_over",
            template="season_over",
            context={
                "league": season.league.name,
                "season": present.season_label(season),
                "name": line.user.name,
                "place": place,
                "shared": shared,
                "players": players,
                "division": division,
                "points": line.points,
                "played": line.played,
                "wins": line.wins,
                "link": f"{link}?season={season.number}",
            },
            user=line.user,
            league=season.league,
        )


def _places(season: Season, table: list[Any]) -> dict[int, tuple[int, bool, int, int | None]]:
    """Each player's place in the table that counts for them: the season's, or with
    divisions their division's (promotion and relegation go by it: a place in the merged
    table, "1 of 12" for a second division's winner, meant nothing; found by review). A
    user id -> (place, shared, players in that table, division or None)."""
    if season.divisions <= 1:
        return {
            line.user.pk: (line.position, line.shared, len(table), None)
            for line in table
            if line.user is not None
        }
    division_of = dict(season.entries.values_list("user_id", "division"))
    found: dict[int, tuple[int, bool, int, int | None]] = {}
    for division in sorted(set(division_of.values())):
        lines = [x for x in table if x.user is not None and division_of.get(x.user.pk) == division]
        places: list[int] = []
        for index, line in enumerate(lines):
            level = index and _level(lines[index - 1], line)
            places.append(places[-1] if level else index + 1)
        for index, line in enumerate(lines):
            shared = places.count(places[index]) > 1
            found[line.user.pk] = (places[index], shared, len(lines), division)
    return found


def _level(a: Any, b: Any) -> bool:
    """Two lines the table ranks level (points, wins and games alike)."""
    return (a.points, a.wins, a.played) == (b.points, b.wins, b.played)


def _copy(target: Season, source: Season) -> None:
    for name in ("status", "pairing_seed", "started_at", "finished_at"):
        setattr(target, name, getattr(source, name))


# -- promotion and relegation -----------------------------------------------------------------


def moves_between_seasons(season: Season) -> dict[int, int]:
    """Each entered player's division in the next season (a user id -> division): in every
    division, the top ``season.movers`` of its table go up one (not from the first) and the
    bottom ``movers`` go down one (not from the last). A division's table is the season's
    standings of its players (points, wins, fewer games, then the player key: a tie at the
    line is decided by the table's own order). A division smaller than twice the movers
    moves nobody down that the same rule moved up: each player moves once at most."""
    division_of = dict(season.entries.values_list("user_id", "division"))
    order = [line.user.pk for line in season_standings(season=season) if line.user is not None]
    nxt = dict(division_of)
    for division in range(1, season.divisions + 1):
        table = [pk for pk in order if division_of.get(pk) == division]
        n = min(season.movers, len(table) // 2)
        if n == 0:
            continue
        if division > 1:
            for pk in table[:n]:
                nxt[pk] = division - 1
        if division < season.divisions:
            for pk in table[-n:]:
                nxt[pk] = division + 1
    return nxt


def next_season(*, season: Season | int, by: Any, name: str = "") -> Season:
    """The league's next season, opened from a finished one: the same settings, and every
    player of the finished season still a member entered again, promoted or relegated
    (:func:`moves_between_seasons`). A draft as any other: players may withdraw, newcomers
    enter (in the lowest division).

    Once per season: the finished season's row is locked, and a second request (a double
    click, a second tab) gets the season the first one opened, unchanged (two drafts with
    the same entrants could both be started: two round robins of the same pairings)."""
    _require_signed_in(by)
    with transaction.atomic():
        found = _locked_season(season)
        _require_admin(found.league, by, "open_seasons")
        already = Season.objects.filter(previous=found).first()
        if already is not None:
            return already
        _require_finished(found)
        members = set(found.league.memberships.values_list("user_id", flat=True))
        divisions = {pk: d for pk, d in moves_between_seasons(found).items() if pk in members}
        opened = open_season(
            league=found.league,
            by=by,
            name=name,
            players_per_game=found.players_per_game,
            rounds=found.rounds,
            turn_hours=found.turn_hours,
            max_timeouts=found.max_timeouts,
            vacation_days=found.vacation_days,
            smallest_table=found.smallest_table,
            divisions=found.divisions,
            movers=found.movers,
        )
        opened.previous = found
        opened.save(update_fields=["previous"])
        SeasonEntry.objects.bulk_create(
            SeasonEntry(season=opened, user_id=pk, division=division)
            for pk, division in sorted(divisions.items())
        )
    return opened


def _require_finished(season: Season) -> None:
    """The next season opens from a finished one only."""
    if season.status != Season.Status.FINISHED:
        raise SeasonStatusConflict(
            _("%(season)s of %(league)s is %(status)s: the next season opens from a finished one")
            % {
                "season": season.title,
                "league": season.league.name,
                "status": season.get_status_display(),
            },
            status_now=season.status,
        )
