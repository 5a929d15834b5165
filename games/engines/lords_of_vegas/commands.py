"""The commands a player can submit: small frozen dataclasses with a JSON form.

Lots are canonical names ("A2"), companies canonical company names ("sphinx") and players,
where a command names them (trades), their colours ("black"): a command is written without a
state, so it cannot know seat numbers. The text notation lives in :mod:`.notation`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from games.engines.base import JSON, MalformedCommand, refuse_other_fields
from games.engines.text import Text, _

from .board import ALL_COLOURS, COMPANIES, LOTS


@dataclass(frozen=True)
class Build:
    """Build a tile of ``company`` on your parking lot ``lot``; ``moving`` names the tile your
    die comes from when all 12 of your dice are on the board."""

    lot: str
    company: str
    moving: str | None = None
    kind: ClassVar[str] = "build"

    def to_json(self) -> JSON:
        return _json(self.kind, lot=self.lot, company=self.company, moving=self.moving)


@dataclass(frozen=True)
class Sprawl:
    """Sprawl from the casino at ``origin`` (you are its boss) into the unowned lot ``lot``."""

    lot: str
    origin: str
    moving: str | None = None
    kind: ClassVar[str] = "sprawl"

    def to_json(self) -> JSON:
        return _json(self.kind, lot=self.lot, origin=self.origin, moving=self.moving)


@dataclass(frozen=True)
class Remodel:
    """Change every tile of the casino at ``lot`` to ``company``."""

    lot: str
    company: str
    kind: ClassVar[str] = "remodel"

    def to_json(self) -> JSON:
        return _json(self.kind, lot=self.lot, company=self.company)


@dataclass(frozen=True)
class Reorganize:
    """Reroll every die of the casino at ``lot``."""

    lot: str
    kind: ClassVar[str] = "reorganize"

    def to_json(self) -> JSON:
        return _json(self.kind, lot=self.lot)


@dataclass(frozen=True)
class Raise:
    """Put a riser under every tile of the casino at ``lot`` (2024 edition)."""

    lot: str
    kind: ClassVar[str] = "raise"

    def to_json(self) -> JSON:
        return _json(self.kind, lot=self.lot)


@dataclass(frozen=True)
class Gamble:
    """Bet ``amount`` ($m) at the casino at ``lot``."""

    lot: str
    amount: int
    kind: ClassVar[str] = "gamble"

    def to_json(self) -> JSON:
        return _json(self.kind, lot=self.lot, amount=self.amount)


@dataclass(frozen=True)
class End:
    """End your turn."""

    kind: ClassVar[str] = "end"

    def to_json(self) -> JSON:
        return _json(self.kind)


@dataclass(frozen=True)
class Move:
    """Answer to "which of your dice (or lot markers) moves": take it from ``lot``.

    ``piece`` is "die" or "lot"."""

    piece: str
    lot: str
    kind: ClassVar[str] = "move"

    def to_json(self) -> JSON:
        return _json(self.kind, piece=self.piece, lot=self.lot)


@dataclass(frozen=True)
class Place:
    """Answer to a reorganize: which rerolled value goes on which of your tiles."""

    values: tuple[tuple[str, int], ...]
    kind: ClassVar[str] = "place"

    def to_json(self) -> JSON:
        return _json(self.kind, values=[[lot, value] for lot, value in self.values])


@dataclass(frozen=True)
class LayOff:
    """Answer of a casino's boss to a bet (classic edition): lay half of it off or not."""

    lay_off: bool
    kind: ClassVar[str] = "layoff"

    def to_json(self) -> JSON:
        return _json(self.kind, lay_off=self.lay_off)


PREFERENCES: dict[str, tuple[str, ...]] = {
    "place": ("auto", "ask"),
    "layoff": ("never", "always", "ask"),
}
"""Standing preferences and their values; the first value is the default."""


@dataclass(frozen=True)
class Prefer:
    """Set a standing preference: how the engine answers your decisions for you."""

    topic: str
    value: str
    kind: ClassVar[str] = "prefer"
    anytime: ClassVar[bool] = True  # any seated player, whoever the game waits on

    def to_json(self) -> JSON:
        return _json(self.kind, topic=self.topic, value=self.value)


# -- trades ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pay:
    """Trade step: ``payer`` gives ``amount`` ($m) to ``payee``."""

    payer: str
    payee: str
    amount: int
    kind: ClassVar[str] = "pay"

    def to_json(self) -> JSON:
        return _json(self.kind, payer=self.payer, payee=self.payee, amount=self.amount)


