"""REST read endpoints for leagues (mounted at ``/api/v1/leagues/``): the list, a league
with its seasons, and a season's standings with the league's ratings. Errors are the
platform's ``ServiceError`` subclasses, so they answer in the API's one error shape."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from leagues import present, selectors
from lords.api.base import ApiViewSet, valid
from lords.api.schema import READ_ERRORS, operation


class LeagueSerializer(serializers.Serializer[Any]):
    slug = serializers.SlugField()
    name = serializers.CharField()
    game_type = serializers.CharField()
    game_name = serializers.CharField()
    options = serializers.DictField()
    description = serializers.CharField()
    open = serializers.BooleanField(help_text="Anyone signed in may join.")
    members = serializers.IntegerField()
    admins = serializers.ListField(child=serializers.CharField())


class SeasonGameSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    status = serializers.CharField()
    url = serializers.CharField(help_text="The game's web page.")
    players = serializers.ListField(child=serializers.CharField())
    winners = serializers.ListField(child=serializers.CharField())


class SeasonSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    title = serializers.CharField()
    status = serializers.CharField(help_text="draft, running or finished.")
    players_per_game = serializers.IntegerField()
    rounds = serializers.IntegerField()
    turn_hours = serializers.IntegerField()
    max_timeouts = serializers.IntegerField()
    vacation_days = serializers.IntegerField()
    starts_at = serializers.DateTimeField(allow_null=True)
    ends_at = serializers.DateTimeField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    pairing_seed = serializers.CharField(help_text="Drawn at the start: recompute the pairing.")
    entries = serializers.ListField(child=serializers.CharField())
    games = SeasonGameSerializer(many=True, required=False)


class LeagueDetailSerializer(LeagueSerializer):
    seasons = SeasonSerializer(many=True)


class StandingLineSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="Level with another player on the tie-breaks.")
    player = serializers.CharField()
    player_id = serializers.IntegerField(
        allow_null=True, help_text="The player's user id (their ratings: /ratings/players/<id>/)."
    )
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    points = serializers.FloatField()
    rating = serializers.FloatField(help_text="The player's league rating ordinal.")


class RatingLineSerializer(serializers.Serializer[Any]):
    player = serializers.CharField()
    player_id = serializers.IntegerField(
        allow_null=True, help_text="The player's user id (their ratings: /ratings/players/<id>/)."
    )
    ordinal = serializers.FloatField(help_text="mu - 3 sigma (OpenSkill, Plackett-Luce).")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()


class StandingsSerializer(serializers.Serializer[Any]):
    league = serializers.SlugField()
    season = SeasonSerializer(allow_null=True)
    table = StandingLineSerializer(many=True)
    ratings = RatingLineSerializer(many=True)


class StandingsQuerySerializer(serializers.Serializer[Any]):
    season = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=2**31 - 1,
        help_text="The season's number (default: the current season).",
    )


# ``leagues/`` and ``leagues/<slug>/...``, read-only. (Comments, not docstrings, on the
# viewset: the schema would show a docstring as each operation's description.)
@extend_schema(tags=["leagues"])
class LeagueViewSet(ApiViewSet):
    lookup_url_kwarg = "slug"
    lookup_value_converter = "slug"

    @operation("leagues_list", "The leagues", {200: LeagueSerializer(many=True)}, fails=(401,))
    def list(self, request: Request) -> Response:
        return Response([present.league_summary(league) for league in selectors.leagues()])

    @operation(
        "leagues_retrieve",
        "A league and its seasons",
        {200: LeagueDetailSerializer},
        fails=READ_ERRORS,
    )
    def retrieve(self, request: Request, slug: str) -> Response:
        return Response(present.league_detail(selectors.league_by_slug(slug=slug)))

    @operation(
        "leagues_standings",
        "A season's standings and the league's ratings",
        {200: StandingsSerializer},
        fails=(400, *READ_ERRORS),
        parameters=[StandingsQuerySerializer],
    )
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, slug: str) -> Response:
        query = valid(StandingsQuerySerializer, request.query_params)
        league = selectors.league_by_slug(slug=slug)
        return Response(present.standings(league, query.get("season")))
