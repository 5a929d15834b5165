"""The league admins' pages (``/leagues/<slug>/manage/`` and the season pages), and the
game tools' door. Each view checks the form's shape and calls one service of
:mod:`leagues.manage` or :mod:`leagues.services`; anyone the service refuses gets a 403
page (signed out too: nothing here redirects to the sign-in page, there is nothing for
them to do), and nothing is written."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import User
from games.models import Game
from games.services.errors import NotAllowed, NotFound, ServiceError
from leagues import manage, present, services
from leagues.forms import (
    AnnounceForm,
    InviteForm,
    LeagueForm,
    PersonForm,
    SeasonForm,
    TakeInForm,
    ToolForm,
)
from leagues.models import League, Season


def _refused(request: HttpRequest, exc: ServiceError) -> HttpResponse:
    """404 for what does not exist; 403 for what exists but is not for this reader, under
    its own heading (it said "No such league" above "only an admin ... does this")."""
    if isinstance(exc, NotFound):
        return render(request, "leagues/missing.html", {"error": exc}, status=404)
    return render(request, "leagues/missing.html", {"error": exc, "refused": True}, status=403)


def _league_for_admin(request: HttpRequest, slug: str) -> League:
    found = League.objects.filter(slug=slug).first()
    if found is None:
        raise NotFound(_("there is no league '%(league)s'") % {"league": slug})
    manage.require_manager(found, request.user)
    return found


def _season(league: League, number: int) -> Season:
    found = league.seasons.filter(number=number).first()
    if found is None:
        raise NotFound(_("%(league)s has no season %(n)s") % {"league": league.name, "n": number})
    return found


def _act(
    request: HttpRequest,
    back: str,
    action: Callable[[], Any],
    done: str | Callable[[Any], str],
) -> HttpResponse:
    """Run ``action``: a refusal of who may is a 403 page, any other refusal a message;
    ``done`` says what it did (a callable: from what ``action`` returned)."""
    try:
        result = action()
    except NotAllowed as exc:
        return _refused(request, exc)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done(result) if callable(done) else done)
    return redirect(back)


# -- creating a league ---------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def create(request: HttpRequest) -> HttpResponse:
    """Anyone signed in creates a league and becomes its owner and first admin."""
    chosen = request.GET.get("game") or None
    if "change_game" in request.POST:  # (not a submission: nothing judged yet)
        form = LeagueForm.for_the_game_chosen(request.POST)
    else:
        form = LeagueForm(request.POST or None, game_type=chosen)
    if request.method == "POST" and form.is_bound and form.is_valid():
        data = form.cleaned_data
        try:
            league = services.create_league(
                creator=request.user,
                name=data["name"],
                game_type=data["game_type"],
                options=form.options(),
                description=data["description"],
                **form.settings(),
            )
        except ServiceError as exc:  # under the field it is about (the name), if it says
            field = exc.extra.get("field")
            form.add_error(field if field in form.fields else None, exc.message)
        else:
            messages.success(request, _("Your league is ready: open its first season."))
            return redirect("leagues:manage", slug=league.slug)
    return render(request, "leagues/create.html", {"form": form})


# -- the admin page -------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD"])
def manage_page(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        league = _league_for_admin(request, slug)
    except ServiceError as exc:
        return _refused(request, exc)
    initial = {
        "name": league.name,
        "description": league.description,
        "game_type": league.game_type,
        "edition": next(iter(league.options.values()), None),
        "players_per_game": league.players_per_game,
        "turn_hours": league.turn_hours,
        "max_timeouts": league.max_timeouts,
        "vacation_days": league.vacation_days,
        "membership": "open" if league.open else "approval",
    }
    context = {
        "league": present.league_summary(league),
        # Two forms on one page with fields of the same names: ids of their own, so that
        # each label names its own field (the names posted stay the same).
        "settings_form": LeagueForm(
            initial=initial, game_type=league.game_type, fixed_type=True, auto_id="settings-%s"
        ),
        "admin_form": PersonForm(prefix="admin"),
        "member_form": TakeInForm(prefix="member"),
        "season_form": SeasonForm(league=league, auto_id="season-%s"),
        "announce_form": AnnounceForm(),
        "admins": league.admins.order_by("id"),
        "owner_id": league.created_by_id,
        "is_owner": manage.is_owner(league, request.user),
        "members": [m.user for m in league.memberships.select_related("user")],
        "admin_ids": set(league.admins.values_list("pk", flat=True)),
        "requests": [r.user for r in league.join_requests.select_related("user")],
        "invited": manage.waiting_invitations(league=league, by=request.user),
        "seasons": league.seasons.order_by("-number"),
    }
    return render(request, "leagues/manage.html", context)


def _post(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A POST-only admin action: the league resolved and its admin checked first."""

    @require_POST
    def wrapped(request: HttpRequest, slug: str, **kwargs: Any) -> HttpResponse:
        try:
            league = _league_for_admin(request, slug)
        except ServiceError as exc:
            return _refused(request, exc)
        return view(request, league, **kwargs)

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


