"""A signed-out visitor watches a public game (decision 0029): its board page, replay, live
tag and the lobby's open games, as a signed-in spectator reads them and no more; a private
game and a missing one send them to sign in alike, saying nothing of the game; every action
sends them to sign in and changes nothing."""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import ChatMessage, Game
from games.services import talk
from games.web import board_cache
from tests.conftest import PASSWORD
from tests.web.helpers import actor, footprint, page_text
from tests.web.test_hidden_information import leaks

pytestmark = pytest.mark.django_db

# What only a seated player's page holds: the forms of a move, a trade, talk, notes, the
# pause, resigning; the "(you)" of their row and "Yours" in the turn line.
PLAYERS_ONLY = [
    'id="move-form"',
    'id="trade-form"',
    'id="trade-builder-start"',
    'id="chat-form"',
    'id="chat"',
    'id="notes"',
    "/resign/",
    "/pause/",
    "<em>(you)</em>",
    "Yours",
    'method="post"',
    "csrfmiddlewaretoken",
]


def _visitor_page(client: Any, game: Game) -> str:
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    return str(response.content.decode())


def _sent_to_sign_in(response: Any, path: str) -> None:
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={path}"


def test_a_visitor_watches_a_public_game(client: Any, ada: Any, bob: Any, make_game: Any) -> None:
    game = make_game(ada, bob, game_type="lords-of-vegas", options={"edition": "2024"})
    html = _visitor_page(client, game)
    text = page_text(html)
    assert f"Lords of Vegas #{game.pk}" in text
    assert len(re.findall(r'role="listitem" class="lot ', html)) == 48  # the board
    assert ada.name in text and bob.name in text and "Points" in text  # players and scores
    assert "Recent moves" in text and f'href="/games/{game.pk}/moves/0/"' in html  # the log
    assert actor(game).name in text.split("Turn", 1)[1]
    assert "Sign in or create an account to play" in text
    assert f'href="/accounts/signup/?next=/games/{game.pk}/"' in html
    assert f'href="/accounts/login/?next=/games/{game.pk}/"' in html
    assert [s for s in PLAYERS_ONLY if s in html] == []
    assert 'data-live-url="/games/' in html  # the page follows the game (live.js)


def test_a_visitor_reads_none_of_what_only_a_player_sees(
    client: Any, ada: Any, bob: Any, make_game: Any, settings: Any
) -> None:
    """Notes, private messages, the table's talk (spectators read none of it), the move
    form, the buttons of an offer, and the game's secrets (seed, deck): not on the page,
    drawn afresh or from the cache after a player's page was stored."""
    game = make_game(ada, bob, game_type="lords-of-vegas", seats=2)
    talk.save_note(game=game, user=ada, text="Bob bluffs about the Strip")
    ada_seat = game.seats.get(user=ada).order
    talk.say(game=game, user=bob, text="A secret deal, Ada?", to=ada_seat)
    talk.say(game=game, user=bob, text="Hello table", source=ChatMessage.Source.WEB)
    p, q = game.seats.get(user=ada), game.seats.get(user=bob)
    offer = services.propose_trade(
        game=game, user=ada, text=f"trade {p.colour} pays {q.colour} 2", source="web"
    )
    client.force_login(ada)
    mine = client.get(f"/games/{game.pk}/").content.decode()  # stored for ada
    assert "Bob bluffs" in mine and "A secret deal" in mine and 'id="move-form"' in mine
    client.logout()
    for caches in (True, False):
        settings.BOARD_PAGE_CACHE = caches
        html = _visitor_page(client, game)
        text = page_text(html)
        for secret in ("Bob bluffs", "A secret deal", "Hello table", "Table talk", "My notes"):
            assert secret not in text, secret
        assert [s for s in PLAYERS_ONLY if s in html] == []
        assert leaks(html, game) == []
        # The open offer as a spectator sees it: what it is, by whom, no answer to give.
        line = html.split(f'id="offer-{offer.pk}"', 1)[1].split("</li>", 1)[0]
        assert ada.name in line and "Accept" not in line and "Withdraw" not in line


def test_a_private_game_and_a_missing_one_send_a_visitor_to_sign_in_alike(
    client: Any, ada: Any, bob: Any, make_game: Any
) -> None:
    game = make_game(ada, bob, private=True)
    missing = game.pk + 1000
    for pk in (game.pk, missing):
        for path in (f"/games/{pk}/", f"/games/{pk}/moves/0/"):
            response = client.get(path)
            _sent_to_sign_in(response, path)
            body = response.content.decode()
            assert body == ""  # nothing of the game: no name, no player, not "private"
        live = client.get(f"/games/{pk}/live/")
        assert live.status_code == 403 and live.json() == {"error": "sign in first"}
    # (a signed-in stranger is told which, as before: test_the_board_page.py)


