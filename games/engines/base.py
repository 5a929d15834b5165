"""The protocol every game engine offers the platform.

An engine is a pure rules library: plain data in, plain data out. It imports nothing from
Django, the database, the clock, the network or the global random module (an import-linter
contract keeps it so). The platform keeps a JSON snapshot of the state and an append-only log
of commands; replaying the log from ``new_game`` reproduces every state exactly.

Conventions shared by every engine:

* ``State`` is a JSON-serialisable ``dict``. It carries the game's secret ``seed`` (hex) and
  ``n``, the number of commands applied so far, so that every random draw is derived from the
  seed and the position in the log (see :mod:`games.engines.rng`). ``view`` strips the seed
  and every other hidden thing (deck order, undrawn bills).
* Seats are ``int`` indexes ``0..players-1`` in seating order.
* A command is a small frozen dataclass owned by its engine; ``to_json``/``from_json`` and the
  text notation (``parse``/``format``) round-trip.
* An ``Event`` is a JSON dict with at least ``"type"``; ``describe(event, names)`` turns it into
  a sentence for the log and for email.
* Bad input raises :class:`IllegalCommand` (or a subclass) with a message a player
  understands, and the state passed in is never modified.
* Everything an engine says to a player (sentences, refusals, colour names, board legends,
  edition labels) is a :class:`~games.engines.text.Text` (``_("...", name=...)``), rendered
  in the reader's language by the platform (see :mod:`games.engines.text`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from games.engines.rng import Rng
from games.engines.text import Join, Text, ngettext

State = dict[str, Any]
Event = dict[str, Any]
JSON = dict[str, Any]


class IllegalCommand(ValueError):
    """A command that the rules do not allow now; the message (a :class:`Text`, or a
    string) is for the player: ``str(exc)`` says it in the active language."""

    def __init__(self, message: Text | str) -> None:
        super().__init__(message)
        self.text = message

    def __str__(self) -> str:
        return str(self.text)


class OutOfTurn(IllegalCommand):
    """A refusal only because another seat is to play: the platform says whose turn it is
    in its own words (naming the player). Any other refusal of a command sent out of turn
    says more ("the game is waiting for Blue's lay-off decision", "no bet waits for your
    lay-off decision") and is the one a player is told."""


class MalformedCommand(IllegalCommand):
    """Text or JSON that is not a command at all (unknown verb, missing argument...)."""


class Mistyped(MalformedCommand):
    """An unknown verb close to one the notation reads ("construir": "did you mean
    'construire'?"): a line meant as a command, misspelt, where a greeting is none (the
    email door tells the two apart)."""


def refuse_other_fields(data: Mapping[str, Any], taken: Collection[str]) -> None:
    """A command's JSON with a field its kind does not take is refused, naming them: a
    typo (``"mooving"``) ignored would play the rest as if it were meant (found by
    fuzzing). Every engine's ``command_from_json`` says it the same way."""
    extra = sorted(map(str, set(data) - set(taken)))
    if extra:
        raise MalformedCommand(
            ngettext(
                "%(data)s: unexpected field %(fields)s",
                "%(data)s: unexpected fields %(fields)s",
                len(extra),
                data=repr(dict(data)),
                fields=Join([repr(name) for name in extra]),
            )
        )


class InvalidOptions(ValueError):
    """Game options that cannot make a game (wrong player count, unknown edition...)."""

    def __init__(self, message: Text | str) -> None:
        super().__init__(message)
        self.text = message

    def __str__(self) -> str:
        return str(self.text)


@runtime_checkable
class Command(Protocol):
    """What every engine's command dataclasses offer.

    A command class may set ``anytime: ClassVar[bool] = True`` when any seated player may
    send it while the game waits on someone else (standing preferences); the engine still
    judges it, and the platform lets it through its turn check. A trade whose parties
    depend on whose turn it is (a step that is the active player's action) says so with a
    ``follows_turn`` attribute that is true: an offer of it lapses when its turn ends.
    """

    def to_json(self) -> JSON: ...


@dataclass(frozen=True)
class Placing:
    """One seat's final place. ``rank`` starts at 1; tied seats share a rank."""

    seat: int
    rank: int
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"seat": self.seat, "rank": self.rank, **dict(self.detail)}