def _back(league: League) -> str:
    return f"/leagues/{league.slug}/manage/"


@_post
def edit(request: HttpRequest, league: League) -> HttpResponse:
    form = LeagueForm(
        request.POST,
        game_type=league.game_type,
        fixed_type=True,
        initial={"game_type": league.game_type},
    )
    if not form.is_valid():
        messages.error(
            request,
            _("Check the league's settings: %(errors)s")
            % {"errors": "; ".join(str(e) for errs in form.errors.values() for e in errs)},
        )
        return redirect(_back(league))
    data = form.cleaned_data
    return _act(
        request,
        _back(league),
        lambda: manage.update_league(
            league=league,
            by=request.user,
            name=data["name"],
            description=data["description"],
            options=form.options(),
            **form.settings(),
        ),
        _("Saved."),
    )


def _person(request: HttpRequest, prefix: str) -> User | None:
    """The member named in the form (by display name only: never found by address, see
    ``manage.find_by_name``), or None with the refusal said."""
    form = PersonForm(request.POST, prefix=prefix)
    if not form.is_valid():
        messages.error(request, _("Give a member's display name."))
        return None
    try:
        return manage.find_by_name(form.cleaned_data["who"])
    except ServiceError as exc:
        messages.error(request, exc.message)
        return None


@_post
def appoint(request: HttpRequest, league: League) -> HttpResponse:
    if not manage.is_owner(league, request.user):
        return _refused(request, NotAllowed(_("only the owner of a league appoints its admins")))
    user = _person(request, "admin")
    if user is None:
        return redirect(_back(league))
    return _act(
        request,
        _back(league),
        lambda: manage.appoint_admin(league=league, user=user, by=request.user),
        _("%(name)s is an admin of this league.") % {"name": user.name},
    )


@_post
def dismiss(request: HttpRequest, league: League, user_id: int) -> HttpResponse:
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return _refused(request, NotFound(_("nobody with that id")))
    return _act(
        request,
        _back(league),
        lambda: manage.dismiss_admin(league=league, user=user, by=request.user),
        _("%(name)s is no longer an admin.") % {"name": user.name},
    )


@_post
def add_member(request: HttpRequest, league: League) -> HttpResponse:
    """Invite a player, by display name or address (``manage.take_in``): the answer for an
    address is the same whether an account has it or not."""
    form = TakeInForm(request.POST, prefix="member")
    if not form.is_valid():
        messages.error(request, _("Give a display name or an email address."))
        return redirect(_back(league))
    return _take_in(request, league, form.cleaned_data["who"])


def _take_in(request: HttpRequest, league: League, who: str) -> HttpResponse:
    return _act(
        request,
        _back(league),
        lambda: manage.take_in(league=league, by=request.user, who=who),
        _said,
    )


def _said(taken: manage.TakenIn) -> str:
    """What taking someone in did, for the admin: for an address, the same words whether
    an account has it or not (only what was typed, and whether it was typed before)."""
    sentences = {
        manage.Outcome.INVITED: _("Invitation sent to %(who)s."),
        manage.Outcome.WAITING: _(
            "An invitation to %(who)s is already waiting for an answer: none sent again."
        ),
        manage.Outcome.ACCEPTED: _("%(who)s had asked to join: request accepted."),
        manage.Outcome.MEMBER: _("%(who)s is a member."),
    }
    return sentences[taken.outcome] % {"who": taken.who}


