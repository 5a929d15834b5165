"""REST doors onto the platform: each view checks the shape of its input and calls ONE
keyword-only service function (writes) or selector (reads). Rules live in
``games/services`` (platform) and ``games/engines`` (game); errors become the one JSON shape
in :mod:`games.api.errors`.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import exceptions, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from games import selectors, services
from games.api import lookups, present
from games.api.base import ApiView
from games.api.schema import errors
from games.api.serializers import (
    BotSerializer,
    CommandSerializer,
    DecisionsSerializer,
    GameCreateSerializer,
    GamesQuerySerializer,
    GameSummarySerializer,
    GameTypeSerializer,
    GameViewSerializer,
    InvitationSerializer,
    InviteSerializer,
    JoinSerializer,
    MoveListSerializer,
    MoveResultSerializer,
    MovesQuerySerializer,
    SeatSerializer,
    TradeOfferSerializer,
    TradeProposeSerializer,
    VerificationSerializer,
)
from games.engines import registry

GAME_ID = OpenApiParameter("game_id", OpenApiTypes.INT, OpenApiParameter.PATH)
OFFER_ID = OpenApiParameter("offer_id", OpenApiTypes.INT, OpenApiParameter.PATH)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="Any unique string (a UUID): sending the same request again with the same "
    "key applies it once and answers 200 with the first answer.",
)
IF_MATCH = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description='The version you played against, e.g. "12" (the game view\'s ETag); '
    "the same as expected_version in the body.",
)
MAX_KEY = 200


# -- game types -----------------------------------------------------------------------------


class GameTypeListView(ApiView):
    permission_classes = (AllowAny,)

    @extend_schema(
        operation_id="game_types_list",
        summary="The game types this server runs",
        responses={200: GameTypeSerializer(many=True)},
        tags=["game types"],
    )
    def get(self, request: Request) -> Response:
        return Response([present.game_type(slug) for slug in registry.slugs()])


# -- games ----------------------------------------------------------------------------------


class GameListView(ApiView):
    @extend_schema(
        operation_id="games_list",
        summary="My games",
        parameters=[GamesQuerySerializer],
        responses={200: GameSummarySerializer(many=True), **errors(400, 401)},
        tags=["games"],
    )
    def get(self, request: Request) -> Response:
        query = GamesQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        games = selectors.games_for_user(user=request.user, **query.validated_data)
        games = games.prefetch_related("seats__user")
        return Response([present.game_summary(game, request.user) for game in games])

    @extend_schema(
        operation_id="games_create",
        summary="Create a game (you take the first seat)",
        request=GameCreateSerializer,
        responses={201: GameViewSerializer, **errors(400, 401)},
        tags=["games"],
    )
    def post(self, request: Request) -> Response:
        data = _valid(GameCreateSerializer, request)
        game = services.create_game(creator=request.user, **data)
        return _game_response(game, request, status.HTTP_201_CREATED)


class GameDetailView(ApiView):
    @extend_schema(
        operation_id="games_retrieve",
        summary="A game as you may see it",
        description=(
            "Version, who must act, the deadline, your legal commands (text notation), the "
            "engine's view for your seat (no hidden information: the seed hash always, the "
            "seed once the game is over) and the board as plain text. The ETag is the version."
        ),
        parameters=[GAME_ID],
        responses={200: GameViewSerializer, **errors(401, 404)},
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = lookups.visible_game(game_id, request.user)
        return _game_response(game, request, status.HTTP_200_OK)


def _game_response(game: Any, request: Request, code: int) -> Response:
    body = present.game_view(game, request.user)
    return Response(body, status=code, headers={"ETag": f'"{body["version"]}"'})


def _valid(serializer_class: type[Any], request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise exceptions.ParseError("The body must be a JSON object.")
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    data: dict[str, Any] = serializer.validated_data
    return data


_ACTION_ERRORS = errors(400, 401, 403, 404, 409)


class JoinView(ApiView):
    @extend_schema(
        operation_id="games_join",
        summary="Take a seat (a private game needs your invitation token)",
        parameters=[GAME_ID],
        request=JoinSerializer,
        responses={200: GameViewSerializer, **_ACTION_ERRORS},
        tags=["games"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = _valid(JoinSerializer, request)
        game = lookups.joinable_game(game_id, request.user, data.get("token") or None)
        services.join_game(game=game, user=request.user, token=data.get("token") or None)
        return _game_response(lookups.visible_game(game_id, request.user), request, 200)


class LeaveView(ApiView):
    @extend_schema(
        operation_id="games_leave",
        summary="Give up your seat before the start",
        parameters=[GAME_ID],
        request=None,
        responses={204: OpenApiResponse(description="You left."), **_ACTION_ERRORS},
        tags=["games"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        game = lookups.visible_game(game_id, request.user)
        services.leave_game(game=game, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class BotView(ApiView):
    @extend_schema(
        operation_id="games_add_bot",
        summary="Seat a bot (the creator, before the start)",
        parameters=[GAME_ID],
        request=BotSerializer,
        responses={201: SeatSerializer, **_ACTION_ERRORS},
        tags=["games"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = _valid(BotSerializer, request)
        game = lookups.visible_game(game_id, request.user)
        seat = services.add_bot(game=game, by=request.user, bot=data["bot"])
        return Response(present.seat(seat, request.user), status=status.HTTP_201_CREATED)


class StartView(ApiView):
    @extend_schema(
        operation_id="games_start",
        summary="Start the game (the creator): seeds it, draws the seat order, sets it up",
        parameters=[GAME_ID],
        request=None,
        responses={200: GameViewSerializer, **_ACTION_ERRORS},
        tags=["games"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        game = lookups.visible_game(game_id, request.user)
        services.start_game(game=game, by=request.user)
        return _game_response(game, request, 200)


class ResignView(ApiView):
    @extend_schema(
        operation_id="games_resign",
        summary="Resign: you are ranked last and a bot plays your seat on",
        parameters=[GAME_ID],
        request=None,
        responses={200: GameViewSerializer, **_ACTION_ERRORS},
        tags=["games"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        game = lookups.visible_game(game_id, request.user)
        services.resign(game=game, user=request.user)
        return _game_response(game, request, 200)


class InviteView(ApiView):
    @extend_schema(
        operation_id="games_invite",
        summary="Invite someone by email (the token lets them join a private game)",
        parameters=[GAME_ID],
        request=InviteSerializer,
        responses={201: InvitationSerializer, **_ACTION_ERRORS},
        tags=["games"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = _valid(InviteSerializer, request)
        game = lookups.visible_game(game_id, request.user)
        invitation = services.invite(game=game, by=request.user, email=data["email"])
        return Response(present.invitation(invitation), status=status.HTTP_201_CREATED)


# -- moves ----------------------------------------------------------------------------------


class MovesView(ApiView):
    @extend_schema(
        operation_id="moves_list",
        summary="The move log (the setup is seq 0)",
        parameters=[GAME_ID, MovesQuerySerializer],
        responses={200: MoveListSerializer, **errors(400, 401, 404)},
        tags=["moves"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        query = MovesQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        game = lookups.visible_game(game_id, request.user)
        since = query.validated_data.get("since")
        moves = selectors.moves_since(game=game, since=since, user=request.user)
        # A move may land between the two reads: the version is never behind the log.
        version = max(game.version, moves[-1]["seq"] if moves else 0)
        return Response({"version": version, "moves": moves})

    @extend_schema(
        operation_id="moves_create",
        summary="Submit a command (text or JSON)",
        description=(
            "Text in the game's notation (several commands separated by ';') or one command "
            "as JSON. Send an Idempotency-Key so that a retry cannot play twice, and the "
            "version you played against (expected_version or If-Match) so that a command "
            "based on an old position is refused (409, with current_version) rather than "
            "applied. Answers 201 with the new version and the moves written (yours, then any "
            "bot moves that followed); a repeated Idempotency-Key answers 200 with the same "
            "body and the header Idempotent-Replayed: true."
        ),
        parameters=[GAME_ID, IDEMPOTENCY_KEY, IF_MATCH],
        request=CommandSerializer,
        responses={
            201: MoveResultSerializer,
            200: OpenApiResponse(MoveResultSerializer, description="A replayed key."),
            **_ACTION_ERRORS,
        },
        examples=[
            OpenApiExample("text", value={"command": "place 4", "expected_version": 12}),
            OpenApiExample("JSON", value={"command": {"type": "place", "number": 4}}),
        ],
        tags=["moves"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = _valid(CommandSerializer, request)
        key = _idempotency_key(request)
        expected = _expected_version(request, data.get("expected_version"))
        command = data["command"]
        # The service finds and locks the game itself (404 if there is none) and refuses
        # anyone not seated in it, so the game is not read here first.
        result = services.submit_command(
            game=game_id,
            user=request.user,
            text=command if isinstance(command, str) else None,
            command=None if isinstance(command, str) else command,
            source="api",
            expected_version=expected,
            idempotency_key=key,
        )
        body = present.submission(result, request.user)
        if result.replayed:
            return Response(body, status=200, headers={"Idempotent-Replayed": "true"})
        return Response(body, status=status.HTTP_201_CREATED)


def _idempotency_key(request: Request) -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    key = key.strip()
    if not key or len(key) > MAX_KEY or not key.isprintable():
        raise exceptions.ValidationError(
            {"Idempotency-Key": [f"Give 1 to {MAX_KEY} printable characters, e.g. a UUID."]}
        )
    return key


def _expected_version(request: Request, body_version: int | None) -> int | None:
    header = request.headers.get("If-Match")
    if header is None or header.strip() == "*":
        return body_version
    raw = header.strip().removeprefix("W/").strip('"')
    if not raw.isdigit() or len(raw) > 10:
        raise exceptions.ValidationError({"If-Match": ['Send the version as an ETag, e.g. "12".']})
    version = int(raw)
    if body_version is not None and body_version != version:
        raise exceptions.ValidationError(
            {"If-Match": [f"It says {version} but expected_version says {body_version}."]}
        )
    return version


class DecisionsView(ApiView):
    @extend_schema(
        operation_id="decisions_list",
        summary="What the game waits on you for: commands and trade offers to answer",
        parameters=[GAME_ID],
        responses={200: DecisionsSerializer, **errors(401, 404)},
        tags=["moves"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = lookups.visible_game(game_id, request.user)
        offers = list(lookups.trade_offers(game).filter(status="open"))
        return Response(present.decisions(game, request.user, offers))


# -- trades ---------------------------------------------------------------------------------


class TradeListView(ApiView):
    @extend_schema(
        operation_id="trades_list",
        summary="The game's trade offers, newest first",
        parameters=[GAME_ID],
        responses={200: TradeOfferSerializer(many=True), **errors(401, 404)},
        tags=["trades"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = lookups.visible_game(game_id, request.user)
        return Response([present.trade(o) for o in lookups.trade_offers(game)])

    @extend_schema(
        operation_id="trades_propose",
        summary="Propose a trade; it executes when every party has accepted",
        parameters=[GAME_ID],
        request=TradeProposeSerializer,
        responses={201: TradeOfferSerializer, **_ACTION_ERRORS},
        tags=["trades"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = _valid(TradeProposeSerializer, request)
        game = lookups.visible_game(game_id, request.user)
        command = data["command"]
        offer = services.propose_trade(
            game=game,
            user=request.user,
            text=command if isinstance(command, str) else None,
            command=None if isinstance(command, str) else command,
        )
        return Response(present.trade(offer), status=status.HTTP_201_CREATED)


class TradeAnswerView(ApiView):
    """``POST .../trades/<offer_id>/(accept|decline|withdraw)/``: one service each."""

    def answer(self, offer: Any, user: Any) -> Any:
        raise NotImplementedError

    def post(self, request: Request, game_id: int, offer_id: int) -> Response:
        offer = lookups.offer(game_id, offer_id, request.user)
        return Response(present.trade(self.answer(offer, request.user)))


def _answer_schema(answer: str, summary: str) -> Any:
    return extend_schema(
        operation_id=f"trades_{answer}",
        summary=summary,
        parameters=[GAME_ID, OFFER_ID],
        request=None,
        responses={200: TradeOfferSerializer, **_ACTION_ERRORS},
        tags=["trades"],
    )


class TradeAcceptView(TradeAnswerView):
    def answer(self, offer: Any, user: Any) -> Any:
        return services.accept_trade(offer=offer, user=user)

    @_answer_schema("accept", "Accept a trade offer (the last party's acceptance executes it)")
    def post(self, request: Request, game_id: int, offer_id: int) -> Response:
        return super().post(request, game_id, offer_id)


class TradeDeclineView(TradeAnswerView):
    def answer(self, offer: Any, user: Any) -> Any:
        return services.decline_trade(offer=offer, user=user)

    @_answer_schema("decline", "Decline a trade offer")
    def post(self, request: Request, game_id: int, offer_id: int) -> Response:
        return super().post(request, game_id, offer_id)


class TradeWithdrawView(TradeAnswerView):
    def answer(self, offer: Any, user: Any) -> Any:
        return services.withdraw_trade(offer=offer, user=user)

    @_answer_schema("withdraw", "Withdraw your trade offer")
    def post(self, request: Request, game_id: int, offer_id: int) -> Response:
        return super().post(request, game_id, offer_id)


# -- record ---------------------------------------------------------------------------------


class VerifyView(ApiView):
    @extend_schema(
        operation_id="games_verify",
        summary="Replay the log from the revealed seed and compare every state",
        description="Only once the game is over (before, the seed is secret): 409 otherwise.",
        parameters=[GAME_ID],
        responses={200: VerificationSerializer, **errors(401, 404, 409)},
        tags=["record"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = lookups.finished_game(game_id, request.user)
        verification = services.verify_game(game=game)
        return Response(present.verification(verification))


class ExportView(ApiView):
    @extend_schema(
        operation_id="games_export",
        summary="The game record: options, players, commands, events (seed once over)",
        parameters=[GAME_ID],
        responses={200: OpenApiTypes.OBJECT, **errors(401, 404)},
        tags=["record"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = lookups.visible_game(game_id, request.user)
        return Response(services.export_game(game=game))
