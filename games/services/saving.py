"""Saving a game after moves: the snapshot, the version, a finished game's placings, the
deadline and time banks, the offers that lapse with a turn, and which seats the game waits on."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import BooleanField, ExpressionWrapper, Q
from django.utils import timezone

from games.engines.base import GameEngine, State
from games.models import Game, Seat, TradeOffer
from games.services import clock, offers, rows


def final_outcome(game: Game, engine_outcome: dict[str, Any] | None) -> dict[str, Any]:
    """The engine's placings, with resigned seats moved last (the latest resigner first of
    them); ranks are renumbered, ties among the others kept."""
    resigned = list(
        game.seats.filter(resigned=True)
        .order_by("-resigned_at", "-id")
        .values_list("order", flat=True)
    )
    placings = list((engine_outcome or {}).get("placings", []))
    by_seat = {p["seat"]: p for p in placings}
    playing = [p for p in placings if p["seat"] not in resigned]
    if engine_outcome is None:
        others = game.seats.exclude(order__in=resigned).values_list("order", flat=True)
        playing = [{"seat": order, "rank": 1} for order in others]
    result: list[dict[str, Any]] = []
    previous_rank = None
    for index, placing in enumerate(playing):
        rank = result[-1]["rank"] if placing["rank"] == previous_rank else index + 1
        previous_rank = placing["rank"]
        result.append({**placing, "rank": rank})
    for order in resigned:
        result.append(
            {**by_seat.get(order, {}), "seat": order, "rank": len(result) + 1, "resigned": True}
        )
    winners = [p["seat"] for p in result if p["rank"] == 1]
    out = {**(engine_outcome or {}), "placings": result, "winners": winners}
    if engine_outcome is None:
        out["ended_by"] = "resignation"
    return out


def finish(game: Game, outcome: dict[str, Any], now: Any) -> None:
    game.status = Game.Status.FINISHED
    game.outcome = outcome
    game.finished_at = now
    game.deadline = None
    TradeOffer.objects.filter(game=game, status=TradeOffer.Status.OPEN).update(
        status=TradeOffer.Status.EXPIRED, resolved_at=now, message="ended"
    )


_SAVED_BY_A_MOVE = ["state", "version", "status", "deadline", "clock_started_at"]
_SAVED_AT_THE_END = [*_SAVED_BY_A_MOVE, "outcome", "finished_at"]
"""What a move writes of its game: the outcome and the time it finished only when it is
over (:func:`finish` sets them, nothing else on the way does)."""


def save_game(
    game: Game,
    engine: GameEngine,
    state: State,
    moved: bool,
    seats_read: Sequence[Seat] | None = None,
    offers_may_lapse: bool = True,
) -> None:
    """Save the snapshot, the version, the deadline, and which seats the game waits on.

    ``seats_read``: the game's seats, read under the game lock by the caller; then only the
    fields a move changes are written, and the seats' waiting flags only where they change
    (nothing else writes them without the lock). ``offers_may_lapse``: false when the caller
    read, under the lock, that no open offer lapses with a turn (no query for them)."""
    now = timezone.now()
    before = game.state
    if moved and game.state is not None:  # the deadline is replaced: a vacation wait ends
        clock.end_vacation_wait(game, engine.to_act(game.state), now, seats_read)
    if moved and game.status == Game.Status.ACTIVE:  # the wait ends: time banks pay for it
        read = clock.settle_banks(game, engine, before, state, now, seats_read)
    else:
        read = seats_read
    if game.status == Game.Status.ACTIVE and offers_may_lapse:  # a turn ends: its offers lapse
        offers.expire_with_turn(game, engine, before, state, now)
    game.state = state
    outcome = engine.outcome(state)
    if outcome is not None and game.status == Game.Status.ACTIVE:
        finish(game, final_outcome(game, outcome.to_json()), now)
    if game.status == Game.Status.ACTIVE:
        waiting = engine.to_act(state)
        if moved or game.deadline is None:
            game.deadline = clock.start_wait(game, read, waiting, now)
    else:  # over: nobody is waited on, nobody is to be reminded
        waiting = []
        clock.schedule_reminders(game, None, waiting, seats_read)
    if seats_read is not None:
        over = game.status != Game.Status.ACTIVE
        rows.update(game, _SAVED_AT_THE_END if over else _SAVED_BY_A_MOVE)
        _update_to_act(game, seats_read, waiting)
        return
    game.save()
    seats = Seat.objects.filter(game=game)
    if waiting:
        seats.update(to_act=ExpressionWrapper(Q(order__in=waiting), output_field=BooleanField()))
    else:  # (an empty IN would match nothing and leave the old flags)
        seats.update(to_act=False)


def _update_to_act(game: Game, seats: Sequence[Seat], waiting: Sequence[int]) -> None:
    """The seats whose flag changes (none if the game waits on the same seats as before) are
    updated, instances and rows."""
    for seat in seats:
        wanted = seat.order in waiting
        if seat.to_act != wanted:
            seat.to_act = wanted
            rows.update(seat, ["to_act"])
