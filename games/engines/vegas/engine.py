"""The Vegas engine object: the protocol of :mod:`games.engines.base` over the rules modules."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from games.engines.base import (
    JSON,
    Bot,
    Command,
    Event,
    IllegalCommand,
    MalformedCommand,
    Outcome,
    Placing,
    State,
)
from games.engines.rng import Rng, move_rng
from games.engines.text import Text, _
from games.engines.vegas import bots, commands, invariants, rules, view

CHANCE_EVENTS = frozenset({"roll", "white_roll", "deal"})
"""The events that show what the dice or the shuffled banknotes decided (see
``GameEngine.shows_chance``)."""


class VegasEngine:
    """Vegas by Rüdiger Dorn (alea/Ravensburger): 2-5 players, 4 rounds of dice placement."""

    slug = "vegas"
    name = "Vegas"
    min_players = 2
    max_players = 5
    editions: tuple[str, tuple[tuple[str, Text | str], ...]] = (
        "variant",
        (
            ("standard", _("standard (2 to 5 players)")),
            ("neutral", _("with neutral dice (2 to 4 players)")),
        ),
    )
    trades = False
    bots: Mapping[str, Bot] = {"random": bots.random_bot, "greedy": bots.greedy_bot}

    # -- setting up -------------------------------------------------------------------------
    def normalize_options(self, options: Mapping[str, Any], players: int) -> JSON:
        return rules.normalize_options(options, players)

    def seat_colours(self, options: Mapping[str, Any], players: int) -> list[str]:
        return list(rules.COLOURS[:players])

    def colour_name(self, colour: str) -> Text | str:
        """``Red``... capitalised, as the colour names its party in every sentence of the
        game; ``white`` (the neutral dice) too. An unknown id is shown as it is."""
        return rules.COLOUR_NAMES.get(colour, colour)

    def new_game(
        self, players: int, options: Mapping[str, Any], seed: str
    ) -> tuple[State, list[Event]]:
        return self.setup(players, options, seed, rng=move_rng(seed, 0))

    def setup(
        self, players: int, options: Mapping[str, Any], seed: str, *, rng: Rng
    ) -> tuple[State, list[Event]]:
        """``new_game`` with the random source given (position 0 of the log by default)."""
        checked = self.normalize_options(options, players)
        return rules.new_state(players, checked["variant"], seed, rng)

    # -- playing ----------------------------------------------------------------------------
    def apply(
        self, state: State, seat: int | None, command: Command, *, rng: Rng | None = None
    ) -> tuple[State, list[Event]]:
        """The command at log position ``n + 1`` draws from ``move_rng(seed, n + 1)``:
        position 0 is the setup, so no two positions share their draws."""
        source = rng if rng is not None else move_rng(state["seed"], state["n"] + 1)
        return rules.apply_place(state, seat, command, source)

    def to_act(self, state: State) -> list[int]:
        return [] if state["finished"] else [state["active"]]

    def legal_commands(self, state: State, seat: int) -> list[Command]:
        if state["finished"] or seat != state["active"]:
            return []
        return [commands.Place(n) for n in rules.rolled_numbers(state)]

    def default_command(self, state: State, seat: int) -> Command:
        """On a timeout: the number with the most dice (own and white), the higher on a tie."""
        if state["finished"] or seat != state["active"]:
            raise IllegalCommand(_("seat %(seat)s has nothing to do now", seat=seat))
        roll = state["roll"]
        everything = roll["own"] + roll["white"]
        best = max(rules.rolled_numbers(state), key=lambda n: (everything.count(n), n))
        return commands.Place(best)

    def turn_marker(self, state: State) -> Hashable:
        """Every command of Vegas is a whole turn (one ``place``): the count of commands
        applied. (The active seat would not do: once the others are out of dice, the turn
        comes back to the same seat.)"""
        return int(state["n"])

    def trade_parties(self, state: State, seat: int, command: Command) -> frozenset[int] | None:
        return None

    def shows_chance(self, event: Event) -> bool:
        return event.get("type") in CHANCE_EVENTS

    def outcome(self, state: State) -> Outcome | None:
        if not state["finished"]:
            return None
        return Outcome(
            tuple(
                Placing(seat, rank, {"money": total, "notes": notes})
                for seat, rank, total, notes in rules.standings(state)
            )
        )

    def check_invariants(self, state: State) -> list[str]:
        return invariants.check_invariants(state)

    # -- notation ---------------------------------------------------------------------------
    def parse(self, text: str, *, options: Mapping[str, Any] | None = None) -> Command:
        return commands.parse_command(text)  # one verb in every variant: options change nothing

    def format(self, command: Command) -> str:
        if not isinstance(command, commands.Place):
            raise MalformedCommand(_("%(command)s is not a Vegas command", command=repr(command)))
        return commands.format_command(command)

    def format_in(self, command: Command, language: str) -> str:
        text = self.format(command)
        verb = commands.LOCAL_VERBS.get(language.split("-")[0].lower())
        return text if verb is None else text.replace("place", verb, 1)

    def command_from_json(self, data: Mapping[str, Any]) -> Command:
        return commands.command_from_json(data)

    # -- showing ----------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> JSON:
        return view.view(state, seat)

    def render_text(self, v: JSON) -> str:
        return view.render_text(v)

    def describe(self, event: Event, names: Sequence[str]) -> Text:
        return view.describe(event, names)


ENGINE = VegasEngine()