@dataclass(frozen=True)
class GiveLot:
    """Trade step: ``giver``'s parking lot ``lot`` becomes ``receiver``'s (``moving``: the
    receiver's marker to take when all 10 are on the board)."""

    giver: str
    receiver: str
    lot: str
    moving: str | None = None
    kind: ClassVar[str] = "give_lot"

    def to_json(self) -> JSON:
        return _json(
            self.kind, giver=self.giver, receiver=self.receiver, lot=self.lot, moving=self.moving
        )


@dataclass(frozen=True)
class GiveDie:
    """Trade step: ``giver``'s die on ``lot`` becomes ``receiver``'s, keeping its value."""

    giver: str
    receiver: str
    lot: str
    moving: str | None = None
    kind: ClassVar[str] = "give_die"

    def to_json(self) -> JSON:
        return _json(
            self.kind, giver=self.giver, receiver=self.receiver, lot=self.lot, moving=self.moving
        )


Action = Build | Sprawl | Remodel | Reorganize | Raise | Gamble
ACTIONS = (Build, Sprawl, Remodel, Reorganize, Raise, Gamble)


@dataclass(frozen=True)
class Do:
    """Trade step: the active player performs ``action``."""

    action: Action
    kind: ClassVar[str] = "do"

    def to_json(self) -> JSON:
        return _json(self.kind, action=self.action.to_json())


Step = Pay | GiveLot | GiveDie | Do


@dataclass(frozen=True)
class Trade:
    """An ordered list of steps every party agreed to."""

    steps: tuple[Step, ...]
    kind: ClassVar[str] = "trade"

    @property
    def follows_turn(self) -> bool:
        """Whether a step is the active player's action (``do``): its parties then change
        with the turn, so an offer of it lapses when the turn it was made in ends."""
        return any(isinstance(step, Do) for step in self.steps)

    def to_json(self) -> JSON:
        return _json(self.kind, steps=[step.to_json() for step in self.steps])


Command = Action | End | Move | Place | LayOff | Prefer | Trade


def _json(kind: str, **fields: Any) -> JSON:
    """A command's JSON: its type and its fields, leaving out the optional ones not given."""
    return {"type": kind, **{k: v for k, v in fields.items() if v is not None}}


# -- reading JSON ---------------------------------------------------------------------------


def _field(data: Mapping[str, Any], name: str, kind: type) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise MalformedCommand(_MUST_BE[kind](repr(dict(data)), repr(name)))
    return value


_MUST_BE: dict[type, Callable[[str, str], Text]] = {
    str: lambda data, name: _("%(data)s: %(field)s must be text", data=data, field=name),
    int: lambda data, name: _("%(data)s: %(field)s must be a whole number", data=data, field=name),
    bool: lambda data, name: _("%(data)s: %(field)s must be true or false", data=data, field=name),
    list: lambda data, name: _("%(data)s: %(field)s must be a list", data=data, field=name),
    dict: lambda data, name: _("%(data)s: %(field)s must be an object", data=data, field=name),
}
"""What a JSON field must hold, in words (``_field`` is only ever asked for these types)."""


def _lot(data: Mapping[str, Any], name: str = "lot", optional: bool = False) -> Any:
    if optional and data.get(name) is None:
        return None
    value = _field(data, name, str).upper()
    if value not in LOTS:
        raise MalformedCommand(_("%(lot)s is not a lot of the board (A1 to F9)", lot=repr(value)))
    return value


def _company(data: Mapping[str, Any]) -> str:
    value = str(_field(data, "company", str)).lower()
    if value not in COMPANIES:
        raise MalformedCommand(
            _(
                "%(word)s is not a company (%(companies)s)",
                word=repr(value),
                companies=", ".join(COMPANIES),
            )
        )
    return value


def _colour(data: Mapping[str, Any], name: str) -> str:
    value = str(_field(data, name, str)).lower()
    if value not in ALL_COLOURS:
        raise MalformedCommand(
            _(
                "%(word)s is not a player colour (%(colours)s)",
                word=repr(value),
                colours=", ".join(ALL_COLOURS),
            )
        )
    return value


def _amount(data: Mapping[str, Any]) -> int:
    value = _field(data, "amount", int)
    if value < 1:
        raise MalformedCommand(_("the amount must be at least $1m, not %(amount)s", amount=value))
    return int(value)


