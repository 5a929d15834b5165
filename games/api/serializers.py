"""Serializers of the REST API: they check the shape of input and describe the output.

Input serializers only validate types and ranges; every platform rule (who may move, versions,
idempotency, full games) is the services' business and every game rule the engine's.
Output serializers mostly document (for the OpenAPI schema) the plain dicts that the views
build from the selectors.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import exceptions, serializers

from games import view_tags
from games.engines import registry

MAX_COMMAND_TEXT = 2_000
MAX_JSON_DEPTH = 12
MAX_JSON_ITEMS = 2_000
MAX_IDEMPOTENCY_KEY = 200


def _unstorable(text: str) -> bool:
    """NUL and lone surrogates: PostgreSQL (text and JSONB) cannot store them."""
    return "\x00" in text or any("\ud800" <= ch <= "\udfff" for ch in text)


def check_json(value: Any) -> None:
    """Refuse JSON a database cannot store or that is absurdly deep or large, with a
    message rather than a database error."""
    budget = [MAX_JSON_ITEMS]

    def walk(item: Any, depth: int) -> None:
        budget[0] -= 1
        if budget[0] < 0:
            raise serializers.ValidationError(
                _("At most %(limit)s values, please.") % {"limit": MAX_JSON_ITEMS}
            )
        if depth > MAX_JSON_DEPTH:
            raise serializers.ValidationError(
                _("Nested deeper than %(limit)s levels.") % {"limit": MAX_JSON_DEPTH}
            )
        if isinstance(item, str) and _unstorable(item):
            raise serializers.ValidationError(_("Text may not hold NUL or lone surrogates."))
        if isinstance(item, dict):
            for key, inner in item.items():
                walk(str(key), depth + 1)
                walk(inner, depth + 1)
        elif isinstance(item, list):
            for inner in item:
                walk(inner, depth + 1)
        elif isinstance(item, float) and item != item:  # NaN
            raise serializers.ValidationError(_("NaN is not a JSON number."))

    walk(value, 0)


# -- fields ----------------------------------------------------------------------------------


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "example": "place 4", "maxLength": MAX_COMMAND_TEXT},
            {
                "type": "object",
                "additionalProperties": True,
                "example": {"type": "place", "number": 4},
            },
            {"type": "array", "items": {"type": "object", "additionalProperties": True}},
        ],
        "description": (
            "A command in the text notation (several separated by ';'), or one command as "
            "JSON (its engine's to_json form), or a list of them."
        ),
    }
)
class CommandField(serializers.Field):
    """Text (``"build A2 sphinx"``, ``"place 4; place 5"``) or one JSON command."""

    # (Lazy: said in the reader's language when a request fails, not at import.)
    default_error_messages = {
        "type": gettext_lazy(
            "A command is text, e.g. 'place 4', or a JSON object such as "
            "the legal_commands of the game view list."
        ),
        "empty": gettext_lazy("The command is empty: write one, e.g. 'place 4'."),
    }

    def to_internal_value(self, data: Any) -> str | dict[str, Any] | list[dict[str, Any]]:
        if isinstance(data, str):
            if not data.strip():
                self.fail("empty")
            if len(data) > MAX_COMMAND_TEXT:
                limit = {"limit": MAX_COMMAND_TEXT}
                message = _("The command is longer than %(limit)s characters.") % limit
                raise serializers.ValidationError(message, code="long")
            check_json(data)
            return data
        if isinstance(data, dict) or (
            isinstance(data, list) and data and all(isinstance(item, dict) for item in data)
        ):
            check_json(data)
            return data
        self.fail("type")
        raise AssertionError  # unreachable: fail() raises

    def to_representation(self, value: Any) -> Any:
        return value


# -- input -----------------------------------------------------------------------------------


class ClockSettingsSerializer(serializers.Serializer[Any]):
    """The clock asked for at create (checked again, with the same messages, by the
    service: games/services/clock.py ``check_clock``)."""

    kind = serializers.ChoiceField(
        choices=["fixed", "bank"],
        default="fixed",
        help_text="fixed: turn_hours per turn; bank: a time bank per player with an increment.",
    )
    bank_hours = serializers.IntegerField(
        required=False, min_value=1, max_value=720, help_text="Bank: each player's time at first."
    )
    increment_hours = serializers.IntegerField(
        required=False, min_value=1, max_value=720, help_text="Bank: added per finished turn."
    )
    cap_hours = serializers.IntegerField(
        required=False, min_value=1, max_value=720, help_text="Bank: the increment stops here."
    )
    weekend_pause = serializers.BooleanField(
        default=False, help_text="The clock stops over each player's weekend, in their zone."
    )


class BankSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    hours = serializers.FloatField(help_text="The seat's bank when the current wait started.")
    left_hours = serializers.FloatField(
        help_text="The seat's bank at the time of the answer (the wait so far taken off, "
        "weekends and pauses not counted, never below 0)."
    )
    stopped = serializers.BooleanField(help_text="The seat's weekend stops its clock now.")


class ClockSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=["fixed", "bank"])
    turn_hours = serializers.IntegerField(help_text="Fixed clock: time per turn.")
    bank_hours = serializers.IntegerField(required=False)
    increment_hours = serializers.IntegerField(required=False)
    cap_hours = serializers.IntegerField(required=False)
    weekend_pause = serializers.BooleanField()
    paused = serializers.BooleanField(help_text="No deadline runs.")
    paused_by_players = serializers.BooleanField(help_text="Any player may end this pause.")
    pause_votes = serializers.ListField(
        child=serializers.IntegerField(), help_text="Seats asking for a pause (all: it pauses)."
    )
    banks = BankSerializer(many=True)
    stopped_for_weekend = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Seats whose weekend stops the clock now (weekend_pause).",
    )


class GameCreateSerializer(serializers.Serializer[Any]):
    game_type = serializers.ChoiceField(choices=registry.slugs(), help_text="A game type slug.")
    options = serializers.DictField(
        required=False,
        default=dict,
        validators=[check_json],
        help_text="The game type's options, e.g. {'variant': 'neutral'} for Vegas.",
    )
    seats = serializers.IntegerField(
        min_value=2, max_value=6, default=4, help_text="How many seats (players and bots)."
    )
    turn_hours = serializers.IntegerField(
        min_value=1, max_value=24 * 30, default=72, help_text="Time for each turn."
    )
    private = serializers.BooleanField(
        default=False, help_text="Private games are joined by invitation only."
    )
    rated = serializers.BooleanField(
        default=True, help_text="Its result counts towards the players' ratings for this game."
    )
    max_timeouts = serializers.IntegerField(
        min_value=0,
        max_value=20,
        default=3,
        help_text="A player who misses this many deadlines in a row forfeits (a bot plays "
        "their seat on, they rank last); 0: never.",
    )
    vacation_days = serializers.IntegerField(
        min_value=0,
        max_value=30,
        default=14,
        help_text="How many days in all the game waits for each player who is away "
        "(their profile's away_until); 0: it never waits.",
    )
    clock = ClockSettingsSerializer(
        required=False, help_text="A fixed time per turn (default) or a time bank."
    )


class JoinSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=64,
        help_text="The invitation token (private games).",
    )


class BotSerializer(serializers.Serializer[Any]):
    bot = serializers.CharField(
        max_length=32, default="greedy", help_text="A bot of the game type ('greedy'...)."
    )


class InviteSerializer(serializers.Serializer[Any]):
    email = serializers.EmailField()


# Validates to the services' arguments: ``text`` (the notation) or ``command`` (JSON), the
# other None. (A comment: the schema would show a docstring as its subclasses' description.)
class _CommandInput(serializers.Serializer[Any]):
    command = CommandField()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        command = attrs["command"]
        is_text = isinstance(command, str)
        return {
            **attrs,
            "text": command if is_text else None,
            "command": None if is_text else command,
        }


MAX_VERSION = 2**31 - 1


class CommandSerializer(_CommandInput):
    expected_version = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_VERSION,
        help_text="The version you played against (also accepted as an If-Match header); "
        "a stale one is refused with 409 and the current version.",
    )


def plain_command(data: Any) -> dict[str, Any] | None:
    """A move's body in its everyday shape, ``{"command": "<text>"}`` with or without an
    integer ``expected_version``, validated to what :class:`CommandSerializer` gives, without
    building the serializer: DRF deep-copies a serializer's fields for each instance, a
    quarter of a millisecond of a move's CPU (issue #15). Any other body (a JSON command,
    another key, a version as text, anything to refuse) gives None: the serializer decides
    and explains. (A property test holds the two equal.)"""
    if type(data) is not dict or not 1 <= len(data) <= 2:
        return None
    text = data.get("command")
    if type(text) is not str or not text.strip() or len(text) > MAX_COMMAND_TEXT:
        return None
    if _unstorable(text):
        return None
    validated: dict[str, Any] = {"command": None, "text": text}
    if len(data) == 2:
        version = data.get("expected_version")
        if type(version) is not int or not 0 <= version <= MAX_VERSION:
            return None
        validated["expected_version"] = version
    return validated


class TradeProposeSerializer(_CommandInput):
    command = CommandField(help_text="The trade, in the game's notation or as JSON.")
    expires_at = serializers.DateTimeField(
        required=False,
        allow_null=True,
        default=None,
        help_text="When the offer lapses (ISO 8601, in the future, at most 7 days ahead); "
        "left out, it lapses when the current turn ends.",
    )


class MovesQuerySerializer(serializers.Serializer[Any]):
    since = serializers.IntegerField(
        required=False,
        default=-1,
        min_value=-1,
        max_value=2**31 - 1,
        help_text="Only the moves with seq greater than this: a client at version v asks "
        "since=v. Leave it out for the whole log, the setup (seq 0) included.",
    )


class GamesQuerySerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(
        choices=["open", "active", "finished", "cancelled"], required=False
    )
    waiting = serializers.BooleanField(
        required=False, allow_null=True, default=None, help_text="true: only games waiting for me."
    )


def idempotency_key(meta: Any) -> str | None:
    """The ``Idempotency-Key`` header, if sent (the services store it with the first Move).
    ``meta``: the request's ``META`` (``request.headers`` is made from all of it, a cost a
    move need not pay for two headers)."""
    key = meta.get("HTTP_IDEMPOTENCY_KEY")
    if key is None:
        return None
    key = key.strip()
    if not key or len(key) > MAX_IDEMPOTENCY_KEY or not key.isprintable():
        raise exceptions.ValidationError(
            {
                "Idempotency-Key": [
                    _("Give 1 to %(most)s printable characters, e.g. a UUID.")
                    % {"most": MAX_IDEMPOTENCY_KEY}
                ]
            }
        )
    return key


def expected_version(meta: Any, body_version: int | None) -> int | None:
    """The version the client played against: ``If-Match`` (the game view's ETag) and/or
    ``expected_version`` in the body, which must then agree. ``meta``: the request's
    ``META``."""
    header = meta.get("HTTP_IF_MATCH")
    if header is None or header.strip() == "*":
        return body_version
    raw = view_tags.version_of(header)
    if not raw.isdigit() or len(raw) > 10:
        raise exceptions.ValidationError(
            {"If-Match": [_('Send the version as an ETag, e.g. "12".')]}
        )
    version = int(raw)
    if body_version is not None and body_version != version:
        message = _(
            "It says %(header)s but expected_version says %(body)s: send the same version in "
            "both, or only one."
        ) % {"header": version, "body": body_version}
        raise exceptions.ValidationError({"If-Match": [message]})
    return version


# -- output (documentation of the dicts the views answer) ----------------------------------


class EditionSerializer(serializers.Serializer[Any]):
    value = serializers.CharField()
    name = serializers.CharField(help_text="How to call it in a menu.")


class EditionsSerializer(serializers.Serializer[Any]):
    option = serializers.CharField(help_text='The option that picks it: {"edition": "classic"}.')
    values = EditionSerializer(many=True, help_text="The first is the default.")


class GameTypeSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    name = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    default_options = serializers.DictField()
    editions = EditionsSerializer()
    bots = serializers.ListField(child=serializers.CharField())


class SeatSerializer(serializers.Serializer[Any]):
    order = serializers.IntegerField(help_text="The engine's seat index (from the start).")
    name = serializers.CharField()
    colour = serializers.CharField()
    bot = serializers.CharField(allow_null=True, help_text="The bot playing it, if any.")
    user = serializers.IntegerField(allow_null=True)
    resigned = serializers.BooleanField()
    to_act = serializers.BooleanField()
    timeouts = serializers.IntegerField(help_text="Deadlines this seat missed, in all.")
    timeouts_in_a_row = serializers.IntegerField(
        help_text="Deadlines missed since the player last moved (max_timeouts: forfeit)."
    )
    away_until = serializers.DateTimeField(
        allow_null=True, help_text="The player is on vacation until then (null: not away)."
    )


class _GameBaseSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    game_type = serializers.CharField()
    options = serializers.DictField()
    status = serializers.ChoiceField(choices=["open", "active", "finished", "cancelled"])
    version = serializers.IntegerField(help_text="The seq of the last move; 0 after setup.")
    private = serializers.BooleanField()
    max_seats = serializers.IntegerField()
    turn_hours = serializers.IntegerField(help_text="Time for each turn.")
    max_timeouts = serializers.IntegerField(
        help_text="Missed deadlines in a row after which a player forfeits; 0: never."
    )
    vacation_days = serializers.IntegerField(
        help_text="Days in all the game waits for each player on vacation."
    )
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    clock = ClockSerializer()
    seats = SeatSerializer(many=True)
    your_seat = serializers.IntegerField(allow_null=True, help_text="Null: not seated.")
    your_turn = serializers.BooleanField(help_text="The game waits on you.")


class GameSummarySerializer(_GameBaseSerializer):
    pass


class LegalCommandSerializer(serializers.Serializer[Any]):
    text = serializers.CharField(help_text="Submit this as {'command': text}.")
    command = serializers.DictField(help_text="The same as JSON.")


class GameViewSerializer(_GameBaseSerializer):
    created_by = serializers.IntegerField(allow_null=True)
    to_act = serializers.ListField(
        child=serializers.IntegerField(), help_text="The seats the game waits for."
    )
    legal_commands = LegalCommandSerializer(many=True, help_text="What you may submit now.")
    seed_hash = serializers.CharField(
        allow_null=True, help_text="sha256 of the secret seed, public from the start."
    )
    seed = serializers.CharField(allow_null=True, help_text="Revealed once the game is over.")
    outcome = serializers.DictField(allow_null=True)
    view = serializers.DictField(
        allow_null=True, help_text="The engine's view for your seat: no hidden information."
    )
    text = serializers.CharField(help_text="The board as plain text (what the emails show).")


class MoveSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True, help_text="Seat order; null: the system.")
    source = serializers.ChoiceField(  # type: ignore[assignment]
        choices=["web", "api", "email", "system", "bot"]
    )
    text = serializers.CharField(help_text="The command in the text notation.")
    command = serializers.DictField(allow_null=True)
    events = serializers.ListField(child=serializers.DictField())
    described = serializers.ListField(
        child=serializers.CharField(), help_text="Each event as a sentence."
    )
    credit = serializers.CharField(
        required=False,
        help_text="In the move log, for an executed trade: who proposed it and who accepted "
        'it ("Trade offer #4: proposed by Ada, accepted by Bob and Cy."); else "".',
    )
    created_at = serializers.DateTimeField()


class MoveListSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    moves = MoveSerializer(many=True)


class MoveResultSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(help_text="The game's version after your command(s).")
    moves = MoveSerializer(many=True, help_text="Yours, then any bot moves that followed.")
    status = serializers.CharField(help_text="active, or finished if these moves ended it.")
    to_act = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The seats the game waits for right after these moves.",
    )
    your_turn = serializers.BooleanField(help_text="Whether it still waits on you.")
    legal_commands = LegalCommandSerializer(
        many=True, help_text="What you may submit next if it still waits on you (else empty)."
    )


class TradeOfferSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    proposer = serializers.IntegerField(help_text="Seat order of the proposer.")
    text = serializers.CharField()
    command = serializers.DictField()
    parties = serializers.ListField(child=serializers.IntegerField())
    accepted_by = serializers.ListField(child=serializers.IntegerField())
    status = serializers.CharField(
        help_text="open, executed, failed, declined, withdrawn or expired."
    )
    message = serializers.CharField(
        help_text="Why it failed (the engine's sentence, in the language of the acceptance "
        "that ran it), or why the platform closed it: resigned, forfeited, replaced, aborted, "
        "parties (the turn changed: it would involve other players than those asked)."
    )
    closed_by = serializers.IntegerField(
        allow_null=True, help_text="Seat order of the party who declined or withdrew it."
    )
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    resolved_at = serializers.DateTimeField(allow_null=True)
    move = serializers.IntegerField(allow_null=True, help_text="seq of the executing Move.")


class DecisionsSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    your_seat = serializers.IntegerField(allow_null=True)
    your_turn = serializers.BooleanField()
    legal_commands = LegalCommandSerializer(many=True)
    trades = TradeOfferSerializer(many=True, help_text="Open offers that wait for your answer.")


class InvitationSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    game = serializers.IntegerField()
    email = serializers.EmailField()
    created_at = serializers.DateTimeField()
    accepted_at = serializers.DateTimeField(allow_null=True)


class VerificationSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    ok = serializers.BooleanField()
    moves_checked = serializers.IntegerField()
    problems = serializers.ListField(child=serializers.CharField())
    first_bad_seq = serializers.IntegerField(allow_null=True)
