"""Refusals worded as what happened (decision 0040, the classic play-test): a typo is an
unknown command with the closest verb, a turn waiting on another's lay-off says so, a late
lay-off answer says no bet waits, and no "reply with corrected commands" when none would
play. Every refused reply changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.engines.registry import get_engine
from games.models import Game, Move
from notifications.services import notify_game
from tests.notifications.conftest import deliver, play, reply_to, text_part

pytestmark = pytest.mark.django_db


def _classic(make_game: Any, ada: Any, bob: Any) -> Game:
    game: Any = make_game(ada, bob, game_type="lords-of-vegas", options={"edition": "classic"})
    return game


def _first_seat(game: Game) -> Any:
    """The seat the game waits on first."""
    engine: Any = get_engine(game.game_type)
    return game.seats.get(order=engine.to_act(game.state)[0])


def _turn_email(game: Game, smtp: Any, user: Any) -> Any:
    """The latest 'your turn' email to ``user`` (sent now if the game waits on them)."""
    notify_game(game_id=game.pk)
    return [m for m in smtp.wait_for(1) if m["To"] == user.email][-1]


def _answer(smtp: Any, count: int) -> str:
    return text_part(smtp.wait_for(count)[count - 1])


def _a_bet_waits_on_the_boss(game: Game, smtp: Any) -> tuple[Any, Any, Any]:
    """Play until the active player may bet at the other's casino; the boss asks to
    decide lay-offs, the bet is placed: the gambler, the boss, the gambler's turn email
    (before the bet) and the boss's (asking the decision)."""
    engine: Any = get_engine(game.game_type)
    for _ in range(200):
        game.refresh_from_db()
        assert game.state is not None
        order = engine.to_act(game.state)[0]
        bets = [c for c in engine.legal_commands(game.state, order) if c.kind == "gamble"]
        if bets:
            gambler = game.seats.get(order=order).user
            boss = game.seats.exclude(order=order).get().user
            services.submit_command(game=game.pk, user=boss, text="prefer layoff ask")
            turn = _turn_email(game, smtp, gambler)
            services.submit_command(game=game.pk, user=gambler, text=engine.format(bets[0]))
            return gambler, boss, turn
        play(game, 1)
    raise AssertionError("no bet came")


def test_a_mistyped_verb_is_an_unknown_command_with_the_closest_one(
    make_game: Any, ada: Any, bob: Any, smtp: Any
) -> None:
    game = _classic(make_game, ada, bob)
    first: Any = _first_seat(game).user
    turn = _turn_email(game, smtp, first)
    moves = Move.objects.filter(game=game).count()

    assert deliver(reply_to(turn, "construir C4 violet", sender=first.email)).startswith("refused")

    text = _answer(smtp, 2)
    assert "unknown command 'construir'; did you mean 'construire'?" in text
    assert "raise" not in text  # the classic edition's verbs only
    assert "holds no command" not in text
    assert Move.objects.filter(game=game).count() == moves


def test_ending_the_turn_while_the_boss_decides_says_the_game_waits_for_the_decision(
    make_game: Any, ada: Any, bob: Any, smtp: Any
) -> None:
    game = _classic(make_game, ada, bob)
    gambler, _boss, turn = _a_bet_waits_on_the_boss(game, smtp)
    game.refresh_from_db()
    version = game.version

    assert deliver(reply_to(turn, "end", sender=gambler.email)).startswith("refused")

    text = text_part(smtp.messages[-1])
    assert "the game is waiting for" in text and "the lay-off decision" in text
    assert "not yours" not in text
    assert "Reply to this email with your corrected commands" not in text  # (none would do)
    game.refresh_from_db()
    assert game.version == version


def test_a_late_lay_off_answer_says_no_bet_waits(
    make_game: Any, ada: Any, bob: Any, smtp: Any
) -> None:
    game = _classic(make_game, ada, bob)
    _gambler, boss, _turn = _a_bet_waits_on_the_boss(game, smtp)
    turn = _turn_email(game, smtp, boss)
    services.submit_command(game=game.pk, user=boss, text="layoff no")  # (on the web)
    game.refresh_from_db()
    version = game.version

    assert deliver(reply_to(turn, "layoff yes", sender=boss.email)).startswith("refused")

    text = text_part(smtp.messages[-1])
    assert "no bet at your casinos waits for your lay-off decision" in text
    assert "turn" not in text.split("was not played:")[1].split("Nothing was changed")[0]
    game.refresh_from_db()
    assert game.version == version


def test_a_refusal_with_a_message_posted_does_not_say_nothing_changed(
    make_game: Any, ada: Any, bob: Any, smtp: Any
) -> None:
    game = _classic(make_game, ada, bob)
    first: Any = _first_seat(game).user
    turn = _turn_email(game, smtp, first)

    deliver(reply_to(turn, "say: hello all\nreorganize A1", sender=first.email))

    answer = smtp.wait_for(2)[1]
    text = text_part(answer)
    assert "Nothing was changed" not in text and "nothing was changed" not in answer["Subject"]
    assert "No command was played; your messages were posted (below)." in text
    assert "hello all" in text.split("Your messages, posted")[1]


def test_the_boss_asked_to_lay_off_gets_a_decision_email_not_your_turn(
    make_game: Any, ada: Any, bob: Any, smtp: Any
) -> None:
    game = _classic(make_game, ada, bob)
    gambler, boss, _turn = _a_bet_waits_on_the_boss(game, smtp)
    mine = game.seats.get(user=gambler)

    message = _turn_email(game, smtp, boss)

    label = f"{mine.colour.capitalize()} ({gambler.name})"
    assert message["Subject"].endswith(f"Your decision: lay off half of {label}'s bet?")
    text = text_part(message)
    assert f"waits for your decision: lay off half of {label}'s bet to the bank?" in text
    assert "It is your turn" not in text


def test_a_trade_in_a_turn_email_is_sent_to_the_game_pages_offers(
    make_game: Any, ada: Any, bob: Any, smtp: Any
) -> None:
    from games.models import TradeOffer

    game = _classic(make_game, ada, bob)
    first: Any = _first_seat(game)
    other = game.seats.exclude(pk=first.pk).get()
    turn = _turn_email(game, smtp, first.user)
    line = f"échanger {first.colour} paie {other.colour} 1"
    version = Game.objects.get(pk=game.pk).version

    assert deliver(reply_to(turn, line, sender=first.user.email)).startswith("refused")

    text = text_part(smtp.messages[-1])
    assert f"'{line}' is a trade: propose it on the game page, under Trade offers" in text
    assert f"/games/{game.pk}/trades/new/" in text
    assert not TradeOffer.objects.filter(game=game).exists()
    assert Game.objects.get(pk=game.pk).version == version