@require_http_methods(["GET", "HEAD", "POST"])
def remove_member(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    """GET: what removing the member does, and a button to say yes (as resigning a game
    asks first: one click on "remove" took a player out); POST: remove them
    (``manage.remove_member``: they are told by email, and come back only invited)."""
    try:
        league = _league_for_admin(request, slug)
    except ServiceError as exc:
        return _refused(request, exc)
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return _refused(request, NotFound(_("nobody with that id")))
    if request.method == "POST":  # (the service says it if they are no member any more)
        return _act(
            request,
            _back(league),
            lambda: manage.remove_member(league=league, user=user, by=request.user),
            _("%(name)s is no longer a member: they are told by email.") % {"name": user.name},
        )
    try:  # (removed already, in a second tab; the owner; an admin; oneself)
        manage.require_removable(league, user, request.user)
    except ServiceError as exc:  # (said on the admin's page: it read "No such league")
        messages.error(request, exc.message)
        return redirect(_back(league))
    context = {
        "league": present.league_summary(league),
        "member": user,
        "games": [
            present.season_game(g.season_game)
            for g in manage.running_games(league=league, user=user)
        ],
    }
    return render(request, "leagues/remove.html", context)


@_post
def answer(request: HttpRequest, league: League, user_id: int, verdict: str) -> HttpResponse:
    user = User.objects.filter(pk=user_id).first()
    if user is None or verdict not in ("accept", "refuse"):
        return _refused(request, NotFound(_("there is no such request")))
    accept = verdict == "accept"
    return _act(
        request,
        _back(league),
        lambda: manage.answer_request(league=league, user=user, by=request.user, accept=accept),
        _("Request accepted.") if accept else _("Request refused."),
    )


@_post
def invite(request: HttpRequest, league: League) -> HttpResponse:
    """An invitation by address only (the page's one form posts to :func:`add_member`)."""
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give an email address."))
        return redirect(_back(league))
    return _take_in(request, league, form.cleaned_data["email"])


@_post
def withdraw_invitation(request: HttpRequest, league: League, invitation_id: int) -> HttpResponse:
    """One of the admin's own waiting invitations taken back: its link seats nobody now."""
    return _act(
        request,
        _back(league),
        lambda: manage.withdraw_invitation(
            league=league, invitation=invitation_id, by=request.user
        ),
        lambda whom: _("The invitation to %(whom)s was withdrawn.") % {"whom": whom},
    )


@_post
def announce(request: HttpRequest, league: League) -> HttpResponse:
    form = AnnounceForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("An announcement has a subject and a text."))
        return redirect(_back(league))
    data = form.cleaned_data
    return _act(
        request,
        _back(league),
        lambda: manage.announce(
            league=league, by=request.user, subject=data["subject"], body=data["body"]
        ),
        _("Announcement sent to the members who take league email."),
    )


@_post
def open_season(request: HttpRequest, league: League) -> HttpResponse:
    form = SeasonForm(request.POST, league=league)
    if not form.is_valid():
        messages.error(
            request,
            _("Check the season's settings: %(errors)s")
            % {"errors": "; ".join(str(e) for errs in form.errors.values() for e in errs)},
        )
        return redirect(_back(league))
    created: list[Season] = []
    response = _act(
        request,
        _back(league),
        lambda: created.append(
            services.open_season(league=league, by=request.user, **form.cleaned_data)
        ),
        _("The season is open for enrolment."),
    )
    if created:
        return redirect("leagues:season", slug=league.slug, number=created[0].number)
    return response


