"""REST doors onto table talk and private notes (issue 11), in the style of
:mod:`games.api.views`: a viewset per resource, nested in its game, each action one service
call (:mod:`games.services.talk`) whose rule of who reads what is the only one."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from games.models import ChatMessage
from games.services import talk
from lords.api.base import ApiViewSet, valid
from lords.api.schema import READ_ERRORS, operation


class ChatMessageSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="Grows with every message: ask since=<the last>.")
    author = serializers.IntegerField(help_text="Seat order of whoever said it.")
    author_name = serializers.CharField()
    to = serializers.IntegerField(
        allow_null=True, help_text="Seat order of the one player it was said to (private)."
    )
    text = serializers.CharField(help_text="As typed: escape it wherever you show it.")
    created_at = serializers.DateTimeField()


class ChatQuerySerializer(serializers.Serializer[Any]):
    since = serializers.IntegerField(
        required=False, min_value=0, help_text="Only the messages after this id."
    )
    before = serializers.IntegerField(
        required=False, min_value=0, help_text="Only the messages before this id (older page)."
    )
    limit = serializers.IntegerField(required=False, min_value=1, max_value=100, default=50)


class ChatPostSerializer(serializers.Serializer[Any]):
    text = serializers.CharField(
        max_length=talk.MAX_LENGTH, trim_whitespace=True, help_text="The message."
    )
    to = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        help_text="A seat order: the message is private to that player (leave out: the table).",
    )


class MuteSerializer(serializers.Serializer[Any]):
    order = serializers.IntegerField(min_value=0, help_text="The seat order of the player.")
    muted = serializers.BooleanField(help_text="true: mute them; false: hear them again.")


class NoteSerializer(serializers.Serializer[Any]):
    text = serializers.CharField(
        allow_blank=True, max_length=talk.NOTE_LENGTH, help_text="Your notes, seen by nobody else."
    )


def present_message(message: ChatMessage) -> dict[str, Any]:
    return {
        "id": message.pk,
        "author": message.author.order,
        "author_name": message.written_by.name,
        "to": message.to.order if message.to is not None else None,
        "text": message.text,
        "created_at": message.created_at,
    }


# ``games/<game_id>/chat/``: the table talk the caller may read (to the table, and their own
# private messages), newest first; post one; ``chat/mute/``: mute or unmute a player.
@extend_schema(tags=["chat"])
class ChatViewSet(ApiViewSet):
    @operation(
        "chat_list",
        "What you may read of the game's talk, newest first",
        {200: ChatMessageSerializer(many=True)},
        fails=(400, *READ_ERRORS),
        parameters=[ChatQuerySerializer],
        description=(
            "Messages to the table and your private ones, newest first; a muted player's "
            "and hidden messages are left out. Poll with since=<the newest id you have>."
        ),
    )
    def list(self, request: Request, game_id: int) -> Response:
        query = valid(ChatQuerySerializer, request.query_params)
        found = talk.messages_for(game=game_id, user=request.user, **query)
        return Response([present_message(m) for m in found])

    @operation(
        "chat_say",
        "Say something to the table, or to one player",
        {201: ChatMessageSerializer},
        fails=(400, 401, 403, 404, 429),
        request=ChatPostSerializer,
        description=(
            f"At most {talk.MAX_LENGTH} characters; at most {talk.RATE} messages a minute "
            "per player and game (429 after that, nothing posted)."
        ),
        examples=[
            OpenApiExample("to the table", value={"text": "Anyone selling a lot on the Strip?"}),
            OpenApiExample("private", value={"text": "I'll give you 5 for A6", "to": 2}),
        ],
    )
    def create(self, request: Request, game_id: int) -> Response:
        data = valid(ChatPostSerializer, request.data)
        message = talk.say(
            game=game_id,
            user=request.user,
            text=data["text"],
            to=data.get("to"),
            source=ChatMessage.Source.API,
        )
        return Response(present_message(message), status=status.HTTP_201_CREATED)

    @operation(
        "chat_mute",
        "Mute (or unmute) a player: their messages are no longer shown to you",
        {204: OpenApiResponse(description="Done.")},
        request=MuteSerializer,
    )
    @action(detail=False, methods=["post"])
    def mute(self, request: Request, game_id: int) -> Response:
        data = valid(MuteSerializer, request.data)
        talk.set_mute(game=game_id, user=request.user, order=data["order"], muted=data["muted"])
        return Response(status=status.HTTP_204_NO_CONTENT)


# ``games/<game_id>/notes/``: the caller's private notes in the game (kept after the end).
@extend_schema(tags=["chat"])
class NoteViewSet(ApiViewSet):
    @operation("notes_read", "Your private notes in the game", {200: NoteSerializer}, READ_ERRORS)
    def read(self, request: Request, game_id: int) -> Response:
        return Response({"text": talk.note_of(game=game_id, user=request.user)})

    @operation(
        "notes_write",
        "Replace your private notes in the game",
        {200: NoteSerializer},
        fails=(400, 401, 403, 404),
        request=NoteSerializer,
    )
    def write(self, request: Request, game_id: int) -> Response:
        data = valid(NoteSerializer, request.data)
        return Response({"text": talk.save_note(game=game_id, user=request.user, **data)})
