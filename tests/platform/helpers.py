"""Small helpers for the platform tests: who must act, a legal command, "nothing written"."""

from __future__ import annotations

from typing import Any

from games.engines.registry import get_engine
from games.models import Game, Invitation, Move, Seat, TradeOffer


def seat_to_act(game: Game) -> Seat:
    game.refresh_from_db()
    assert game.state is not None
    order = get_engine(game.game_type).to_act(game.state)[0]
    return game.seats.select_related("user").get(order=order)


def user_to_act(game: Game) -> Any:
    return seat_to_act(game).user


def user_not_to_act(game: Game) -> Any:
    acting = seat_to_act(game)
    return game.seats.exclude(pk=acting.pk).exclude(user=None).first().user  # type: ignore[union-attr]


def legal_text(game: Game, index: int = 0) -> str:
    """A legal command (as text) for the seat to act."""
    engine = get_engine(game.game_type)
    seat = seat_to_act(game)
    assert game.state is not None
    return engine.format(engine.legal_commands(game.state, seat.order)[index])


def illegal_text(game: Game) -> str:
    """A well-formed Vegas command the seat to act may not play (a number it did not roll);
    plays legal moves on until the roll misses a number."""
    from games import services

    engine = get_engine(game.game_type)
    while True:
        seat = seat_to_act(game)
        assert game.state is not None
        legal = {engine.format(c) for c in engine.legal_commands(game.state, seat.order)}
        missing = [f"place {n}" for n in range(1, 7) if f"place {n}" not in legal]
        if missing:
            return missing[0]
        services.submit_command(game=game, user=seat.user, text=sorted(legal)[0])


def seat_that_may_end_the_turn(game: Game) -> Seat:
    """Plays legal moves on (the first of each) until the seat to act may play ``end``
    (a Lords of Vegas game); that seat."""
    from games import services

    engine = get_engine(game.game_type)
    for _ in range(40):
        seat = seat_to_act(game)
        assert game.state is not None
        legal = [engine.format(c) for c in engine.legal_commands(game.state, seat.order)]
        if "end" in legal:
            return seat
        services.submit_command(game=game, user=seat.user, text=legal[0])
    raise AssertionError("no turn could end in 40 moves")


def footprint(game: Game) -> tuple[Any, ...]:
    """Everything a refused request must leave untouched."""
    game.refresh_from_db()
    return (
        Move.objects.count(),
        list(Move.objects.filter(game=game).values_list("seq", flat=True)),
        game.version,
        game.state,
        game.status,
        game.deadline,
        TradeOffer.objects.count(),
        Invitation.objects.count(),
        list(Seat.objects.filter(game=game).values_list("order", "user", "bot", "resigned")),
    )


def at_position(game: Game, position: str) -> list[str]:
    """Put a Lords of Vegas game at ``position`` (``{0}``, ``{1}``...: the seats' colours in
    order; its seed kept); the colours."""
    from games.engines.lords_of_vegas import from_position

    assert game.state is not None
    colours = list(game.state["colours"])
    state = {**from_position(position.format(*colours)), "seed": game.state["seed"]}
    Game.objects.filter(pk=game.pk).update(state=state)
    game.refresh_from_db()
    return colours
