"""'Your turn' and 'game over' emails, as they arrive at a real SMTP server."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.conf import settings

from games.models import Game, Seat
from notifications.addresses import parse_reply_address
from notifications.models import EmailPreference, Notification
from notifications.services import notify_game
from tests.notifications.conftest import html_part, play, text_part, whole

pytestmark = pytest.mark.django_db


def _waiting_user(game: Game):
    seat = game.seats.select_related("user").get(to_act=True)
    return seat


def test_it_sends_your_turn_to_the_first_player_when_the_game_starts(make_game, ada, bob, smtp):
    game = make_game(ada, bob)
    seat = _waiting_user(game)
    assert notify_game(game_id=game.pk) == 1
    [message] = smtp.wait_for(1)
    assert message["To"] == seat.user.email
    other = bob if seat.user == ada else ada
    assert message["Subject"].strip() == f"[Lords #{game.pk}] Your turn — Vegas with {other.name}"
    text = text_part(message)
    assert f"It is your turn in Vegas #{game.pk}." in text
    assert "So far:\n  - Round 1 of 4 begins" in text  # what happened: the setup's events
    assert "Casino" in text and "(you)" in text  # the board, from the player's seat
    assert f"{settings.SITE_URL}/games/{game.pk}/" in text
    assert re.search(r"^  place \d(\|\d)*$", text, re.MULTILINE)  # the commands (one line)
    assert "reply to this email" in text
    html = html_part(message)
    assert "<pre" in html and f"{settings.SITE_URL}/games/{game.pk}/" in html


def test_its_headers_thread_answer_and_unsubscribe(make_game, ada, bob, smtp):
    game = make_game(ada, bob)
    seat = _waiting_user(game)
    notify_game(game_id=game.pk)
    play(game, 1)
    notify_game(game_id=game.pk)
    first, second = smtp.wait_for(2)
    for message in (first, second):
        assert message["In-Reply-To"] == f"<game-{game.pk}@localhost>"
        assert message["References"] == f"<game-{game.pk}@localhost>"
        assert re.fullmatch(r"<[^<>@]+@localhost>", message["Message-ID"])
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        unsubscribe = message["List-Unsubscribe"].strip()  # (folded after the colon)
        assert unsubscribe.startswith(f"<{settings.SITE_URL}/notifications/unsubscribe/")
    assert first["Message-ID"] != second["Message-ID"]
    assert parse_reply_address(first["Reply-To"]) == (game.pk, seat.pk)
    second_seat = Seat.objects.get(game=game, user__email=second["To"])
    assert second_seat != seat
    assert parse_reply_address(second["Reply-To"]) == (game.pk, second_seat.pk)
    sent = Notification.objects.get(user=seat.user, game=game)
    assert sent.status == Notification.Status.SENT
    assert sent.message_id == first["Message-ID"]


def test_it_writes_in_the_players_language_and_time_zone(make_user, make_game, smtp):
    ada = make_user("ada", language="fr", time_zone="Europe/Paris")
    bob = make_user("bob", language="en", time_zone="America/New_York")
    game = make_game(ada, bob)
    deadline = datetime(2030, 11, 26, 17, 0, tzinfo=UTC)
    Game.objects.filter(pk=game.pk).update(deadline=deadline)
    Seat.objects.filter(game=game).update(to_act=False)
    play(game, 0)
    for user in (ada, bob):
        seat = game.seats.get(user=user)
        from notifications import services

        services.deliver(game, services._seats(game), [services.Notice(seat, "turn", "test")])
    by_to = {m["To"]: text_part(m) for m in smtp.wait_for(2)}
    # Each as their language writes dates (no English month in French), in their zone,
    # the day written out (decision 0040: "d'ici le jeu." read as "by the game").
    assert "avant le mardi 26 nov. à 18:00 (Europe/Paris)" in by_to[ada.email]
    assert "Reply by Tuesday 26 Nov, 12:00 (America/New_York)" in by_to[bob.email]


def test_nothing_goes_to_bots_or_to_players_who_turned_emails_off(make_game, ada, bob, smtp):
    game = make_game(ada, bob, bots=2)
    EmailPreference.objects.create(user=ada, turn_emails=False)
    play(game, None)
    notify_game(game_id=game.pk)
    recipients = [m["To"] for m in smtp.wait_for(1, timeout=2)]
    assert ada.email not in recipients
    assert set(recipients) <= {bob.email}
    assert not Notification.objects.filter(user=ada).exists()


def test_a_resigned_player_gets_no_turn_email_but_the_result(make_game, ada, bob, cy, smtp):
    from games import services

    game = make_game(ada, bob, cy)
    services.resign(game=game, user=cy)
    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE:
        notify_game(game_id=game.pk)
        play(game, 1)
    notify_game(game_id=game.pk)
    turns = [m for m in smtp.messages if "Your turn" in m["Subject"]]
    assert turns and cy.email not in {m["To"] for m in turns}
    overs = [m for m in smtp.messages if "Game over" in m["Subject"]]
    assert sorted(m["To"] for m in overs) == sorted([ada.email, bob.email, cy.email])


def test_it_sends_the_game_over_email_with_the_placings(make_game, ada, bob, smtp):
    game = make_game(ada, bob, bots=1)
    play(game, None)
    assert game.status == Game.Status.FINISHED
    assert notify_game(game_id=game.pk) == 2
    messages = smtp.wait_for(2)
    assert sorted(m["To"] for m in messages) == [ada.email, bob.email]
    assert not notify_game(game_id=game.pk)  # once
    names = {s.order: s.name for s in game.seats.select_related("user")}
    for message in messages:
        assert message["Subject"].strip().startswith(f"[Lords #{game.pk}] Game over — Vegas with ")
        text = text_part(message)
        for placing in game.outcome["placings"]:
            assert f"  {placing['rank']}. {names[placing['seat']]}" in text
        assert "The game is over" in text  # the last events
        assert "Your commands" not in text


def test_a_player_still_on_the_same_decision_is_not_told_twice(make_game, ada, bob, smtp):
    game = make_game(ada, bob)
    notify_game(game_id=game.pk)
    seat = _waiting_user(game)
    # The game moves on without that seat having moved (as when another player answers a
    # decision of their own): no second 'your turn' for the same decision.
    Game.objects.filter(pk=game.pk).update(version=game.version + 1)
    from games.models import Move

    Move.objects.create(game=game, seq=game.version + 1, seat=None, text="", source="system")
    assert notify_game(game_id=game.pk) == 0
    assert len(smtp.wait_for(1)) == 1
    assert Notification.objects.filter(user=seat.user).count() == 1


def _leaks(text: str, state: dict) -> list[str]:
    found = []
    if state["seed"].lower() in text.lower():
        found.append("the seed")
    run = state["pile"][:6]
    if len(run) == 6:
        for encoded in (
            ", ".join(f"${v:,}" for v in run),
            ", ".join(str(v) for v in run),
            ",".join(str(v) for v in run),
        ):
            if encoded in text:
                found.append(f"the pile order as {encoded!r}")
    return found


def test_no_email_of_a_whole_game_gives_hidden_information_away(
    make_game, ada, bob, smtp, django_capture_on_commit_callbacks
):
    game = make_game(ada, bob, bots=1)
    notify_game(game_id=game.pk)
    leaks = []
    seen = 0
    while game.status == Game.Status.ACTIVE:
        secret = dict(game.state)
        with django_capture_on_commit_callbacks(execute=True):  # the hook, task eager
            play(game, 1)
        for message in smtp.wait_for(seen + 1, timeout=5)[seen:]:
            leaks += _leaks(whole(message), secret)
        seen = len(smtp.messages)
    assert game.status == Game.Status.FINISHED
    assert any("Game over" in m["Subject"] for m in smtp.messages)
    final = dict(game.state)
    leaks += [leak for m in smtp.messages for leak in _leaks(whole(m), final)]
    assert seen > 10
    assert not leaks


def _turns_to(messages, address: str) -> list:
    return [m for m in messages if m.to == [address] and "Your turn" in m.subject]


def test_lords_of_vegas_no_new_your_turn_after_the_players_own_commands(
    make_game, ada, bob, django_capture_on_commit_callbacks
):
    """The active player builds (web or API) and still has to act: the same turn, no new
    'your turn' email (nor a new "Reply by"); after `end`, the next player gets one."""
    from django.core import mail

    from games import services
    from games.engines.registry import get_engine

    game = make_game(ada, bob, game_type="lords-of-vegas")
    engine = get_engine(game.game_type)
    assert notify_game(game_id=game.pk) == 1
    active = _waiting_user(game)
    other = game.seats.select_related("user").exclude(pk=active.pk).get()
    legal = [engine.format(c) for c in engine.legal_commands(game.state, active.order)]
    build = next(c for c in legal if c.startswith("build "))

    with django_capture_on_commit_callbacks(execute=True):  # the hook runs, task eager
        services.submit_command(game=game.pk, user=active.user, text=build, source="web")
    game.refresh_from_db()
    assert active.order in engine.to_act(game.state)  # still acting, in the same turn
    assert len(_turns_to(mail.outbox, active.user.email)) == 1

    with django_capture_on_commit_callbacks(execute=True):
        services.submit_command(game=game.pk, user=active.user, text="end", source="api")
    game.refresh_from_db()
    assert engine.to_act(game.state) == [other.order]
    assert len(_turns_to(mail.outbox, active.user.email)) == 1
    assert len(_turns_to(mail.outbox, other.user.email)) == 1


def test_a_failed_your_turn_is_sent_when_the_game_moves_on_while_the_seat_waits(
    make_game, ada, bob, settings, smtp
):
    from games.models import Move
    from notifications import services

    game = make_game(ada, bob)
    seat = _waiting_user(game)
    port = settings.EMAIL_PORT
    settings.EMAIL_PORT = 9  # nothing listens there: the email fails
    assert services.notify_game(game_id=game.pk) == 0
    assert Notification.objects.get().status == Notification.Status.FAILED
    settings.EMAIL_PORT = port
    # The game moves on while the seat still waits (as when another player acts on a
    # decision of their own): the failed email told nobody, so the seat is told now.
    Game.objects.filter(pk=game.pk).update(version=game.version + 1)
    Move.objects.create(game=game, seq=game.version + 1, seat=None, text="", source="system")
    assert notify_game(game_id=game.pk) == 1
    [message] = smtp.wait_for(1)
    assert message["To"] == seat.user.email
    assert "Your turn" in message["Subject"]


def _time_out(game: Game) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from games.services.timeouts import apply_timeout

    now = timezone.now()
    Game.objects.filter(pk=game.pk).update(deadline=now - timedelta(minutes=1))
    assert apply_timeout(game=game.pk, now=now).applied
    game.refresh_from_db()


def test_after_a_timeout_the_next_your_turn_says_what_the_server_played(make_game, ada, bob, smtp):
    from games.models import Move

    game = make_game(ada, bob)
    assert notify_game(game_id=game.pk) == 1
    late = _waiting_user(game)
    _time_out(game)
    played = Move.objects.get(game=game, seat=late, source="system")
    play(game, 1)  # the other player moves: the late player's turn again
    assert Seat.objects.get(pk=late.pk).to_act
    assert notify_game(game_id=game.pk) == 1
    mine = [m for m in smtp.wait_for(2) if m["To"] == late.user.email]
    assert len(mine) == 2
    text = text_part(mine[-1])
    limit = game.max_timeouts
    assert (
        f"You missed the deadline: the server played `{played.text}` for you "
        f"(1 of {limit} in a row before a forfeit)." in text
    ), text
    assert "So far:" in text  # the player never moved: everything from the start
    assert "You missed the deadline" in html_part(mine[-1])


def test_the_others_are_told_the_server_played_for_a_late_player(make_game, ada, bob, smtp):
    """Found by QA: what the server played at a missed deadline read, in the others' emails,
    as the late player's own move ("Dee places 5 dice in casino 2.")."""
    from games import selectors
    from games.models import Move

    game = make_game(ada, bob)
    late = _waiting_user(game)
    _time_out(game)
    played = Move.objects.get(game=game, seat=late, source="system")
    [other] = Seat.objects.select_related("user").filter(game=game, to_act=True)
    assert other.pk != late.pk and other.user is not None
    [move] = selectors.moves_since(game=game, since=played.seq - 1, user=other.user)[:1]
    sentence = move["described"][0]
    notify_game(game_id=game.pk)
    [mail] = [m for m in smtp.wait_for(1) if m["To"] == other.user.email]
    said = f"{late.name} missed the deadline: the server played for them."
    for part in (text_part(mail), html_part(mail)):
        assert said in part, part
        assert part.index(said) < part.index(sentence)


