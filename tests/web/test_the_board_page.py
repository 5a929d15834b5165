"""The board page (/games/<id>/): who may see it, and what it shows of each game."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import selectors, services
from games.services import talk, tools
from tests.web.helpers import actor, page_text

pytestmark = pytest.mark.django_db


def test_a_private_game_needs_a_sign_in(client: Any, ada: Any, bob: Any, make_game: Any) -> None:
    """(A public game's page is open to a signed-out visitor: tests/web/test_a_visitor.py.)"""
    game = make_game(ada, bob, private=True)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_it_shows_a_lords_of_vegas_game_to_a_seated_player(
    client: Any, ada: Any, bob: Any, make_game: Any
) -> None:
    game = make_game(ada, bob, game_type="lords-of-vegas", options={"edition": "2024"})
    client.force_login(ada)
    html = client.get(f"/games/{game.pk}/").content.decode()
    text = page_text(html)
    assert f"Lords of Vegas #{game.pk}" in text
    assert "2024" in text and "active" in text
    assert len(re.findall(r'role="listitem" class="lot ', html)) == 48
    assert 'class="lot r1 c1 ' in html  # A1 at the top left, by the board data
    assert "Lot A3, on the Strip: empty, price $15m, die 5" in text  # its text alternative
    assert "The board as text" in text and '<pre class="text-board">' in html
    assert "The board as a list" in text
    assert "Recent moves" in text and "system" in text  # the setup, from the log
    me = "Yours" if actor(game) == ada else actor(game).name
    assert me in text.split("Turn", 1)[1]


def test_a_lot_s_price_is_written_as_the_reader_s_language_writes_money(
    client: Any, ada: Any, bob: Any, make_game: Any
) -> None:
    """The cells said "$15m" on a French page whose every other sum says "15 M$" (the
    French rule book's way), and on an Italian one whose sums say "$15M"."""
    game = make_game(ada, bob, game_type="lords-of-vegas", options={"edition": "2024"})
    ada.language = "fr"
    ada.save(update_fields=["language"])
    client.force_login(ada)
    html = client.get(f"/games/{game.pk}/").content.decode()
    prices = re.findall(r'<span class="lot-price">([^<]*)</span>', html)
    assert len(prices) == 48 and prices[2] == "15\xa0M$"  # A3, as the French catalogue has it
    assert not [p for p in prices if p.startswith("$")]
    ada.language = "it"
    ada.save(update_fields=["language"])
    html = client.get(f"/games/{game.pk}/").content.decode()
    prices = re.findall(r'<span class="lot-price">([^<]*)</span>', html)
    assert prices[2] == "$15M"  # as the Italian catalogue has it


def test_it_shows_a_vegas_game_with_the_money_of_the_viewer_only(
    client: Any, ada: Any, bob: Any, make_game: Any
) -> None:
    game = make_game(ada, bob, game_type="vegas")
    client.force_login(ada)
    text = page_text(client.get(f"/games/{game.pk}/").content.decode())
    for number in range(1, 7):
        assert f"Casino {number}" in text
    assert "Notes at stake (paid highest first)" in text
    assert "hidden" in text  # bob's money
    assert "The pile holds" in text


def test_it_shows_an_open_public_game_to_a_spectator(
    client: Any, ada: Any, cy: Any, make_game: Any
) -> None:
    game = make_game(ada, start=False, seats=3)
    client.force_login(cy)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    text = page_text(response.content.decode())
    assert "Waiting for players: 1 of 3 seats taken" in text
    assert "Join this game" in text
    assert 'id="move-form"' not in response.content.decode()


def test_it_offers_start_and_join_only_to_whom_the_services_allow(
    client: Any, ada: Any, bob: Any, cy: Any, make_game: Any
) -> None:
    game = make_game(ada, bob, start=False, seats=2)  # full
    client.force_login(bob)  # seated, not the creator
    text = page_text(client.get(f"/games/{game.pk}/").content.decode())
    assert "Start the game" not in text and "The game's creator starts it" in text
    client.force_login(ada)
    assert "Start the game" in page_text(client.get(f"/games/{game.pk}/").content.decode())
    client.force_login(cy)  # a full game: nothing to join
    assert "Join this game" not in page_text(client.get(f"/games/{game.pk}/").content.decode())


def test_a_spectator_of_a_running_game_gets_no_form(
    client: Any, ada: Any, bob: Any, cy: Any, make_game: Any
) -> None:
    game = make_game(ada, bob, game_type="lords-of-vegas")
    client.force_login(cy)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    assert 'id="move-form"' not in response.content.decode()


def test_it_refuses_someone_else_s_private_game(
    client: Any, ada: Any, bob: Any, cy: Any, make_game: Any
) -> None:
    game = make_game(ada, bob, private=True)
    client.force_login(cy)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 403
    text = page_text(response.content.decode())
    assert "This game is not available to you" in text
    assert f"Game #{game.pk} is private" in text
    assert "Casino" not in text


def test_it_says_so_for_a_game_that_does_not_exist(client: Any, ada: Any) -> None:
    client.force_login(ada)
    response = client.get("/games/999999/")
    assert response.status_code == 404
    assert "There is no game #999999" in page_text(response.content.decode())


def test_after_the_end_it_shows_the_placings_and_the_seed(
    client: Any, ada: Any, bob: Any, make_game: Any
) -> None:
    game = make_game(ada, bob, game_type="lords-of-vegas")
    services.resign(game=game, user=bob)
    game.refresh_from_db()
    client.force_login(ada)
    html = client.get(f"/games/{game.pk}/").content.decode()
    text = page_text(html)
    assert "Result" in text and "finished" in text
    result = text.split("Result", 1)[1]
    assert "1st ada" in result and "2nd bob" in result
    assert result.index("1st ada") < result.index("2nd bob")
    assert game.seed in html
    assert f'href="/api/v1/games/{game.pk}/verify/"' in html
    assert 'id="move-form"' not in html


def test_the_deadline_is_in_the_viewer_s_time_zone(
    client: Any, make_user: Any, bob: Any, make_game: Any
) -> None:
    eve = make_user("eve", time_zone="Asia/Tokyo")
    game = make_game(eve, bob, game_type="vegas")
    assert game.deadline is not None
    client.force_login(eve)
    text = page_text(client.get(f"/games/{game.pk}/").content.decode())
    tokyo = game.deadline.astimezone(__import__("zoneinfo").ZoneInfo("Asia/Tokyo"))
    assert tokyo.strftime("%H:%M") + " (Asia/Tokyo)" in text


def test_it_shows_the_deadline_policy_missed_turns_and_who_is_away(
    client: Any, ada: Any, bob: Any, make_game: Any
) -> None:
    game = make_game(ada, bob)
    seat = game.seats.get(user=bob)
    seat.timeouts = 2
    seat.save(update_fields=["timeouts"])
    bob.away_until = timezone.now() + timedelta(days=3)
    bob.save(update_fields=["away_until"])
    client.force_login(ada)
    text = page_text(client.get(f"/games/{game.pk}/").content.decode())
    assert "forfeit after 3 in a row" in text
    assert "2 missed turns" in text
    assert "away until" in text


def test_the_page_reads_its_game_once(
    client: Any, ada: Any, bob: Any, make_game: Any, settings: Any
) -> None:
    """A board page drawn afresh (its caches off) for a seated player reads the game's row
    once, for the page itself: the chat and notes panels read the viewer's seat and what
    they show, the game tools ask whether the viewer may use them without it. (Before:
    five reads of the row, two of them for the chat's colour names.)"""
    settings.BOARD_PAGE_CACHE = False
    game = make_game(ada, bob)
    talk.say(game=game, user=bob, text="Hello Ada")
    talk.save_note(game=game, user=ada, text="Bob bluffs")
    client.force_login(ada)
    with CaptureQueriesContext(connection) as seen:
        html = client.get(f"/games/{game.pk}/").content.decode()
    text = page_text(html)
    assert "Hello Ada" in text and "Bob bluffs" in html
    assert "Game tools" not in text
    # (the "your next game" link's query names this game only to leave it out: NOT (...))
    of_this_game = re.compile(rf'(?<!NOT \()"games_(game"\."id"|seat"\."game_id") = {game.pk}\b')
    reads = [
        q["sql"]
        for q in seen.captured_queries
        if '"games_game"' in q["sql"] and of_this_game.search(q["sql"])
    ]
    assert len(reads) == 1, reads
    # the viewer's seat, for the chat and the notes: read once
    seat_reads = [
        q["sql"]
        for q in seen.captured_queries
        if q["sql"].startswith('SELECT "games_seat"."id"')
        and f'"games_seat"."game_id" = {game.pk}' in q["sql"]
        and f'"games_seat"."user_id" = {ada.pk}' in q["sql"]
    ]
    assert len(seat_reads) == 1, seat_reads


def test_the_game_tools_come_from_the_page_s_game(
    client: Any, ada: Any, bob: Any, cy: Any, make_game: Any, settings: Any
) -> None:
    """Staff see the game tools with the seats to replace and whether the game is paused,
    from the game the page read: its row is read once for them too (it was read again)."""
    settings.BOARD_PAGE_CACHE = False
    game = make_game(ada, bob)
    cy.is_staff = True
    cy.save(update_fields=["is_staff"])
    client.force_login(cy)
    with CaptureQueriesContext(connection) as seen:
        html = client.get(f"/games/{game.pk}/").content.decode()
    text = page_text(html)
    assert "Game tools" in text and "This game is paused" not in text
    assert "ada" in text.lower() and "bob" in text.lower()
    of_this_game = re.compile(rf'(?<!NOT \()"games_game"\."id" = {game.pk}\b')
    reads = [q["sql"] for q in seen.captured_queries if of_this_game.search(q["sql"])]
    assert len(reads) == 1, reads
    tools.pause_game(game=game, by=cy, why="a dispute", authorized=True)
    assert "This game is paused" in page_text(client.get(f"/games/{game.pk}/").content.decode())


@pytest.mark.parametrize(
    ("language", "rolled", "white"),
    [("fr", "a obtenu", "aux dés blancs"), ("it", "ha tirato", "bianchi")],
)
def test_a_roll_with_neutral_dice_is_read_out_in_the_reader_s_language(
    client: Any, ada: Any, bob: Any, make_game: Any, language: str, rolled: str, white: str
) -> None:
    """The screen reader's text of the roll said "2 2 4 + white 2 5" on French and Italian
    pages: it is now the game's own sentence for the roll, in the reader's language."""
    game = make_game(ada, bob, game_type="vegas", options={"variant": "neutral"})
    reader = actor(game)
    reader.language = language
    reader.save(update_fields=["language"])
    client.force_login(reader)
    html = client.get(f"/games/{game.pk}/").content.decode()
    roll = html.split('<p class="roll">', 1)[1].split("</p>", 1)[0]
    said = page_text(roll.split('<span class="sr-only">', 1)[1].split("</span>", 1)[0])
    assert 'class="die colour-white"' in roll, "the neutral variant rolls white dice"
    assert rolled in said and white in said, said
    assert "white" not in said


def test_the_setup_shows_in_the_log_once_the_game_starts(
    client: Any, ada: Any, bob: Any, make_game: Any
) -> None:
    """The recent moves drawn while the game was open ("Nothing has happened yet") were
    kept for the started game, at the same version 0: its setup stayed hidden until the
    first move."""
    game = make_game(ada, bob, start=False, seats=2, game_type="lords-of-vegas")
    client.force_login(ada)
    assert "Nothing has happened yet" in page_text(
        client.get(f"/games/{game.pk}/").content.decode()
    )
    services.start_game(game=game, by=ada, keep_order=True)  # (the same names, in order)
    text = page_text(client.get(f"/games/{game.pk}/").content.decode())
    assert "Nothing has happened yet" not in text and "move 0" in text


@pytest.mark.parametrize(("edition", "raises"), [("2024", True), ("classic", False)])
def test_the_turn_steps_say_the_book_s_rules(
    client: Any, ada: Any, bob: Any, make_game: Any, edition: str, raises: bool
) -> None:
    """The steps said casinos pay their bosses (they pay each die's owner; the boss
    scores), listed trading as an action (it is not) and left out the 2024 raise."""
    game = make_game(ada, bob, game_type="lords-of-vegas", options={"edition": edition})
    client.force_login(ada)
    page = client.get(f"/games/{game.pk}/").content.decode()
    steps = re.search(r'<div class="turn-steps.*?</div>', page, re.S)
    assert steps is not None
    text = page_text(steps.group(0))
    assert "pay their dice's owners" in text and "Their bosses score" in text
    assert ("reorganize, raise, gamble" in text) is raises
    assert "gamble, then end the turn" in text and "Trades are not actions" in text


def _log_entries(html: str) -> dict[int, bool]:
    """Each log entry's move number, and whether what happened in it is folded."""
    log = html[html.index('id="log"') :]
    log = log[: log.index("</ol>")]
    entries = re.split(r'<li value="(\d+)">', log)[1:]
    return {
        int(seq): 'class="folded"' in body
        for seq, body in zip(entries[::2], entries[1::2], strict=True)
    }


def test_the_log_folds_what_the_reader_has_seen(
    client: Any, ada: Any, bob: Any, make_game: Any, make_user: Any
) -> None:
    """A late game's payouts made a phone's page 24,000 px long. What happened since the
    reader's own latest move is written out; their move and those before are folded (a tap
    opens them), and the newest move never is."""
    from tests.web.play import play

    game = play(make_game(ada, bob, game_type="lords-of-vegas"), moves=12)
    last = {user: selectors.last_move_of(game=game, user=user) for user in (ada, bob)}
    for user in (ada, bob):
        client.force_login(user)
        entries = _log_entries(client.get(f"/games/{game.pk}/").content.decode())
        assert max(entries) == game.version and not entries[game.version]
        seen = last[user]
        assert seen is not None
        for seq, folded in entries.items():
            assert folded == (seq <= seen and seq != game.version), (user, seq)
    # One who has not moved (a watcher) has seen all but the newest; in French, the fold
    # says how much it holds.
    cy = make_user("cy")
    cy.language = "fr"
    cy.save(update_fields=["language"])
    client.force_login(cy)
    html = client.get(f"/games/{game.pk}/").content.decode()
    entries = _log_entries(html)
    assert [seq for seq, folded in entries.items() if not folded] == [game.version]
    assert re.search(r'<summary class="small">\d+ événements?</summary>', html)


def test_a_turn_that_begins_inside_another_s_move_is_set_apart(
    client: Any, ada: Any, bob: Any, make_game: Any
) -> None:
    """A move ending a turn holds the next player's turn too (its beginning, the card they
    draw, the payouts): the log and the replay set the beginning apart as a small heading
    and the draw in bold, so that the next turn is not read as the previous player's."""
    from tests.web.play import play

    game = play(make_game(ada, bob, game_type="lords-of-vegas"), moves=12)
    ended = next(
        m
        for m in game.moves.order_by("-seq")
        if any(e["type"] == "turn" for e in m.events) and m.seq > 0
    )
    client.force_login(ada)
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/moves/{ended.seq}/"):
        html = client.get(url).content.decode()
        begins = re.findall(r'<li class="mark-begins">([^<]+)</li>', html)
        assert begins and all(s.endswith("turn begins.") for s in begins), url
        assert re.search(r'<li class="mark-drawn">\S+ draws [^<]+</li>', html), url
    finished = play(game)
    html = client.get(f"/games/{finished.pk}/").content.decode()
    assert re.search(r'<li class="mark-ends">The game ends[^<]+</li>', html)


@pytest.mark.parametrize(("edition", "risers"), [("2024", True), ("classic", False)])
def test_the_classic_board_says_no_height(
    client: Any, ada: Any, bob: Any, make_game: Any, edition: str, risers: bool
) -> None:
    """The classic edition has no risers: its casino table had a Height column always 1
    (which pushed the Boss off a 320 px screen), its legend a "height (times 2)" and every tile
    read "1 high" to a screen reader. The 2024 edition keeps them."""
    from tests.web.play import play

    game = play(
        make_game(ada, bob, game_type="lords-of-vegas", options={"edition": edition}), moves=30
    )
    client.force_login(ada)
    page = client.get(f"/games/{game.pk}/").content.decode()
    casinos = page[
        page.index('class="casinos"') : page.index("</table>", page.index('class="casinos"'))
    ]
    assert "<td>" in casinos  # (a casino was built)
    assert ('scope="col">Height</th>' in casinos) is risers
    assert ("height (\N{MULTIPLICATION SIGN}2)" in page_text(page)) is risers
    labels = re.findall(r'title="([^"]*casino tile[^"]*)"', page)
    assert labels and all((" high, " in label) is risers for label in labels)