def _no_other_fields(data: Mapping[str, Any], kind: Any) -> None:
    """Refuses a field ``kind`` does not take: a typo (``"colour"`` for a build) was
    ignored and the rest played (found by fuzzing). An unknown ``kind`` is left to the
    caller, which says so."""
    taken = _FIELDS.get(kind) if isinstance(kind, str) else None
    if taken is not None:
        refuse_other_fields(data, taken)


def _step_from_json(data: Mapping[str, Any]) -> Step:
    kind = data.get("type") if isinstance(data, Mapping) else None
    if kind is not None:
        _no_other_fields(data, kind)
    if kind == "pay":
        return Pay(_colour(data, "payer"), _colour(data, "payee"), _amount(data))
    if kind in ("give_lot", "give_die"):
        cls = GiveLot if kind == "give_lot" else GiveDie
        return cls(
            _colour(data, "giver"),
            _colour(data, "receiver"),
            _lot(data),
            _lot(data, "moving", optional=True),
        )
    if kind == "do":
        action = command_from_json(_field(data, "action", dict))
        if not isinstance(action, ACTIONS):
            raise MalformedCommand(
                _("a trade can only include actions, not %(kind)s", kind=repr(action.kind))
            )
        return Do(action)
    raise MalformedCommand(
        _("%(data)s is not a trade step (pay, give_lot, give_die, do)", data=repr(data))
    )


def command_from_json(data: Mapping[str, Any]) -> Command:
    """The command for a JSON dict; raises :class:`MalformedCommand` with the reason."""
    if not isinstance(data, Mapping):
        raise MalformedCommand(_("%(data)s is not a command object", data=repr(data)))
    kind = data.get("type")
    _no_other_fields(data, kind)
    if kind == "build":
        return Build(_lot(data), _company(data), _lot(data, "moving", optional=True))
    if kind == "sprawl":
        return Sprawl(_lot(data), _lot(data, "origin"), _lot(data, "moving", optional=True))
    if kind == "remodel":
        return Remodel(_lot(data), _company(data))
    if kind == "reorganize":
        return Reorganize(_lot(data))
    if kind == "raise":
        return Raise(_lot(data))
    if kind == "gamble":
        return Gamble(_lot(data), _amount(data))
    if kind == "end":
        return End()
    if kind == "move":
        piece = _field(data, "piece", str)
        if piece not in ("die", "lot"):
            raise MalformedCommand(
                _("move needs piece 'die' or 'lot', not %(piece)s", piece=repr(piece))
            )
        return Move(piece, _lot(data))
    if kind == "place":
        return Place(_place_values(data))
    if kind == "layoff":
        return LayOff(bool(_field(data, "lay_off", bool)))
    if kind == "prefer":
        return _prefer(data)
    if kind == "trade":
        steps = _field(data, "steps", list)
        if not steps:
            raise MalformedCommand(_("a trade needs at least one step"))
        return Trade(tuple(_step_from_json(step) for step in steps))
    raise MalformedCommand(_("%(kind)s is not a Lords of Vegas command", kind=repr(kind)))


def _place_values(data: Mapping[str, Any]) -> tuple[tuple[str, int], ...]:
    pairs = _field(data, "values", list)
    values = []
    for pair in pairs:
        if not (isinstance(pair, list | tuple) and len(pair) == 2):
            raise MalformedCommand(_("%(pair)s is not a [lot, value] pair", pair=repr(pair)))
        lot = _lot({"lot": pair[0]})
        value = _field({"value": pair[1]}, "value", int)
        if not 1 <= value <= 6:
            raise MalformedCommand(_("a die shows 1 to 6, not %(value)s", value=value))
        values.append((lot, int(value)))
    if not values:
        raise MalformedCommand(_("place needs at least one tile and value"))
    return tuple(values)


def _prefer(data: Mapping[str, Any]) -> Prefer:
    topic = _field(data, "topic", str)
    value = _field(data, "value", str)
    if topic not in PREFERENCES or value not in PREFERENCES[topic]:
        raise MalformedCommand(
            _(
                "unknown preference %(topic)s = %(value)s",
                topic=repr(topic),
                value=repr(value),
            )
        )
    return Prefer(topic, value)


COMMANDS = (*ACTIONS, End, Move, Place, LayOff, Prefer, Trade)
"""Every command class, for isinstance checks."""

_FIELDS: dict[str, frozenset[str]] = {
    cls.kind: frozenset({"type", *(field.name for field in fields(cls))})
    for cls in (*COMMANDS, Pay, GiveLot, GiveDie, Do)
}
"""The JSON fields of each command and trade step: its type and its dataclass's fields
(a command's JSON names them as the dataclass does)."""