def test_a_forfeit_is_announced_to_the_player_and_to_the_others(make_game, ada, bob, cy, smtp):
    game = make_game(ada, bob, cy)
    Game.objects.filter(pk=game.pk).update(max_timeouts=1)
    late = _waiting_user(game)
    _time_out(game)
    assert Seat.objects.get(pk=late.pk).resigned
    notify_game(game_id=game.pk)
    by_to = {m["To"]: m for m in smtp.wait_for(2)}
    forfeit = by_to[late.user.email]
    assert "You forfeited" in forfeit["Subject"]
    text = text_part(forfeit)
    assert "You missed the deadline: the server played `place" in text
    assert "you forfeited, and a bot plays your seat to the end" in text
    [waiting] = Seat.objects.select_related("user").filter(game=game, to_act=True)
    assert waiting.user is not None and waiting.pk != late.pk
    told = text_part(by_to[waiting.user.email])
    assert f"{late.name} missed the deadline and forfeited: a bot plays the seat on." in told


def test_the_turn_email_lists_the_lots_changed_since_the_players_last_move(
    make_game, ada, bob, smtp
):
    from games import selectors, services
    from games.engines.registry import get_engine

    game = make_game(ada, bob, game_type="lords-of-vegas")
    engine = get_engine("lords-of-vegas")
    changed: list[str] = []
    for _step in range(80):  # builds where it can, until the board changed for the waiting
        game.refresh_from_db()
        seat = game.seats.select_related("user").get(order=engine.to_act(game.state)[0])
        legal = engine.legal_commands(game.state, seat.order)
        built = [c for c in legal if engine.format(c).startswith(("build", "sprawl"))]
        text = engine.format((built or legal)[0])
        services.submit_command(game=game.pk, user=seat.user, text=text)
        game.refresh_from_db()
        waiting = game.seats.select_related("user").get(to_act=True).user
        changed = selectors.changed_lots(game=game, user=waiting)
        if changed and waiting != seat.user:
            break
    assert changed  # the other player built while they waited
    Notification.objects.filter(game=game).delete()
    notify_game(game_id=game.pk)
    [message] = [m for m in smtp.wait_for(1) if m["To"] == waiting.email]
    assert f"Lots changed since your last move: {', '.join(changed)}" in text_part(message)