def test_every_action_sends_a_visitor_to_sign_in_and_changes_nothing(
    client: Any, ada: Any, bob: Any, make_game: Any
) -> None:
    game = make_game(ada, bob, game_type="lords-of-vegas", seats=2)
    p, q = game.seats.get(user=ada), game.seats.get(user=bob)
    offer = services.propose_trade(
        game=game, user=ada, text=f"trade {p.colour} pays {q.colour} 2", source="web"
    )
    before = footprint(game)
    notes, said = talk.note_in(p), ChatMessage.objects.count()
    g = game.pk
    for path, data in [
        (f"/games/{g}/", {"text": "end", "expected_version": str(game.version)}),
        (f"/games/{g}/join/", {}),
        (f"/games/{g}/leave/", {}),
        (f"/games/{g}/resign/", {}),
        (f"/games/{g}/pause/", {}),
        (f"/games/{g}/trades/", {"trade": f"trade {q.colour} pays {p.colour} 1"}),
        (f"/games/{g}/trades/{offer.pk}/accept/", {}),
        (f"/games/{g}/trades/{offer.pk}/decline/", {}),
        (f"/games/{g}/chat/", {"text": "Hi from nobody"}),
        (f"/games/{g}/notes/", {"text": "overwritten"}),
        (f"/games/{g}/bots/", {"bot": "greedy"}),
    ]:
        response = client.post(path, data)
        _sent_to_sign_in(response, path)
    assert footprint(game) == before
    assert talk.note_in(p) == notes and ChatMessage.objects.count() == said
    offer.refresh_from_db()
    assert offer.status == offer.Status.OPEN


