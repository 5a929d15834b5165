"""REST doors onto the platform, written the framework's way: a viewset per resource (game
types, games, a game's trade offers) whose actions a router in :mod:`games.api.urls` maps to
the API's addresses.

An action checks the shape of its input with a serializer, calls ONE keyword-only service
function (writes) or selector (reads) and presents the result (:mod:`games.api.present`).
Rules live in ``games/services`` (platform) and ``games/engines`` (game); errors become the
one JSON shape in :mod:`lords.api.errors`. Each action's ``operation`` names its operation id:
those, the addresses and the answers are the contract (docs/api.md), whatever the classes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from games import selectors, services, view_tags
from games.api import lookups, present
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
    expected_version,
    idempotency_key,
    plain_command,
)
from games.engines import registry
from games.models import Game, Seat
from games.services import tools
from lords.api.base import ApiViewSet, valid
from lords.api.parsers import json_body
from lords.api.schema import (
    ACTION_ERRORS,
    IDEMPOTENCY_KEY,
    IF_MATCH,
    IF_NONE_MATCH,
    NOT_MODIFIED,
    READ_ERRORS,
    operation,
)

CREATED = status.HTTP_201_CREATED

_MOVE_RESULT = {
    "version": 13,
    "moves": [
        {
            "seq": 13,
            "seat": 0,
            "source": "api",
            "text": "place 4",
            "command": {"type": "place", "number": 4},
            "events": [
                {"type": "place", "seat": 0, "number": 4, "own": 1, "white": 0},
                {"type": "roll", "seat": 1, "own": [1, 2, 2, 3, 5], "white": [3, 5]},
            ],
            "described": ["Ada places 1 die on casino 4.", "Bob rolls 1 2 2 3 5 and white 3 5."],
            "created_at": "2026-11-25T09:34:49.669126Z",
        }
    ],
    "status": "active",
    "to_act": [1],
    "your_turn": False,
    "legal_commands": [],
}
MOVE_RESULT_EXAMPLES = [
    OpenApiExample("played", value=_MOVE_RESULT, response_only=True, status_codes=["201"]),
    OpenApiExample("a replayed key", value=_MOVE_RESULT, response_only=True, status_codes=["200"]),
]
"""What a submission answers (the request examples were shown as its answers: found by a
bot's author, decision 0039): a Vegas placing, and the next player's roll that followed."""
GAME = {200: GameViewSerializer}


# The catalogue, readable without a token: what a client may create. (Comments, not
# docstrings, on the viewsets: the schema would show a class's docstring as the
# description of each of its operations.)
@extend_schema(tags=["game types"])
class GameTypeViewSet(ApiViewSet):
    permission_classes = (AllowAny,)

    @operation(
        "game_types_list",
        "The game types this server runs",
        {200: GameTypeSerializer(many=True)},
        fails=(401,),  # no token needed, but a bad one is refused
    )
    def list(self, request: Request) -> Response:
        return Response([present.game_type(slug) for slug in registry.slugs()])


# ``games/`` and ``games/<game_id>/...``: a game, its seats, its moves and its record. The
# URL's game is read with :mod:`games.api.lookups` (404 if there is none, 403 for someone
# else's private game), except where the service must lock it first (submitting).
@extend_schema(tags=["games"])
class GameViewSet(ApiViewSet):
    lookup_url_kwarg = "game_id"
    lookup_value_converter = "int"

    @staticmethod
    def game_answer(
        game: Game,
        request: Request,
        code: int = status.HTTP_200_OK,
        tag: str | None = None,
        seats: list[Seat] | None = None,
    ) -> Response:
        """The game as the caller may see it, with its ETag (``games.view_tags``: it starts
        with the version, for ``If-Match``; ``If-None-Match`` gets a 304 while it holds).
        ``tag``: read before the game, if the caller has it (a move landing in between
        makes the answer newer than its tag, never older)."""
        tag = tag or view_tags.current_tag(game.pk, request.user)
        body = present.game_view(game, request.user, seats)
        headers = {"ETag": tag or f'"{body["version"]}"', "Cache-Control": "private, no-cache"}
        return Response(body, status=code, headers=headers)

    @operation(
        "games_list",
        "My games",
        {200: GameSummarySerializer(many=True)},
        fails=(400, 401),
        parameters=[GamesQuerySerializer],
    )
    def list(self, request: Request) -> Response:
        query = valid(GamesQuerySerializer, request.query_params)
        games = selectors.games_for_user(user=request.user, **query)
        return Response(present.game_summaries(games, request.user))

    @operation(
        "games_create",
        "Create a game (you take the first seat)",
        {201: GameViewSerializer},
        fails=(400, 401),
        request=GameCreateSerializer,
    )
    def create(self, request: Request) -> Response:
        data = valid(GameCreateSerializer, request.data)
        game = services.create_game(creator=request.user, **data)
        return self.game_answer(game, request, CREATED)

    @operation(
        "games_retrieve",
        "A game as you may see it",
        {**GAME, 304: NOT_MODIFIED},
        fails=READ_ERRORS,
        parameters=[IF_NONE_MATCH],
        description=(
            "Version, who must act, the deadline, your legal commands (text notation), the "
            "engine's view for your seat (no hidden information: the seed hash always, the "
            "seed once the game is over) and the board as plain text. The ETag starts with "
            "the version (for If-Match) and changes whenever this view would: send it as "
            "If-None-Match to get 304 Not Modified, for about the cost of a no-op call, while "
            "nothing changed."
        ),
    )
    def retrieve(self, request: Request, game_id: int) -> Response:
        held = request.headers.get("If-None-Match")
        if held:  # a conditional read: one statement, no engine, while nothing changed
            tag = view_tags.current_tag(game_id, request.user)
            if tag is not None and view_tags.matches(held, tag):
                return Response(
                    status=status.HTTP_304_NOT_MODIFIED,
                    headers={"ETag": tag, "Cache-Control": "private, no-cache"},
                )
        game, seats = lookups.visible_game_with_seats(game_id, request.user)
        tag = view_tags.view_tag(game, seats, request.user)  # the rows the view is made of
        return self.game_answer(game, request, tag=tag, seats=seats)

    @operation(
        "games_join",
        "Take a seat (a private game needs your invitation token)",
        GAME,
        request=JoinSerializer,
    )
    @action(detail=True, methods=["post"])
    def join(self, request: Request, game_id: int) -> Response:
        token = valid(JoinSerializer, request.data).get("token") or None
        game = lookups.joinable_game(game_id, request.user, token)
        services.join_game(game=game, user=request.user, token=token)
        # Read again: the service wrote through its own, locked instance.
        return self.game_answer(lookups.visible_game(game_id, request.user), request)

    @operation(
        "games_leave",
        "Give up your seat before the start",
        {204: OpenApiResponse(description="You left.")},
        request=None,
    )
    @action(detail=True, methods=["post"])
    def leave(self, request: Request, game_id: int) -> Response:
        services.leave_game(game=lookups.visible_game(game_id, request.user), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @operation(
        "games_add_bot",
        "Seat a bot (the creator, before the start)",
        {201: SeatSerializer},
        request=BotSerializer,
    )
    @action(detail=True, methods=["post"])
    def bots(self, request: Request, game_id: int) -> Response:
        bot = valid(BotSerializer, request.data)["bot"]
        game = lookups.visible_game(game_id, request.user)
        seat = services.add_bot(game=game, by=request.user, bot=bot)
        return Response(present.seat(seat), status=CREATED)

    @operation(
        "games_start",
        "Start the game (the creator): seeds it, draws the seat order, sets it up",
        GAME,
        request=None,
    )
    @action(detail=True, methods=["post"])
    def start(self, request: Request, game_id: int) -> Response:
        game = lookups.visible_game(game_id, request.user)
        services.start_game(game=game, by=request.user)
        return self.game_answer(game, request)

    @operation(
        "games_resign",
        "Resign: you are ranked last and a bot plays your seat on",
        GAME,
        request=None,
    )
    @action(detail=True, methods=["post"])
    def resign(self, request: Request, game_id: int) -> Response:
        game = lookups.visible_game(game_id, request.user)
        services.resign(game=game, user=request.user)
        return self.game_answer(game, request)

    @operation(
        "games_pause",
        "Ask for a pause: once every player has asked, the clock stops",
        GAME,
        request=None,
    )
    @action(detail=True, methods=["post"])
    def pause(self, request: Request, game_id: int) -> Response:
        game = lookups.visible_game(game_id, request.user)
        tools.vote_pause(game=game, by=request.user)
        return self.game_answer(game, request)

    @operation(
        "games_unpause",
        "Take back your pause vote, or end a pause the players agreed to",
        GAME,
        request=None,
    )
    @action(detail=True, methods=["post"])
    def unpause(self, request: Request, game_id: int) -> Response:
        game = lookups.visible_game(game_id, request.user)
        if game.paused_at is not None:
            tools.end_players_pause(game=game, by=request.user)
        else:
            tools.withdraw_pause_vote(game=game, by=request.user)
        return self.game_answer(game, request)

    @operation(
        "games_invite",
        "Invite someone by email (the email carries the link that seats them)",
        {201: InvitationSerializer},
        request=InviteSerializer,
    )
    @action(detail=True, methods=["post"])
    def invitations(self, request: Request, game_id: int) -> Response:
        email = valid(InviteSerializer, request.data)["email"]
        game = lookups.visible_game(game_id, request.user)
        invitation = services.invite(game=game, by=request.user, email=email)
        return Response(present.invitation(invitation), status=CREATED)

    @operation(
        "moves_list",
        "The move log (the setup is seq 0)",
        {200: MoveListSerializer},
        fails=(400, 401, 403, 404),
        parameters=[MovesQuerySerializer],
        tags=["moves"],
    )
    @action(detail=True, methods=["get"])
    def moves(self, request: Request, game_id: int) -> Response:
        since = valid(MovesQuerySerializer, request.query_params)["since"]
        game = lookups.visible_game(game_id, request.user)
        moves = selectors.moves_since(game=game, since=since, user=request.user)
        return Response(present.move_log(game, moves))

    @operation(
        "moves_create",
        "Submit a command (text or JSON)",
        {201: MoveResultSerializer, 200: OpenApiResponse(MoveResultSerializer, "A replayed key.")},
        description=(
            "Text in the game's notation (several commands separated by ';') or one command "
            "as JSON. Send an Idempotency-Key so that a retry cannot play twice, and the "
            "version you played against (expected_version or If-Match) so that a command "
            "based on an old position is refused (409, with current_version) rather than "
            "applied. Answers 201 with the new version and the moves written (yours, then any "
            "bot moves that followed); a repeated Idempotency-Key answers 200 with the same "
            "body and the header Idempotent-Replayed: true; the same key with another "
            "request answers 422. A command that rolls dice or turns a card must come last "
            "(400 chance_not_last)."
        ),
        fails=(*ACTION_ERRORS, 422),
        parameters=[IDEMPOTENCY_KEY, IF_MATCH],
        request=CommandSerializer,
        examples=[
            OpenApiExample(
                "text", value={"command": "place 4", "expected_version": 12}, request_only=True
            ),
            OpenApiExample(
                "JSON", value={"command": {"type": "place", "number": 4}}, request_only=True
            ),
            *MOVE_RESULT_EXAMPLES,
        ],
        tags=["moves"],
    )
    @moves.mapping.post
    def submit(self, request: Request, game_id: int) -> Response:
        body = json_body(request)
        data = plain_command(body) or valid(CommandSerializer, body)
        # The service finds and locks the game itself (404 if there is none) and refuses
        # anyone not seated in it, so the game is not read here first.
        result = services.submit_command(
            game=game_id,
            user=request.user,
            text=data["text"],
            command=data["command"],
            source="api",
            idempotency_key=idempotency_key(request.META),
            expected_version=expected_version(request.META, data.get("expected_version")),
        )
        body = present.submission(result, request.user)
        if result.replayed:
            tag = view_tags.replayed_tag(game_id, result.version, request.user)
            return Response(body, headers={"Idempotent-Replayed": "true", "ETag": tag})
        # The game view's tag right after the move, from the rows just written (no query):
        # a client waiting for its next turn polls with it and gets 304s until it changes.
        assert result.game is not None
        tag = view_tags.view_tag(result.game, result.seats, request.user)
        return Response(body, status=CREATED, headers={"ETag": tag})

    @operation(
        "decisions_list",
        "What the game waits on you for: commands and trade offers to answer",
        {200: DecisionsSerializer},
        fails=READ_ERRORS,
        tags=["moves"],
    )
    @action(detail=True, methods=["get"])
    def decisions(self, request: Request, game_id: int) -> Response:
        game = lookups.visible_game(game_id, request.user)
        return Response(present.decisions(game, request.user))

    @operation(
        "games_verify",
        "Replay the log from the revealed seed and compare every state",
        {200: VerificationSerializer},
        fails=(401, 403, 404, 409),
        description="Only once the game is over (before, the seed is secret): 409 otherwise.",
        tags=["record"],
    )
    @action(detail=True, methods=["get"])
    def verify(self, request: Request, game_id: int) -> Response:
        game = lookups.finished_game(game_id, request.user)
        return Response(present.verification(services.verify_game(game=game)))

    @operation(
        "games_export",
        "The game record: options, players, commands, events (seed once over)",
        {200: OpenApiTypes.OBJECT},
        fails=READ_ERRORS,
        tags=["record"],
    )
    @action(detail=True, methods=["get"])
    def export(self, request: Request, game_id: int) -> Response:
        game = lookups.visible_game(game_id, request.user)
        return Response(services.export_game(game=game))


def _answer(operation_id: str, summary: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The three answers to an offer share everything but their service: one schema each
    (their own operation id), no body, the offer as it stands after the answer."""
    schema = operation(operation_id, summary, {200: TradeOfferSerializer}, request=None)
    return lambda answer: schema(action(detail=True, methods=["post"])(answer))


# ``games/<game_id>/trades/`` and ``.../trades/<offer_id>/(accept|decline|withdraw)/``. A
# trade is a command that takes every party's consent, so it is proposed and answered here
# rather than submitted as a move; the services execute it on the last acceptance.
@extend_schema(tags=["trades"])
class TradeOfferViewSet(ApiViewSet):
    lookup_url_kwarg = "offer_id"
    lookup_value_converter = "int"

    @operation(
        "trades_list",
        "The game's trade offers, newest first",
        {200: TradeOfferSerializer(many=True)},
        fails=READ_ERRORS,
    )
    def list(self, request: Request, game_id: int) -> Response:
        game = lookups.visible_game(game_id, request.user)
        return Response([present.trade(o) for o in selectors.trade_offers(game=game)])

    @operation(
        "trades_propose",
        "Propose a trade; it executes when every party has accepted",
        {201: TradeOfferSerializer},
        request=TradeProposeSerializer,
    )
    def create(self, request: Request, game_id: int) -> Response:
        data = valid(TradeProposeSerializer, request.data)
        game = lookups.visible_game(game_id, request.user)
        offer = services.propose_trade(
            game=game,
            user=request.user,
            text=data["text"],
            command=data["command"],
            expires_at=data["expires_at"],
        )
        return Response(present.trade(offer), status=CREATED)

    def answered(self, service: Callable[..., Any], game_id: int, offer_id: int) -> Response:
        offer = lookups.offer(game_id, offer_id, self.request.user)
        return Response(present.trade(service(offer=offer, user=self.request.user)))

    @_answer("trades_accept", "Accept a trade offer (the last party's acceptance executes it)")
    def accept(self, request: Request, game_id: int, offer_id: int) -> Response:
        return self.answered(services.accept_trade, game_id, offer_id)

    @_answer("trades_decline", "Decline a trade offer")
    def decline(self, request: Request, game_id: int, offer_id: int) -> Response:
        return self.answered(services.decline_trade, game_id, offer_id)

    @_answer("trades_withdraw", "Withdraw your trade offer")
    def withdraw(self, request: Request, game_id: int, offer_id: int) -> Response:
        return self.answered(services.withdraw_trade, game_id, offer_id)