@dataclass(frozen=True)
class Outcome:
    """The placings of a finished game, best first."""

    placings: tuple[Placing, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(p.seat for p in self.placings if p.rank == 1)

    def to_json(self) -> JSON:
        return {"placings": [p.to_json() for p in self.placings], "winners": list(self.winners)}


Bot = Callable[[State, int, Rng], Command]
"""A bot picks a command for ``seat``; its own choices come from ``rng``, not from the game."""


class GameEngine(Protocol):
    """The engine protocol (see ``docs/decisions`` and the architecture page)."""

    slug: str  # "lords-of-vegas", "vegas"
    name: str  # "Lords of Vegas"
    min_players: int
    max_players: int
    editions: tuple[str, tuple[tuple[str, Text | str], ...]]
    trades: bool
    """Whether players may propose trades (commands that ``trade_parties`` names parties of):
    the doors offer trade forms only for such games."""
    """The option that picks the edition or variant, and its values with a label each
    (the first is the default): what a lobby offers when a game is created."""

    # -- setting up ---------------------------------------------------------------------
    def normalize_options(self, options: Mapping[str, Any], players: int) -> JSON:
        """Checked options with defaults filled in; raises :class:`InvalidOptions`."""

    def seat_colours(self, options: Mapping[str, Any], players: int) -> list[str]:
        """The colour of each seat, in seat order (ids: "black", "red"...)."""

    def colour_name(self, colour: str) -> Text | str:
        """A seat colour's name for a player ("black" -> "noir" for a French reader)."""

    def new_game(
        self, players: int, options: Mapping[str, Any], seed: str
    ) -> tuple[State, list[Event]]:
        """Set up a game; the events describe the setup (deals, first-player rolls)."""

    # -- playing --------------------------------------------------------------------------
    def apply(
        self, state: State, seat: int | None, command: Command, *, rng: Rng | None = None
    ) -> tuple[State, list[Event]]:
        """Validate and apply one command for ``seat`` (``None``: the system, e.g. a
        trade every party agreed to). Returns a new state; never mutates ``state``.
        ``rng`` overrides the seeded source so that a test can dictate rolls and draws."""

    def to_act(self, state: State) -> list[int]:
        """The seats the game waits for, pending decisions of non-active seats included."""

    def legal_commands(self, state: State, seat: int) -> list[Command]:
        """Every command ``seat`` may submit now (finite: enough for forms and bots)."""

    def default_command(self, state: State, seat: int) -> Command:
        """What the timeout policy submits for a seat that missed its deadline."""

    def turn_marker(self, state: State) -> Hashable:
        """A value that changes whenever a turn ends (a turn count, the active seat...): the
        timeout policy plays default commands for a late seat only while the marker stays
        the same, so one missed deadline plays at most the rest of one turn, even when the
        next turn is the same seat's again."""

    def trade_parties(self, state: State, seat: int, command: Command) -> frozenset[int] | None:
        """``None`` for an ordinary command; for a trade, every seat that must agree.
        The platform never applies a trade straight from one player: it becomes an offer."""

    def shows_chance(self, event: Event) -> bool:
        """Whether ``event`` shows what chance decided: dice rolled, a card turned from the
        hidden deck. What comes of a command after such an event must not be tried and
        taken back (a refused submission would tell the roll, and a player could probe
        until it suits them): the platform lets such a command only come last."""

    def outcome(self, state: State) -> Outcome | None:
        """``None`` while the game runs, else the placings with tie-breaks."""

    def check_invariants(self, state: State) -> list[str]:
        """Every broken invariant of ``state`` as a sentence (empty when all hold); the
        self-play command and the property tests run it after every command."""

    # -- notation ---------------------------------------------------------------------------
    def parse(self, text: str, *, options: Mapping[str, Any] | None = None) -> Command:
        """One command from its text form; raises :class:`MalformedCommand`. ``options``:
        the game's (normalised) options when the command is for a game, so that a refusal
        speaks of that game only (an unknown verb's lists this edition's verbs); without
        them the text is read for any game of the engine."""

    def format(self, command: Command) -> str:
        """The canonical text form; ``parse(format(c)) == c``."""

    def format_in(self, command: Command, language: str) -> str:
        """The text form in the words a player of ``language`` writes (the French and
        Italian verbs the parser accepts; the canonical form for other languages):
        ``parse(format_in(c, language)) == c``. What an email shows its reader."""

    def command_from_json(self, data: Mapping[str, Any]) -> Command:
        """A command from its JSON form; raises :class:`MalformedCommand`."""

    # -- showing ----------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> JSON:
        """What ``seat`` (``None``: a spectator) may see: no seed, no hidden order."""

    def render_text(self, view: JSON) -> str:
        """The board as plain text for email, at most 80 columns wide."""

    def describe(self, event: Event, names: Sequence[str]) -> Text | str:
        """One event as a sentence; ``names[seat]`` is how to call each seat."""

    bots: Mapping[str, Bot]