def test_a_visitor_replays_a_public_game(client: Any, ada: Any, bob: Any, make_game: Any) -> None:
    game = make_game(ada, bob, game_type="vegas")
    response = client.get(f"/games/{game.pk}/moves/0/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Casino 1" in page_text(html) and leaks(html, game) == []
    goto = client.get(f"/games/{game.pk}/moves/", {"seq": "0"})
    assert goto.status_code == 302 and goto["Location"] == f"/games/{game.pk}/moves/0/"


def test_the_live_tag_follows_the_game_for_a_visitor(client: Any, ada: Any, make_game: Any) -> None:
    """A bot's seat has no player, as a visitor has no account: the bot's turn is not the
    visitor's (``your_turn`` compared the two Nones)."""
    game = make_game(ada, bots=1, game_type="vegas")
    game.seats.filter(user__isnull=True).update(to_act=True)
    game.seats.filter(user=ada).update(to_act=False)
    found = client.get(f"/games/{game.pk}/live/")
    assert found.status_code == 200 and found.json()["your_turn"] is False
    again = client.get(f"/games/{game.pk}/live/", headers={"If-None-Match": found["ETag"]})
    assert again.status_code == 304
    assert "Yours" not in page_text(_visitor_page(client, game))


def test_visitors_share_one_stored_page_apart_from_every_account_s(
    client: Any, ada: Any, bob: Any, cy: Any, make_game: Any
) -> None:
    game = make_game(ada, bob, game_type="vegas")
    client.force_login(cy)  # a signed-in spectator's page, stored first
    theirs = _key(client.get(f"/games/{game.pk}/"), game)
    client.logout()
    first = client.get(f"/games/{game.pk}/")
    key = _key(first, game)
    assert f":{game.pk}:visitor:" in key and key != theirs and cache.get(key) is not None
    assert Client().get(f"/games/{game.pk}/").content == first.content  # another visitor
    french = client.get(f"/games/{game.pk}/", headers={"accept-language": "fr"})
    assert '<html lang="fr">' in french.content.decode() and _key(french, game) != key
    assert "Joueurs" in page_text(french.content.decode())
    client.force_login(ada)  # the visitors' stored page never reaches a player
    assert f"{ada.name} <em>(you)</em>" in client.get(f"/games/{game.pk}/").content.decode()


def _key(response: Any, game: Game) -> str:
    """The key of the stored page ``response`` answered (its request's viewer's)."""
    request = response.wsgi_request
    found = board_cache.fingerprint(game.pk, request.user)
    assert found is not None
    return board_cache.key_for(request, found)


def test_a_visitor_s_page_costs_few_queries(
    client: Any, ada: Any, bob: Any, make_game: Any, settings: Any
) -> None:
    """Drawn afresh: the game, its seats (twice: the view, the log's names), the offers
    (the list, the log's credits), the live tag's two, the league season it belongs to (its
    link back, decision 0036); no seat, talk, notes, tools or next game to look up. From the
    cache: the one fingerprint query (and no session read)."""
    game = make_game(ada, bob, game_type="lords-of-vegas", seats=2)
    settings.BOARD_PAGE_CACHE = False
    with CaptureQueriesContext(connection) as fresh:
        _visitor_page(client, game)
    assert len(fresh.captured_queries) <= 9, [q["sql"] for q in fresh.captured_queries]
    settings.BOARD_PAGE_CACHE = True
    _visitor_page(client, game)
    with CaptureQueriesContext(connection) as stored:
        _visitor_page(client, game)
    assert len(stored.captured_queries) == 1, [q["sql"] for q in stored.captured_queries]


def test_an_open_game_shows_a_visitor_its_free_seat_and_no_join_button(
    client: Any, ada: Any, make_game: Any
) -> None:
    game = make_game(ada, start=False, seats=3)
    html = _visitor_page(client, game)
    text = page_text(html)
    assert "Waiting for players: 1 of 3 seats taken" in text
    assert "A seat is free at this table" in text
    assert "Join this game" not in text and 'method="post"' not in html


def test_the_lobby_lists_a_visitor_the_public_games_to_watch(
    client: Any, ada: Any, bob: Any, cy: Any, dee: Any, make_game: Any
) -> None:
    public = make_game(ada, start=False, seats=3)
    private = make_game(cy, start=False, seats=3, private=True)
    running = make_game(ada, bob)
    hidden = make_game(cy, dee, private=True)
    assert 'href="/games/" id="watch"' in client.get("/").content.decode()  # (the home page)
    response = client.get("/games/")
    assert response.status_code == 200
    html = response.content.decode()
    watch, joinable = html.split('id="h-watch"', 1)[1].split('id="h-joinable"', 1)
    assert f'href="/games/{running.pk}/"' in watch and f'href="/games/{public.pk}/"' in joinable
    for game in (private, hidden):
        assert f'href="/games/{game.pk}/"' not in html
    assert cy.name not in page_text(html) and dee.name not in page_text(html)
    assert 'method="post"' not in html and "Create a game" not in page_text(html)
    assert 'href="/accounts/signup/?next=/games/"' in html
    new = client.get("/games/new/")
    assert new.status_code == 302 and new["Location"].startswith("/accounts/login/")


def test_a_finished_game_shows_a_visitor_its_result_and_seed_without_the_api_s_link(
    client: Any, ada: Any, bob: Any, make_game: Any
) -> None:
    """After the end the seed is public (decision 0000), to a visitor too; the API's
    verification needs an account (a visitor's link would answer 401): not offered."""
    game = make_game(ada, bob, game_type="vegas")
    services.resign(game=game, user=bob)
    game.refresh_from_db()
    html = _visitor_page(client, game)
    assert "Result" in page_text(html) and game.seed in html
    assert "/verify/" not in html and "data-live-url" not in html
    client.force_login(ada)
    assert "/verify/" in client.get(f"/games/{game.pk}/").content.decode()


def test_signing_in_from_the_call_brings_the_visitor_back_to_the_game(
    client: Any, ada: Any, bob: Any, cy: Any, make_game: Any
) -> None:
    game = make_game(ada, bob, game_type="vegas")
    html = _visitor_page(client, game)
    login = re.search(r'href="([^"]+)" id="visitor-sign-in"', html)
    assert login is not None
    url = html_lib.unescape(login[1])
    response = client.post(url, {"login": cy.email, "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert "Sign in or create an account" not in page_text(
        client.get(response["Location"]).content.decode()
    )


def test_a_move_a_public_game_lacks_is_said_to_a_visitor(
    client: Any, ada: Any, bob: Any, make_game: Any
) -> None:
    """Not the sign-in page: the game is there for anyone to see, the move is not."""
    game = make_game(ada, bob, game_type="vegas")
    response = client.get(f"/games/{game.pk}/moves/999/")
    assert response.status_code == 404
    assert f"Game #{game.pk} has no move 999" in page_text(response.content.decode())


def test_the_header_s_sign_in_brings_a_visitor_back_to_the_page_they_read(
    client: Any, ada: Any, bob: Any, make_game: Any
) -> None:
    """The header's links carried no ``?next=``: a visitor who signed in there from a game
    they watched landed on their games (noticed by the change that let visitors in). The
    home page and the account pages' own links stay bare."""
    game = make_game(ada, bob, game_type="vegas")
    header = re.search(r"<header.*?</header>", _visitor_page(client, game), re.S)
    assert header is not None
    here = f"/games/{game.pk}/"
    assert f'href="/accounts/login/?next={here}"' in header[0]
    assert f'href="/accounts/signup/?next={here}"' in header[0]
    for bare in ("/", "/accounts/login/"):
        top = re.search(r"<header.*?</header>", client.get(bare).content.decode(), re.S)
        assert top is not None and "?next=" not in top[0], bare