# -- a season -------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD"])
def season_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The season as its admins run it: entries, enrolment, the preview of the tables."""
    try:
        league = _league_for_admin(request, slug)
        season = _season(league, number)
    except ServiceError as exc:
        return _refused(request, exc)
    context = {
        "league": present.league_summary(league),
        "season": season,
        "entries": season.entries.select_related("user").order_by("division", "id"),
        "plans": manage.preview(season=season),
        "games": present.season(season, games=True)["games"],
        "member_form": PersonForm(prefix="member"),
        # (a finished season showed its games but not its final table)
        "table": [] if season.status == Season.Status.DRAFT else _table(league, season),
        "following": Season.objects.filter(previous=season).first(),
    }
    return render(request, "leagues/season.html", context)


def _table(league: League, season: Season) -> list[dict[str, Any]]:
    """The season's standings as the league's page shows them (the one partial)."""
    return list(present.standings(league, season.number)["table"])


def _season_post(
    view: Callable[[HttpRequest, League, Season], HttpResponse],
) -> Callable[..., HttpResponse]:
    @require_POST
    def wrapped(request: HttpRequest, slug: str, number: int) -> HttpResponse:
        try:
            league = _league_for_admin(request, slug)
            season = _season(league, number)
        except ServiceError as exc:
            return _refused(request, exc)
        return view(request, league, season)

    wrapped.__name__ = view.__name__
    return wrapped


def _season_back(league: League, season: Season) -> str:
    return f"/leagues/{league.slug}/seasons/{season.number}/"


@_season_post
def enrolment(request: HttpRequest, league: League, season: Season) -> HttpResponse:
    opening = request.POST.get("open") == "1"
    return _act(
        request,
        _season_back(league, season),
        lambda: manage.set_enrolment(season=season, by=request.user, open=opening),
        _("Enrolment is open.") if opening else _("Enrolment is closed."),
    )


@_season_post
def enter_player(request: HttpRequest, league: League, season: Season) -> HttpResponse:
    user = _person(request, "member")
    if user is None:
        return redirect(_season_back(league, season))
    return _act(
        request,
        _season_back(league, season),
        lambda: services.enter_season(season=season, user=user, by=request.user),
        _("%(name)s is entered.") % {"name": user.name},
    )


@_season_post
def start(request: HttpRequest, league: League, season: Season) -> HttpResponse:
    return _act(
        request,
        _season_back(league, season),
        lambda: services.start_season(season=season, by=request.user),
        _("The season has started: its games are drawn."),
    )


@_season_post
def finish(request: HttpRequest, league: League, season: Season) -> HttpResponse:
    return _act(
        request,
        _season_back(league, season),
        lambda: services.finish_season(season=season, by=request.user),
        _("The season is finished."),
    )


@_season_post
def next_season(request: HttpRequest, league: League, season: Season) -> HttpResponse:
    """The next season from a finished one: its players entered again, promoted or
    relegated (``services.next_season``); the admin lands on it, a draft to run. Asked
    again (a double click), the same season, said so."""
    already = Season.objects.filter(previous=season).exists()
    opened: list[Season] = []
    response = _act(
        request,
        _season_back(league, season),
        lambda: opened.append(services.next_season(season=season, by=request.user)),
        _("The next season was opened already: here it is.")
        if already
        else _("The next season is open: its players are entered, promoted and relegated."),
    )
    if opened:
        return redirect("leagues:season", slug=league.slug, number=opened[0].number)
    return response


# -- members' own doors -----------------------------------------------------------------------


@login_required
@require_POST
def enter(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A member enters (or, ``withdraw``, leaves) a draft season."""
    back = f"/leagues/{slug}/?season={number}"
    league = League.objects.filter(slug=slug).first()
    season = league.seasons.filter(number=number).first() if league else None
    if season is None:
        return _refused(request, NotFound(_("there is no such season")))
    if request.POST.get("withdraw"):
        return _act(
            request,
            back,
            lambda: services.withdraw_entry(season=season, user=request.user),
            _("You are out of this season."),
        )
    return _act(
        request,
        back,
        lambda: services.enter_season(season=season, user=request.user),
        _("You are entered in this season."),
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def accept(request: HttpRequest, token: str) -> HttpResponse:
    """An emailed invitation's link: which league, from whom, and a button to join (a GET
    changes nothing); an invitation that is not this reader's to take says so at once."""
    if request.method != "POST":
        try:
            invitation = manage.invitation_for(token=token, user=request.user)
        except ServiceError as exc:
            return _not_yours(request, exc)
        context = {
            "token": token,
            "league": invitation.league,
            "by": invitation.invited_by.name if invitation.invited_by else "",
        }
        return render(request, "leagues/accept.html", context)
    try:
        membership = manage.accept_invitation(token=token, user=request.user)
    except ServiceError as exc:
        return _not_yours(request, exc)
    messages.success(request, _("You are a member of this league."))
    return redirect("leagues:detail", slug=membership.league.slug)


def _not_yours(request: HttpRequest, exc: ServiceError) -> HttpResponse:
    """An invitation that is no more (404) or another account's (403), under the page's
    own heading ("No such league" said of an invitation was wrong)."""
    status = 404 if isinstance(exc, NotFound) else 403
    return render(request, "leagues/accept.html", {"error": exc}, status=status)


# -- the game tools ---------------------------------------------------------------------------


@require_POST
def tool(request: HttpRequest, game_id: int, name: str) -> HttpResponse:
    """One game tool on one game, from the game page's tools (``templates/games/_tools.html``)."""
    back = f"/games/{game_id}/"
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return _refused(request, NotFound(_("there is no game #%(game)s") % {"game": game_id}))
    refusal = manage.tools_refusal(game, request.user)
    if refusal is not None:
        return _refused(request, NotAllowed(refusal))
    form = ToolForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Say why (the players read it)."))
        return redirect(back)
    data = form.cleaned_data
    arguments: dict[str, Any] = {}
    if name == "extend":
        arguments["hours"] = data["hours"] or 24
    if name == "replace":
        arguments["seat"] = data["seat"] if data["seat"] is not None else -1
        if data["substitute"]:
            try:
                arguments["substitute"] = manage.find_by_name(data["substitute"])
            except ServiceError as exc:
                messages.error(request, exc.message)
                return redirect(back)
        else:
            arguments["bot"] = data["bot"] or "greedy"
    return _act(
        request,
        back,
        lambda: manage.use_tool(
            game=game, by=request.user, tool=name, why=data["why"], **arguments
        ),
        _("Done: the players are told by email."),
    )
