"""The board page from the cache (games/web/board_cache.py): a second load is answered from
the stored page, yet whatever changes at the table shows on the very next load, each viewer
gets their own page, and the secrets of the page (CSRF token, the move form's key) are new
on each answer; ``If-None-Match`` with the page's ETag gets a 304 while nothing changed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from accounts.models import User
from games import selectors, services
from games.models import ChatMessage, Game, TradeOffer
from games.services import talk, tools
from games.web import board_cache
from leagues import services as leagues
from tests.leagues.conftest import league, season_with  # noqa: F401 (fixtures, used by name)
from tests.web.helpers import actor, drawn_form, other, page_text

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def _get(client: Any, game: Game, etag: str | None = None) -> Any:
    headers = {} if etag is None else {"If-None-Match": etag}
    return client.get(f"/games/{game.pk}/", headers=headers)


def _page(client: Any, game: Game, user: User) -> str:
    client.force_login(user)
    response = _get(client, game)
    assert response.status_code == 200
    return str(response.content.decode())


def _stored(game: Game, user: User, client: Any) -> bool:
    """Whether the viewer's page of the game's present state is in the cache: what the
    next load is answered from."""
    client.force_login(user)
    response = _get(client, game)
    request = response.wsgi_request
    found = board_cache.fingerprint(game.pk, user)
    assert found is not None
    return cache.get(board_cache.key_for(request, found)) is not None


def _without_secrets(html: str) -> str:
    html = TOKEN.sub('name="csrfmiddlewaretoken" value="-"', html)
    return re.sub(r'name="idempotency_key" value="[^"]+"', 'name="idempotency_key" value="-"', html)


def _play(game: Game) -> str:
    """The player the game waits on plays their first legal command."""
    user = actor(game)
    command = selectors.game_view(game=game, user=user)["legal_commands"][0]["text"]
    services.submit_command(game=game, user=user, text=command, expected_version=game.version)
    return str(command)


def test_a_stored_page_is_the_page_drawn_afresh(
    client: Any, ada: User, bob: User, make_game: Any, settings: Any
) -> None:
    game = make_game(ada, bob, game_type="lords-of-vegas", seats=2)
    first = _page(client, game, ada)
    assert _stored(game, ada, client)
    second = _page(client, game, ada)
    settings.BOARD_PAGE_CACHE = False
    fresh = _page(client, game, ada)
    assert _without_secrets(second) == _without_secrets(fresh) == _without_secrets(first)
    stand_in_token, stand_in_key = board_cache.stand_ins()
    assert stand_in_token not in second and stand_in_key not in second
    assert drawn_form(first)["idempotency_key"] != drawn_form(second)["idempotency_key"]


def test_the_token_of_a_stored_page_is_accepted(ada: User, bob: User, make_game: Any) -> None:
    game = make_game(ada, bob)
    strict = Client(enforce_csrf_checks=True)
    _page(strict, game, ada)
    page = _page(strict, game, ada)  # from the cache
    token = TOKEN.search(page[page.index('id="chat-form"') :])
    assert token is not None
    response = strict.post(
        f"/games/{game.pk}/chat/", {"text": "from a stored page", "csrfmiddlewaretoken": token[1]}
    )
    assert response.status_code == 302
    assert ChatMessage.objects.filter(game=game, text="from a stored page").exists()


def test_a_move_shows_at_once(client: Any, ada: Any, bob: Any, make_game: Any) -> None:
    game = make_game(ada, bob)
    viewer = other(game, actor(game))
    before = _page(client, game, viewer)
    assert _stored(game, viewer, client)
    played = _play(game)
    game.refresh_from_db()
    after = _page(client, game, viewer)
    assert after != before
    assert f'id="version" href="/games/{game.pk}/moves/{game.version}/">{game.version}<' in after
    assert played in page_text(after.split('id="moves"', 1)[1])


def test_a_chat_message_shows_at_once(client: Any, ada: Any, bob: Any, make_game: Any) -> None:
    game = make_game(ada, bob)
    assert "Nothing said yet." in page_text(_page(client, game, ada))
    assert _stored(game, ada, client)
    talk.say(game=game, user=bob, text="Your move, Ada", source=ChatMessage.Source.WEB)
    text = page_text(_page(client, game, ada))
    assert "Your move, Ada" in text and "Nothing said yet." not in text


def test_a_hidden_chat_message_goes_at_once(
    client: Any, ada: Any, bob: Any, make_game: Any
) -> None:
    game = make_game(ada, bob)
    talk.say(game=game, user=bob, text="Something rude", source=ChatMessage.Source.WEB)
    assert "Something rude" in page_text(_page(client, game, ada))
    ChatMessage.objects.filter(game=game).update(hidden_at=game.created_at)
    assert "Something rude" not in page_text(_page(client, game, ada))


def test_an_offer_shows_at_once(client: Any, ada: Any, bob: Any, make_game: Any) -> None:
    game = make_game(ada, bob, game_type="lords-of-vegas", seats=2)
    assert "No trade offers yet." in page_text(_page(client, game, bob))
    assert _stored(game, bob, client)
    p, q = game.seats.get(user=ada), game.seats.get(user=bob)
    offer = services.propose_trade(
        game=game, user=ada, text=f"trade {p.colour} pays {q.colour} 2", source="web"
    )
    page = _page(client, game, bob)
    assert f'id="offer-{offer.pk}"' in page and "No trade offers yet." not in page_text(page)
    assert "Accept" in page_text(page.split(f'id="offer-{offer.pk}"', 1)[1])
    services.decline_trade(offer=offer, user=bob)
    offer.refresh_from_db()
    assert offer.status == TradeOffer.Status.DECLINED
    page = _page(client, game, bob)
    assert "Accept" not in page_text(page.split(f'id="offer-{offer.pk}"', 1)[1].split("</li>")[0])


def test_a_pause_vote_shows_at_once(client: Any, ada: Any, bob: Any, make_game: Any) -> None:
    game = make_game(ada, bob)
    assert "Ask for a pause" in page_text(_page(client, game, ada))
    assert _stored(game, ada, client)
    tools.vote_pause(game=game, by=ada)
    text = page_text(_page(client, game, ada))
    assert "1 player asks for a pause" in text and "Take back my pause vote" in text


def test_notes_show_at_once_and_to_their_writer_only(
    client: Any, ada: Any, bob: Any, make_game: Any
) -> None:
    game = make_game(ada, bob)
    talk.save_note(game=game, user=ada, text="Bob bluffs")
    assert "Bob bluffs" in _page(client, game, ada)
    _page(client, game, bob)
    talk.save_note(game=game, user=ada, text="Bob bluffs on casino 4")
    assert "Bob bluffs on casino 4" in _page(client, game, ada)
    assert "Bob bluffs" not in _page(client, game, bob)


def test_a_language_change_shows_at_once(client: Any, ada: Any, bob: Any, make_game: Any) -> None:
    game = make_game(ada, bob)
    assert "Recent moves" in page_text(_page(client, game, ada))
    assert _stored(game, ada, client)
    User.objects.filter(pk=ada.pk).update(language="fr")
    ada.refresh_from_db()
    text = page_text(_page(client, game, ada))
    assert "Recent moves" not in text and "Coups récents" in text
    client.cookies["django_language"] = "en"  # the language cookie wins over the profile
    assert "Recent moves" in page_text(_page(client, game, ada))


def test_a_time_zone_change_shows_at_once(client: Any, ada: Any, bob: Any, make_game: Any) -> None:
    game = make_game(ada, bob)
    assert "(UTC)" in page_text(_page(client, game, ada))
    User.objects.filter(pk=ada.pk).update(time_zone="Asia/Tokyo")
    ada.refresh_from_db()
    page = _page(client, game, ada)
    assert "(Asia/Tokyo)" in page_text(page)
    log = page.split('id="moves"', 1)[1]
    assert '+09:00"' in log and '+00:00"' not in log  # the log's times too


def test_a_new_display_name_shows_at_once(client: Any, ada: Any, bob: Any, make_game: Any) -> None:
    game = make_game(ada, bob)
    _page(client, game, ada)
    User.objects.filter(pk=bob.pk).update(display_name="Roberto")
    page = _page(client, game, ada)
    assert "Roberto" in page_text(page.split('id="table"', 1)[1].split("</section>")[0])
    assert "Roberto" in page_text(page.split('id="moves"', 1)[1])  # the log says it too


def test_the_tools_show_at_once_to_new_staff(
    client: Any, ada: Any, bob: Any, make_game: Any
) -> None:
    game = make_game(ada, bob)
    assert "Game tools" not in page_text(_page(client, game, ada))
    User.objects.filter(pk=ada.pk).update(is_staff=True)
    ada.refresh_from_db()
    assert "Game tools" in page_text(_page(client, game, ada))


def test_the_tools_show_at_once_to_a_new_league_admin(
    client: Any, ada: Any, bob: Any, cy: Any, dee: Any, request: pytest.FixtureRequest
) -> None:
    season = request.getfixturevalue("season_with")(bob, cy, players_per_game=2)
    leagues.start_season(season=season, by=ada)
    game = Game.objects.get(season_game__season=season)
    assert "Game tools" not in page_text(_page(client, game, dee))
    season.league.admins.add(dee)  # (not seated in it: a seated admin has no tools, 0014)
    assert "Game tools" in page_text(_page(client, game, dee))


def test_each_viewer_gets_their_own_page(
    client: Any, ada: Any, bob: Any, cy: Any, make_game: Any
) -> None:
    game = make_game(ada, bob, game_type="vegas")
    mine = _page(client, game, ada)
    assert _stored(game, ada, client)
    theirs = _page(client, game, bob)
    spectator = _page(client, game, cy)
    ada_row = f"{ada.name} <em>(you)</em>"
    assert ada_row in mine and ada_row not in theirs and ada_row not in spectator
    assert f"{bob.name} <em>(you)</em>" in theirs
    assert 'id="chat-form"' in mine and 'id="chat-form"' not in spectator
    ada_money = re.search(r"you\)</em>.*?<td>([^<]+)</td>\s*</tr>", mine, re.S)
    assert ada_money is not None and ada_money[1].startswith("$")
    assert "hidden" in page_text(theirs.split(f"{bob.name} <em>", 1)[0] + theirs)


def test_a_conditional_get_is_answered_304_until_the_table_changes(
    client: Any, ada: Any, bob: Any, make_game: Any
) -> None:
    game = make_game(ada, bob)
    client.force_login(ada)
    first = _get(client, game)
    etag = first["ETag"]
    assert etag and first["Cache-Control"] == "private, no-cache"
    again = _get(client, game, etag=etag)
    assert again.status_code == 304 and again.content == b""
    assert _get(client, game, etag=f'"other", W/{etag}').status_code == 304  # as a proxy says it
    assert _get(client, game, etag='"something else"').status_code == 200
    talk.say(game=game, user=bob, text="Anyone there?", source=ChatMessage.Source.WEB)
    changed = _get(client, game, etag=etag)
    assert changed.status_code == 200 and "Anyone there?" in changed.content.decode()
    assert changed["ETag"] != etag
    client.force_login(bob)  # another viewer never gets ada's validator's 304
    assert _get(client, game, etag=changed["ETag"]).status_code == 200


def test_flash_messages_are_shown_once(client: Any, ada: Any, bob: Any, make_game: Any) -> None:
    game = make_game(ada, bob)
    _page(client, game, ada)
    response = client.post(f"/games/{game.pk}/chat/", {"text": "Hello"}, follow=True)
    assert "Said." in page_text(response.content.decode())
    assert "Said." not in page_text(_page(client, game, ada))
