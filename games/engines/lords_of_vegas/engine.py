"""``ENGINE``: the Lords of Vegas rules behind the platform's :class:`GameEngine` protocol.

This module only wires the parts together: who may submit what and when (``apply``), and
the protocol's small questions (``to_act``, ``outcome`` ...). The rules live in the modules
named for them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, cast

from games.engines.base import (
    JSON,
    Event,
    IllegalCommand,
    InvalidOptions,
    MalformedCommand,
    Outcome,
    OutOfTurn,
    Placing,
    State,
)
from games.engines.base import Command as BaseCommand
from games.engines.rng import Rng, move_rng
from games.engines.text import Join, Text, _, ngettext

from . import bots, events, invariants, legal, notation, render, setup, views, words
from .actions import perform
from .board import EDITIONS, PLAYER_COLOURS
from .commands import (
    ACTIONS,
    COMMANDS,
    End,
    LayOff,
    Move,
    Place,
    Prefer,
    Trade,
    command_from_json,
)
from .decisions import (
    answer_layoff,
    answer_move,
    answer_place,
    automatic_answer,
    pending_for,
    set_preference,
)
from .state import colour_name, copy_state
from .trades import apply_trade, parties
from .turn import end_turn, placings

PLAYERS = {"2024": (2, 6), "classic": (2, 4)}


CHANCE_EVENTS = frozenset(
    {
        "card",  # a turn's card (the deck's order is hidden)
        "out_of_play",  # a card turned and set aside
        "gamble",  # the gambler's dice
        "reorganize",  # every die of the casino rolled again
        "tie_reroll",  # tied dice rolled again (after a build, a sprawl, a merge...)
        "first_roll",
        "deal",
        "set_aside",
        "shuffled_back",
    }
)
"""The events that show what the dice or the hidden deck decided (see
``GameEngine.shows_chance``); tests/engines/test_chance.py checks that every event a roll
changes is one of them."""


class LordsOfVegas:
    """The engine object the registry hands to the platform."""

    slug = "lords-of-vegas"
    name = "Lords of Vegas"
    min_players = 2
    max_players = 6
    editions: tuple[str, tuple[tuple[str, Text | str], ...]] = (
        "edition",
        (
            ("2024", _("2024 edition (2 to 6 players)")),
            ("classic", _("classic edition (2 to 4 players)")),
        ),
    )
    trades = True
    bots = bots.BOTS

    # -- setting up -------------------------------------------------------------------------

    def normalize_options(self, options: Mapping[str, Any], players: int) -> JSON:
        """``edition`` ("2024" default, or "classic") and optional ``colours`` (one per seat
        from the edition's colours; default: the first ones in the books' order). Anything
        else is refused rather than ignored, so a typo never silently plays another game."""
        unknown = sorted(set(options) - {"edition", "colours"})
        if unknown:
            raise InvalidOptions(
                ngettext(
                    "unknown option %(names)s: the options are edition and colours",
                    "unknown options %(names)s: the options are edition and colours",
                    len(unknown),
                    names=", ".join(map(repr, unknown)),
                )
            )
        edition = str(options.get("edition", "2024"))
        if edition not in EDITIONS:
            raise InvalidOptions(
                _("unknown edition %(edition)s: choose 2024 or classic", edition=repr(edition))
            )
        _check_players(edition, players)
        palette = PLAYER_COLOURS[edition]
        # Absent: the default. Anything else must be the list: an "empty" value (0, "",
        # null, [] ...) was taken for the default and stored as sent (found by fuzzing).
        given = options.get("colours", palette[:players])
        if not isinstance(given, list | tuple):
            raise InvalidOptions(
                ngettext(
                    "colours must be a list of %(count)s colour",
                    "colours must be a list of %(count)s colours",
                    players,
                    count=players,
                )
            )
        colours = [str(colour) for colour in given]
        if len(colours) != players or len(set(colours)) != players:
            raise InvalidOptions(
                ngettext(
                    "give %(count)s different colour, one per seat",
                    "give %(count)s different colours, one per seat",
                    players,
                    count=players,
                )
            )
        for colour in colours:
            if colour not in palette:
                raise InvalidOptions(_unknown_colour(edition, colour, palette))
        return {"edition": edition, "colours": colours}

    def seat_colours(self, options: Mapping[str, Any], players: int) -> list[str]:
        return list(self.normalize_options(options, players)["colours"])

    def colour_name(self, colour: str) -> Text | str:
        """A seat colour's word, or a tile colour's ("gold"): the platform shows both."""
        return words.colour(colour)

    def new_game(
        self, players: int, options: Mapping[str, Any], seed: str, *, rng: Rng | None = None
    ) -> tuple[State, list[Event]]:
        opts = self.normalize_options(options, players)
        return setup.new_game(opts["edition"], opts["colours"], seed, rng or move_rng(seed, 0))

    # -- playing ----------------------------------------------------------------------------

    def apply(
        self, state: State, seat: int | None, command: BaseCommand, *, rng: Rng | None = None
    ) -> tuple[State, list[Event]]:
        """Check and apply one command on a copy; the input state is never touched.

        The random source of the command at log position ``n + 1`` (0 is the setup) is
        ``move_rng(seed, n + 1)``, so a replay draws the same dice.
        """
        if not isinstance(command, COMMANDS):
            raise MalformedCommand(_not_ours(command))
        rng = rng or move_rng(state["seed"], state["n"] + 1)
        new = copy_state(state)
        out: list[Event] = []
        try:
            if state["over"] is not None:
                raise IllegalCommand(_("the game is over"))
            _dispatch(new, seat, command, rng, out)
        except IllegalCommand as refusal:
            raise _naming(refusal, command) from None
        new["n"] += 1
        return new, out

    def to_act(self, state: State) -> list[int]:
        if state["over"] is not None:
            return []
        if state["pending"]:
            return sorted({d["seat"] for d in state["pending"]})
        return [state["turn"]]

    def legal_commands(self, state: State, seat: int) -> list[BaseCommand]:
        # A new list on every call: no copy needed (the cast only widens its type).
        return cast(list[BaseCommand], legal.legal_commands(state, seat))

    def legal_commands_of(self, state: State, seat: int, verb: str) -> list[BaseCommand]:
        """``legal_commands`` of one verb ("build", "gamble" ...), same order, without
        building the others (not part of the protocol: for bots and forms of this game)."""
        return cast(list[BaseCommand], legal.legal_of(state, seat, verb))

    def default_command(self, state: State, seat: int) -> BaseCommand:
        decision = pending_for(state, seat)
        if decision is not None:
            return automatic_answer(state, decision)
        return legal.END  # frozen: one shared object

    def turn_marker(self, state: State) -> Hashable:
        """The active seat: a turn ends only by passing it to the left (``end``), and there
        are always at least two seats. Decisions answered within a turn keep it."""
        return int(state["turn"])

    def trade_parties(self, state: State, seat: int, command: BaseCommand) -> frozenset[int] | None:
        return parties(state, seat, command) if isinstance(command, Trade) else None

    def shows_chance(self, event: Event) -> bool:
        return event.get("type") in CHANCE_EVENTS

    def outcome(self, state: State) -> Outcome | None:
        if state["over"] is None:
            return None
        return Outcome(
            tuple(
                Placing(p["seat"], p["rank"], {"points": p["points"], "money": p["money"]})
                for p in placings(state)
            )
        )

    def check_invariants(self, state: State) -> list[str]:
        return invariants.check(state)

    # -- notation ---------------------------------------------------------------------------

    def parse(self, text: str, *, options: Mapping[str, Any] | None = None) -> BaseCommand:
        edition = None if options is None else str(options.get("edition", "2024"))
        return notation.parse(text, edition=edition)

    def format(self, command: BaseCommand) -> str:
        if not isinstance(command, COMMANDS):
            raise MalformedCommand(_not_ours(command))
        return notation.format_command(command)

    def format_in(self, command: BaseCommand, language: str) -> str:
        if not isinstance(command, COMMANDS):
            raise MalformedCommand(_not_ours(command))
        return notation.format_in(command, language)

    def command_from_json(self, data: Mapping[str, Any]) -> BaseCommand:
        return command_from_json(data)

    # -- showing ----------------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> JSON:
        return views.view(state, seat)

    def render_text(self, view: JSON) -> str:
        return render.render_text(view)

    def describe(self, event: Event, names: Sequence[str]) -> Text | str:
        return events.describe(event, names)


def _dispatch(state: State, seat: int | None, cmd: Any, rng: Rng, out: list[Event]) -> None:
    """Who may submit what, and when; then the rule module does the work."""
    if isinstance(cmd, Trade):
        apply_trade(state, seat, cmd, rng, out)
        return
    if seat is None or not 0 <= seat < state["players"]:
        raise IllegalCommand(_("seat %(seat)s is not a player of this game", seat=repr(seat)))
    if isinstance(cmd, _ON_TURN):  # the usual case first: the kinds below are disjoint
        _check_turn(state, seat, cmd)
        if isinstance(cmd, End):
            out.append({"type": "turn_end", "seat": seat})
            end_turn(state, rng, out)
        else:
            perform(state, seat, cmd, rng, out)
    elif isinstance(cmd, Prefer):
        set_preference(state, seat, cmd, out)
    elif isinstance(cmd, Move):
        answer_move(state, seat, cmd, rng, out)
    elif isinstance(cmd, Place):
        answer_place(state, seat, cmd, out)
    elif isinstance(cmd, LayOff):
        answer_layoff(state, seat, cmd, rng, out)
    else:
        _check_turn(state, seat, cmd)  # refuses it: not a command of the active player


def _naming(refusal: IllegalCommand, command: Any) -> IllegalCommand:
    """Every refusal names the command it refuses, then gives the reason."""
    what = repr(notation.format_command(command))
    text = refusal.text
    if isinstance(text, Text) and text.msgid == NAMED.msgid and text.params["command"] == what:
        return refusal
    return type(refusal)(notation.naming(what, text))


NAMED = notation.naming("", "")
"""The shape of a refusal that already names its command."""


def _not_ours(command: Any) -> Text:
    return _("%(command)s is not a Lords of Vegas command", command=repr(command))


def _check_players(edition: str, players: int) -> None:
    low, high = PLAYERS[edition]
    if low <= players <= high:
        return
    if edition == "classic":
        refusal = _(
            "the classic edition is for %(low)s to %(high)s players, not %(players)s",
            low=low,
            high=high,
            players=players,
        )
    else:
        refusal = _(
            "the 2024 edition is for %(low)s to %(high)s players, not %(players)s",
            low=low,
            high=high,
            players=players,
        )
    raise InvalidOptions(refusal)


def _unknown_colour(edition: str, colour: str, palette: Sequence[str]) -> Text:
    """The edition's name is a word ("classic"), so each edition has its own sentence."""
    if edition == "classic":
        return _(
            "%(colour)s is not a colour of the classic edition (%(colours)s)",
            colour=repr(colour),
            colours=", ".join(palette),
        )
    return _(
        "%(colour)s is not a colour of the 2024 edition (%(colours)s)",
        colour=repr(colour),
        colours=", ".join(palette),
    )


def _check_turn(state: State, seat: int, cmd: Any) -> None:
    """Actions and ``end`` belong to the active player, once nothing is pending (the
    refusal is prefixed with the command by :func:`_naming`)."""
    if seat != state["turn"]:
        raise OutOfTurn(
            _(
                "it is %(player)s's turn; you can act only on your own turn",
                player=colour_name(state, state["turn"]),
            )
        )
    if state["pending"]:
        waiting = Join(
            [_DECISION[d["kind"]](colour_name(state, d["seat"])) for d in state["pending"]]
        )
        raise IllegalCommand(_("the game is waiting for %(decisions)s", decisions=waiting))
    if not isinstance(cmd, _ON_TURN):
        raise MalformedCommand(_("it is not an action"))


_ON_TURN = (End, *ACTIONS)
"""What only the active player submits, when nothing is pending."""


_DECISION: dict[str, Callable[[Text | str], Text]] = {
    "move": lambda who: _("%(player)s (which die or lot marker moves)", player=who),
    "place": lambda who: _("%(player)s (placing rerolled dice)", player=who),
    "layoff": lambda who: _("%(player)s (the lay-off decision)", player=who),
}
"""A player the game waits for, and what for."""

ENGINE = LordsOfVegas()