@pytest.mark.parametrize("read_at_once", [1, 2, 32])
def test_every_missed_deadline_since_the_last_own_move_is_listed(
    make_game, ada, bob, smtp, monkeypatch, read_at_once
):
    """The player's last own move and what the server played for them since are read
    from the seat's latest moves, a few at a time (one query in the usual case): a longer
    run of misses than one read still lists them all, and nothing from before the
    player's own move."""
    from games.models import Move
    from notifications import services

    monkeypatch.setattr(services, "SEAT_MOVES_READ", read_at_once)
    game = make_game(ada, bob)
    Game.objects.filter(pk=game.pk).update(max_timeouts=5)
    late = _waiting_user(game)

    def until_late_acts() -> None:
        while not Seat.objects.get(pk=late.pk).to_act:
            play(game, 1)  # (the other player)

    _time_out(game)  # (before the player's own move: not listed)
    until_late_acts()
    play(game, 1)  # the late player's own move
    for _ in range(2):
        until_late_acts()
        _time_out(game)
    until_late_acts()
    own = Move.objects.filter(seat=late).exclude(source="system").latest("seq")
    played = list(
        Move.objects.filter(seat=late, source="system", seq__gt=own.seq)
        .order_by("seq")
        .values_list("text", flat=True)
    )
    assert len(played) == 2
    Notification.objects.all().delete()
    assert notify_game(game_id=game.pk) == 1
    [message] = smtp.wait_for(1)
    text = " ".join(text_part(message).split())
    assert f"the server played `{played[0]}`; `{played[1]}` for you (2 of 5 in a row" in text
