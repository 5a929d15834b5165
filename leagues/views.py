"""The league pages (mounted at ``/leagues/``): read-only, but for joining and leaving a
league. Each view calls one read (:mod:`leagues.present`) or one service."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.services.errors import NotFound, ServiceError
from leagues import manage, present, selectors, services
from leagues.models import JoinRequest


@login_required
@require_http_methods(["GET", "HEAD"])
def league_list(request: HttpRequest) -> HttpResponse:
    leagues = [present.league_summary(league) for league in selectors.leagues()]
    return render(request, "leagues/list.html", {"leagues": leagues})


@login_required
@require_http_methods(["GET", "HEAD"])
def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    number = request.GET.get("season")
    try:
        league = selectors.league_by_slug(slug=slug)
        page = present.standings(league, int(number) if number and number.isdigit() else None)
    except NotFound as exc:
        return render(request, "leagues/missing.html", {"error": exc}, status=404)
    context = {
        "league": present.league_detail(league),
        "page": page,
        "is_member": selectors.is_member(league=league, user=request.user),
        "may_manage": services.may_manage(league, request.user),
        "removed": services.was_removed(league, request.user),
        "asked": league.join_requests.filter(
            pk__isnull=False, user_id=request.user.pk or 0
        ).exists(),
        "entered": set(
            selectors.seasons(league=league)
            .filter(entries__user_id=request.user.pk or 0)
            .values_list("number", flat=True)
        ),
    }
    return render(request, "leagues/detail.html", context)


@login_required
@require_POST
def join(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        joined = manage.ask_to_join(league=slug, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        if isinstance(joined, JoinRequest):
            messages.success(request, _("Asked: an admin of the league will answer."))
        else:
            messages.success(request, _("You are a member of this league."))
    return redirect("leagues:detail", slug=slug)


@login_required
@require_POST
def leave(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        services.leave_league(league=slug, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("You have left this league."))
    return redirect("leagues:detail", slug=slug)
