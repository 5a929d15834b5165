"""The board page as a player wants it (issue 12): the price before the click, a bet in a
bounded field, plain words in the players' panel and the result, all of the Lords of Vegas
table (score track, tiles left, cards, the card of this turn, what changed since the
viewer's last move), the Vegas dice said plainly, every past position at its own URL with
nothing hidden shown, and the small tag an open page polls."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import selectors, services
from games.engines.lords_of_vegas.board import LOTS, TRACK
from games.engines.registry import get_engine
from games.models import Move
from games.services import talk
from tests.web.helpers import actor, page_text
from tests.web.play import play, play_one
from tests.web.test_hidden_information import leaks

pytestmark = pytest.mark.django_db


def _page(client: Any, game: Any, user: Any, url: str = "") -> str:
    client.force_login(user)
    return client.get(url or f"/games/{game.pk}/").content.decode()


@pytest.fixture
def lords(ada: Any, bob: Any, make_game: Any) -> Any:
    return play(make_game(ada, bob, game_type="lords-of-vegas"), moves=24)


def test_the_build_buttons_say_their_price(client: Any, ada: Any, bob: Any, make_game: Any) -> None:
    game = make_game(ada, bob, game_type="lords-of-vegas")
    for _ in range(20):
        html = _page(client, game, actor(game))
        builds = re.findall(
            r'value="build (\w+) \w+"[^>]*>(?:<span class="sr-only">[^<]*</span>)?\w+ '
            r'<span class="cost">([^<]+)<',
            html,
        )
        if builds:
            break
        play_one(game)
    assert builds, "no build button in 20 moves"
    for lot, cost in builds:
        assert cost == f"${LOTS[lot].price}m"


def test_a_bet_is_an_amount_in_a_bounded_field(client: Any, lords: Any) -> None:
    for _ in range(200):
        player = actor(lords)
        legal = selectors.game_view(game=lords, user=player)["legal_commands"]
        bets = [c["command"] for c in legal if c["command"]["type"] == "gamble"]
        if bets:
            break
        play_one(lords)
    assert bets, "no gamble in 200 moves"
    html = _page(client, lords, player)
    assert 'value="gamble ' not in html  # no button per amount
    lot = bets[0]["lot"]
    most = max(b["amount"] for b in bets if b["lot"] == lot)
    field = html.split(f'id="bet-amount-{lot}"', 1)[1].split(">", 1)[0]
    assert f'min="1" max="{most}"' in field
    form = html.split(f'id="bet-{lot}"', 1)[1].split("</form>")[0]
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
    # A bet of 0 (the field's limits edited away) is refused once, not twice.
    zero = page_text(
        client.post(f"/games/{lords.pk}/", {**fields, "gamble_amount": 0}).content.decode()
    )
    assert "greater than or equal to 1" in zero and "Say how much to bet" not in zero
    # Its button asks first, as every button of the panel says it does (it played at once)
    asked = client.post(f"/games/{lords.pk}/", {**fields, "gamble_amount": 1})
    assert asked.status_code == 200 and "Play this?" in page_text(asked.content.decode())
    assert not Move.objects.filter(game=lords, text=f"gamble {lot} 1").exists()
    confirm = asked.content.decode().split('id="confirm-form"', 1)[1].split("</form>")[0]
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', confirm))
    assert fields["choice"] == f"gamble {lot} 1"
    response = client.post(f"/games/{lords.pk}/", fields)
    assert response.status_code == 302
    assert Move.objects.filter(game=lords, text=f"gamble {lot} 1").exists()


def test_the_players_panel_speaks_plainly_and_the_fair_dice_say_what_they_mean(
    client: Any, lords: Any, ada: Any
) -> None:
    html = _page(client, lords, ada)
    text = page_text(html)
    assert "Version" not in text
    assert f"Moves played {lords.version}" in text
    players = text.split("Players", 1)[1].split("Recent moves", 1)[0]
    assert "dice" in players and "lot markers left" in players and "$" in players
    fair = html.split('id="fair-dice"', 1)[1].split("</details>")[0]
    assert lords.seed_hash in fair and "fingerprint" in page_text(fair).lower()
    assert html.count(lords.seed_hash) == 1  # only in the fair-dice section


def test_a_finished_vegas_game_reads_first_ada_money_and_notes(
    client: Any, ada: Any, bob: Any, make_game: Any
) -> None:
    game = play(make_game(ada, bob, game_type="vegas"))
    text = page_text(_page(client, game, ada))
    result = text.split("Result", 1)[1]
    names = {s.order: s.name for s in game.seats.all()}
    assert game.outcome is not None
    for placing in game.outcome["placings"]:
        place = {1: "1st", 2: "2nd"}[placing["rank"]]
        notes = f"{placing['notes']} note" + ("s" if placing["notes"] != 1 else "")
        said = f"{place} {names[placing['seat']]} — ${placing['money']:,} ({notes})"
        assert said in result
    assert game.seed in text.split("Fair dice", 1)[1]


def test_the_lords_board_shows_all_of_the_table(client: Any, lords: Any, ada: Any) -> None:
    view = get_engine("lords-of-vegas").view(lords.state, None)
    html = _page(client, lords, ada)
    text = page_text(html)
    track = html.split('class="track"', 1)[1].split("</ol>")[0]
    assert [int(n) for n in re.findall(r'<span class="n">(\d+)</span>', track)] == list(TRACK)
    for p in view["players"]:  # every marker on its space
        space = track.split(f'<span class="n">{p["score"]}</span>', 1)[1].split("</li>")[0]
        assert f"colour-{p['colour']}" in space
    box = page_text(html.split('id="box"', 1)[1].split("</table>")[0])
    for company, left in view["tiles_left"].items():
        drawn = len(view["discards"][company])
        assert f"{company.capitalize()} {left}" in box and str(drawn) in box
    assert f"{view['deck_left']} cards left in the deck" in text
    card = view["card"]
    assert re.search(rf'class="lot [^"]*this-card[^"]*"[^>]*title="Lot {card}\b', html)
    me = next(p for p in view["players"] if p["seat"] == lords.seats.get(user=ada).order)
    assert f"{me['dice_left']} dice and {me['markers_left']} lot markers left" in text


def test_the_lots_changed_since_my_last_move_are_marked(
    client: Any, lords: Any, ada: Any, bob: Any
) -> None:
    last = Move.objects.filter(game=lords).order_by("-seq").select_related("seat").first()
    assert last is not None and last.seat is not None
    ada = bob if last.seat.user == ada else ada  # the one who did not play last
    seat = lords.seats.get(user=ada).order
    engine = get_engine("lords-of-vegas")
    since = selectors.last_move_of(game=lords, user=ada)
    assert since is not None and since < lords.version
    before = selectors.position_at(game=lords, seq=since, user=ada)["view"]
    now = engine.view(lords.state, seat)
    expected = sorted(
        lot
        for lot in LOTS
        if before["tiles"].get(lot) != now["tiles"].get(lot)
        or before["markers"].get(lot) != now["markers"].get(lot)
    )
    html = _page(client, lords, ada)
    marked = sorted(re.findall(r'class="lot [^"]*\bchanged\b[^"]*"[^>]*title="Lot (\w+)', html))
    assert marked == expected
    if expected:
        assert f"Changed since your last move (marked ◆): {', '.join(expected)}." in page_text(html)


def test_vegas_says_its_dice_plainly_and_what_each_placing_puts_where(
    client: Any, ada: Any, bob: Any, make_game: Any
) -> None:
    game = play(make_game(ada, bob, game_type="vegas"), moves=6)
    player = actor(game)
    view = selectors.game_view(game=game, user=player)["view"]
    text = page_text(_page(client, game, player))
    assert " \u00d7 " not in text.split("Board", 1)[1]  # no "red x 3"
    for casino in view["casinos"]:
        for seat, count in enumerate(casino["dice"]):
            if count:
                colour = view["seats"][seat]["colour"]
                assert f"{count} {colour} di{'e' if count == 1 else 'ce'}" in text
    roll = view["roll"]
    for number in sorted(set(roll["own"])):
        own = roll["own"].count(number)
        said = f"{own} di{'e' if own == 1 else 'ce'}"
        white = roll["white"].count(number)
        said += f" + {white} white" if white else ""
        assert f"{said} on casino {number}" in text


@pytest.mark.parametrize("game_type", ["vegas", "lords-of-vegas"])
def test_every_past_position_has_its_url_and_hides_what_was_hidden(
    client: Any, ada: Any, bob: Any, cy: Any, make_game: Any, game_type: str
) -> None:
    game = play(make_game(ada, bob, game_type=game_type), moves=12)
    for viewer in (ada, bob, cy):
        client.force_login(viewer)
        for seq in range(game.version + 1):
            response = client.get(f"/games/{game.pk}/moves/{seq}/")
            assert response.status_code == 200
            html = response.content.decode()
            assert leaks(html, game) == [], (viewer, seq)
            assert f"the board after move {seq} of {game.version}" in page_text(html)
    if game_type == "vegas":  # bob's money, hidden from ada while the game runs
        text = page_text(_page(client, game, ada, f"/games/{game.pk}/moves/{game.version}/"))
        assert "hidden" in text
    assert client.get(f"/games/{game.pk}/moves/{game.version + 1}/").status_code == 404
    assert client.get(f"/games/{game.pk}/moves/?seq=3")["Location"] == f"/games/{game.pk}/moves/3/"


def test_the_live_tag_changes_with_a_move_or_an_offer_and_answers_304_otherwise(
    client: Any, lords: Any, ada: Any
) -> None:
    client.force_login(ada)
    url = f"/games/{lords.pk}/live/"
    first = client.get(url)
    etag = first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    play_one(lords)
    moved = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200 and moved["ETag"] != etag
    player = actor(lords)
    other = lords.seats.exclude(user=player).first()
    assert other is not None
    services.propose_trade(
        game=lords, user=player, text=f"trade {actor_colour(lords, player)} pays {other.colour} 1"
    )
    assert client.get(url, HTTP_IF_NONE_MATCH=moved["ETag"]).status_code == 200


def actor_colour(game: Any, user: Any) -> str:
    return str(game.seats.get(user=user).colour)


def test_the_live_tag_follows_the_talk_the_viewer_may_read_and_no_other(
    client: Any, ada: Any, bob: Any, cy: Any, make_game: Any
) -> None:
    """An open board page redraws its talk when a message it would show is said (or
    hidden); a private message between two others changes nothing for the third, neither
    the live tag nor the stored page's ETag (which counted every message: found by
    review), so its page cannot tell that they talk."""
    game = make_game(ada, bob, cy, game_type="vegas")
    client.force_login(ada)
    url, page = f"/games/{game.pk}/live/", f"/games/{game.pk}/"
    etag, page_etag = client.get(url)["ETag"], client.get(page)["ETag"]
    order = {s.user_id: s.order for s in game.seats.all()}
    talk.say(game=game, user=bob, text="just between us", to=order[cy.pk])
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert client.get(page, HTTP_IF_NONE_MATCH=page_etag).status_code == 304
    said = talk.say(game=game, user=bob, text="hello table")
    answer = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert answer.status_code == 200
    assert client.get(page, HTTP_IF_NONE_MATCH=page_etag).status_code == 200
    assert "hello table" in page_text(_page(client, game, ada))
    talk.hide_messages(messages=[said], by=ada)  # (as staff do)
    hidden = client.get(url, HTTP_IF_NONE_MATCH=answer["ETag"])
    assert hidden.status_code == 200
    # A private message to the viewer is hers to read: the page redraws (the tag left it
    # out when the seat the tag read talk with had no player: found by review).
    talk.say(game=game, user=bob, text="psst, Ada", to=order[ada.pk])
    assert client.get(url, HTTP_IF_NONE_MATCH=hidden["ETag"]).status_code == 200
