"""A French player's emails in a classic game, as the play-test read them (decision 0040):
the commands in their words, one line per verb, ``fin`` always shown."""

from __future__ import annotations

from typing import Any

import pytest

from games.engines.registry import get_engine
from games.models import Game
from notifications.services import notify_game
from tests.notifications.conftest import command_lines, play, text_part

pytestmark = pytest.mark.django_db


def _french_classic_game(make_game: Any, make_user: Any) -> Game:
    ada = make_user("ada", language="fr")
    bob = make_user("bob", language="fr")
    game: Any = make_game(ada, bob, game_type="lords-of-vegas", options={"edition": "classic"})
    return game


def _until_a_bet(game: Game) -> None:
    """Play the first legal command until the seat to act may bet (a casino stands)."""
    engine: Any = get_engine(game.game_type)
    for _ in range(200):
        game.refresh_from_db()
        assert game.state is not None
        order = engine.to_act(game.state)[0]
        if any(c.kind == "gamble" for c in engine.legal_commands(game.state, order)):
            return
        play(game, 1)
    raise AssertionError("no bet came")


def test_a_french_turn_email_lists_one_line_per_verb_in_french_with_fin(
    make_game: Any, make_user: Any, smtp: Any
) -> None:
    game = _french_classic_game(make_game, make_user)
    _until_a_bet(game)
    notify_game(game_id=game.pk)
    message = smtp.wait_for(1)[-1]
    text = text_part(message)
    lines = command_lines(message, "Tes commandes\u00a0:")
    verbs = [line.split(" ")[0] for line in lines]
    assert len(verbs) == len(set(verbs))  # one line per verb
    assert "fin" in verbs and "parier" in verbs
    bet = next(line for line in lines if line.startswith("parier "))
    assert "1-" in bet and bet.count("parier") == 1  # the amounts as a range
    assert not any(line.startswith(("build", "gamble", "end")) for line in lines)
    assert "... et " not in text.split("Tes commandes")[1]  # nothing hidden


def test_an_english_turn_email_offers_commands_that_play(
    make_game: Any, make_user: Any, smtp: Any
) -> None:
    ada, bob = make_user("ada"), make_user("bob")
    game = make_game(ada, bob, game_type="lords-of-vegas", options={"edition": "classic"})
    _until_a_bet(game)
    notify_game(game_id=game.pk)
    message = smtp.wait_for(1)[-1]
    lines = command_lines(message)
    assert lines[-1] == "end"
    assert sum(line.startswith("gamble ") for line in lines) == 1
    assert "(a|b: write a or b; 1-10: an amount from 1 to 10)" in text_part(message)


def test_the_turn_email_writes_the_deadlines_day_out(
    make_game: Any, make_user: Any, smtp: Any
) -> None:
    """ "Réponds d'ici le jeu. 26 nov." read as "by the game": the day is written out."""
    ada, bob = make_user("ada"), make_user("bob")
    game = make_game(ada, bob)
    notify_game(game_id=game.pk)
    text = text_part(smtp.wait_for(1)[-1])
    assert game.deadline is not None
    day = game.deadline.strftime("%A %-d %b, %H:%M")  # (UTC, English: the test's reader)
    assert f"Reply by {day} (UTC)." in text


def test_an_email_keeps_the_readers_own_lines_and_the_scores_however_many_events() -> None:
    """Cy's confirmation hid his own 5 points behind "... and 1 more event": 40 payouts to
    the others, then his points, his money and another's score are all kept."""
    from notifications.services import kept_events

    told: list[tuple[Any, str]] = [
        ({"type": "paid", "seat": 1, "amount": n}, f"Bob gets {n}") for n in range(40)
    ]
    told.insert(3, ({"type": "scored", "seat": 2}, "Cy scores 5 points"))
    told.insert(7, ({"type": "paid", "seat": 2, "amount": 9}, "Cy gets 9"))
    told.insert(9, ({"type": "scored", "seat": 0}, "Ada scores 1 point"))
    told.append((None, "Dee missed the deadline"))

    first, left = kept_events(told, 2, newest=False, limit=15)
    assert {"Cy scores 5 points", "Cy gets 9", "Ada scores 1 point"} <= set(first)
    assert len(first) == 15 and left == len(told) - 15
    assert first.index("Cy scores 5 points") < first.index("Cy gets 9")  # in their order
    last, _left = kept_events(told, 2, newest=True, limit=15)
    assert last[-1] == "Dee missed the deadline" and "Cy scores 5 points" in last


def test_a_classic_games_email_writes_tiles_without_a_height(
    make_game: Any, make_user: Any, smtp: Any
) -> None:
    """The classic edition has no risers: "Al1B4" and "Sp2R5 = Sphinx tile, 2 high" in
    its emails spoke of heights its book does not have."""
    import re

    ada, bob = make_user("ada"), make_user("bob")
    game = make_game(ada, bob, game_type="lords-of-vegas", options={"edition": "classic"})
    _until_a_bet(game)  # (tiles stand)
    notify_game(game_id=game.pk)
    text = text_part(smtp.wait_for(1)[-1])
    assert re.search(r"\b[A-F]\d+ (Al|Sp|Ve|Ti|Pi)[KBGPRY]\d", text)
    assert not re.search(r"\b[A-F]\d+ (Al|Sp|Ve|Ti|Pi)\d", text)
    assert "SpR5 = Sphinx tile, Red's die showing 5 (-- = no die)" in text
    assert "high" not in text


def test_a_french_players_commands_come_back_in_their_words(
    make_game: Any, make_user: Any, smtp: Any
) -> None:
    """ "Joué : build D6 sphinx; end" answered "construire D6 or / fin": the answer's
    subject says the moves in the player's words, a refusal quotes their own line."""
    from tests.notifications.conftest import deliver, reply_to

    game = _french_classic_game(make_game, make_user)
    engine: Any = get_engine(game.game_type)
    order = engine.to_act(game.state)[0]
    seat: Any = game.seats.get(order=order)
    build = next(c for c in engine.legal_commands(game.state, order) if c.kind == "build")
    notify_game(game_id=game.pk)
    turn = smtp.wait_for(1)[-1]
    markers = game.state["markers"] if game.state else {}
    taken = next(lot for lot in ("A1", "A2", "A3", "C1") if lot not in markers)
    version = Game.objects.get(pk=game.pk).version

    refused = deliver(reply_to(turn, f"construire {taken} or", sender=seat.user.email))

    assert refused.startswith("refused")
    text = text_part(smtp.messages[-1])
    assert f"'construire {taken} or'" in text and f"'build {taken} sphinx'" not in text
    assert Game.objects.get(pk=game.pk).version == version

    line = f"construire {build.lot} or"
    assert deliver(reply_to(turn, line, sender=seat.user.email)).startswith("played")
    subject = " ".join(smtp.messages[-1]["Subject"].split())
    assert f"construire {build.lot} sphinx" in subject and "build" not in subject
