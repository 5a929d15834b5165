"""Admin for leagues (staff): the league form is the site's choices and checks (no raw text
or JSON for the game and its options); seasons are run here as on the site.
Entries are edited inline while a season is a draft; starting and finishing a season are
admin actions that call the services (so the games are created as any game is)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.services.errors import ServiceError
from leagues import services
from leagues.forms import LeagueAdminForm
from leagues.models import League, Membership, Season, SeasonEntry, SeasonGame


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    fields = ("user", "joined_at")
    readonly_fields = ("joined_at",)
    raw_id_fields = ("user",)


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    form = LeagueAdminForm  # the site's choices and checks (leagues/forms.py)
    list_display = ("name", "slug", "game_type", "open", "created_at")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    raw_id_fields = ("admins", "created_by")
    inlines = (MembershipInline,)


class SeasonEntryInline(admin.TabularInline):
    model = SeasonEntry
    extra = 0
    fields = ("user", "entered_at")
    readonly_fields = ("entered_at",)
    raw_id_fields = ("user",)

    def _draft(self, obj: Any) -> bool:
        return obj is None or obj.status == Season.Status.DRAFT

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """Once the season has started, its players are the games' players: look only."""
        return super().get_readonly_fields(request, obj) if self._draft(obj) else self.fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._draft(obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._draft(obj)


class SeasonGameInline(admin.TabularInline):
    model = SeasonGame
    extra = 0
    fields = ("round", "game")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("__str__", "status", "players_per_game", "rounds", "started_at")
    list_filter = ("status",)
    readonly_fields = ("status", "pairing_seed", "started_at", "finished_at")
    inlines = (SeasonEntryInline, SeasonGameInline)
    actions = ("start_seasons", "finish_seasons")

    @admin.action(description=_("Start the selected seasons (draw and create their games)"))
    def start_seasons(self, request: HttpRequest, queryset: QuerySet[Season]) -> None:
        self._run(request, queryset, services.start_season, _("started"))

    @admin.action(description=_("Finish the selected seasons (all their games are over)"))
    def finish_seasons(self, request: HttpRequest, queryset: QuerySet[Season]) -> None:
        self._run(request, queryset, services.finish_season, _("finished"))

    def _run(
        self, request: HttpRequest, queryset: QuerySet[Season], service: Any, done: Any
    ) -> None:
        count = 0
        for season in queryset.select_related("league"):
            try:
                service(season=season, by=request.user)
            except ServiceError as exc:
                self.message_user(request, f"{season}: {exc.message}", messages.ERROR)
            else:
                count += 1
        if count:
            self.message_user(
                request,
                ngettext("%(n)d season %(done)s.", "%(n)d seasons %(done)s.", count)
                % {"n": count, "done": done},
                messages.SUCCESS,
            )
