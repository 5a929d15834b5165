"""Self-play: bot games through the protocol only, every state checked, figures as JSON."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.engines import selfplay
from games.engines.base import Command, Event, InvalidOptions, State
from games.engines.rng import Rng
from games.engines.vegas import ENGINE as VEGAS
from games.engines.vegas.engine import VegasEngine


def _clock() -> Any:
    ticks = iter(range(1000))
    return lambda: float(next(ticks))


class TestPlay:
    def test_it_plays_every_game_to_the_end_and_counts(self) -> None:
        stats = selfplay.play(VEGAS, 3, {}, 5, seed=7, clock=_clock())
        assert stats["games"] == stats["finished"] == 5
        assert stats["invariant_violations"] == 0 and stats["violations"] == []
        assert stats["commands"] > 5 * 40
        assert sum(stats["wins_by_seat"]) >= 5
        assert stats["seconds"] == 1.0 and stats["games_per_second"] == 5.0
        assert stats["commands_per_second"] == float(stats["commands"])
        json.dumps(stats)

    def test_the_same_seed_plays_the_same_games(self) -> None:
        first = selfplay.play(VEGAS, 4, {"variant": "neutral"}, 3, seed="x", bot="greedy")
        again = selfplay.play(VEGAS, 4, {"variant": "neutral"}, 3, seed="x", bot="greedy")
        other = selfplay.play(VEGAS, 4, {"variant": "neutral"}, 3, seed="y", bot="greedy")
        assert first == again and first["games_per_second"] is None
        assert (first["commands"], first["wins_by_seat"]) != (
            other["commands"],
            other["wins_by_seat"],
        )

    def test_each_game_has_its_own_seed_and_replays_from_its_log(self) -> None:
        seeds = {selfplay.game_seed(1, g) for g in range(10)}
        assert len(seeds) == 10
        record = selfplay.play_game(VEGAS, 2, {"variant": "standard"}, selfplay.game_seed(1, 0))
        state, _ = VEGAS.new_game(2, {"variant": "standard"}, record.seed)
        for seat, command in record.log:
            state, _ = VEGAS.apply(state, seat, command)
        assert state == record.state and record.finished

    def test_bad_arguments_fail_before_any_game(self) -> None:
        with pytest.raises(InvalidOptions):
            selfplay.play(VEGAS, 9, {}, 1, seed=1)
        with pytest.raises(KeyError, match="unknown bot 'clever'"):
            selfplay.play(VEGAS, 2, {}, 1, seed=1, bot="clever")


class _Broken(VegasEngine):
    """Vegas with one fault, to see that self-play notices it."""

    def __init__(self, fault: str) -> None:
        self.fault = fault

    def apply(
        self, state: State, seat: int | None, command: Command, *, rng: Rng | None = None
    ) -> tuple[State, list[Event]]:
        new, events = super().apply(state, seat, command, rng=rng)
        if self.fault == "tuple" and new["n"] == 3:
            new = {**new, "note": (1, 2)}
        if self.fault == "crash" and new["n"] == 2:
            raise ZeroDivisionError("a bug")
        if self.fault == "forever":
            new = {**new, "finished": False} if new["finished"] else new
            if new["active"] is None:
                new, _ = self.new_game(new["players"], {}, new["seed"])
        return new, events

    def check_invariants(self, state: State) -> list[str]:
        if self.fault == "notes" and state["n"] == 5:
            return ["a note went missing"]
        return super().check_invariants(state)

    def normalize_options(self, options: Mapping[str, Any], players: int) -> dict[str, Any]:
        return super().normalize_options(options, players)


class TestViolations:
    def test_a_broken_invariant_is_counted_with_its_message(self) -> None:
        stats = selfplay.play(_Broken("notes"), 2, {}, 3, seed=1)
        assert stats["invariant_violations"] == 3 and stats["finished"] == 0
        assert "after command 5: a note went missing" in stats["violations"][0]

    def test_a_state_that_is_not_plain_json_is_a_violation(self) -> None:
        stats = selfplay.play(_Broken("tuple"), 2, {}, 1, seed=1)
        assert stats["invariant_violations"] == 1
        assert "JSON round trip" in stats["violations"][0]

    def test_a_crash_is_a_violation_not_the_end_of_the_run(self) -> None:
        stats = selfplay.play(_Broken("crash"), 2, {}, 2, seed=1)
        assert stats["invariant_violations"] == 2
        assert "crashed: ZeroDivisionError" in stats["violations"][0]

    def test_a_game_that_never_ends_is_stuck(self) -> None:
        stats = selfplay.play(_Broken("forever"), 2, {}, 1, seed=1, max_commands=300)
        assert stats["invariant_violations"] == 1
        assert "stuck: no end after 300" in stats["violations"][0]


class TestTheManagementCommand:
    def _run(self, *args: str) -> dict[str, Any]:
        out = io.StringIO()
        call_command("selfplay", *args, stdout=out)
        lines = out.getvalue().strip().splitlines()
        assert len(lines) == 1
        result: dict[str, Any] = json.loads(lines[0])
        return result

    def test_it_prints_one_json_line_for_vegas(self) -> None:
        stats = self._run("--game", "vegas", "--players", "4", "--games", "3", "--seed", "1")
        assert stats["games"] == 3 and stats["invariant_violations"] == 0
        assert stats["games_per_second"] > 0 and stats["options"] == {"variant": "standard"}

    def test_the_variant_and_the_bot_reach_the_engine(self) -> None:
        stats = self._run(
            "--game", "vegas", "--players", "3", "--games", "2", "--variant", "neutral",
            "--bot", "greedy",
        )  # fmt: skip
        assert stats["options"] == {"variant": "neutral"} and stats["bot"] == "greedy"

    def test_bad_arguments_are_a_command_error(self) -> None:
        with pytest.raises(CommandError, match="unknown game type"):
            call_command("selfplay", "--game", "chess")
        with pytest.raises(CommandError, match="needs 2 to 4 players"):
            call_command("selfplay", "--game", "vegas", "--players", "5", "--variant", "neutral")

    def test_a_violation_exits_with_code_1(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from games.management.commands import selfplay as door

        monkeypatch.setattr(door.registry, "get_engine", lambda slug: _Broken("notes"))
        out = io.StringIO()
        with pytest.raises(CommandError) as raised:
            call_command("selfplay", "--game", "vegas", "--games", "2", stdout=out)
        assert raised.value.returncode == 1
        assert json.loads(out.getvalue())["invariant_violations"] == 2
