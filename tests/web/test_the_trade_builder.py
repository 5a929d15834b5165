"""The trade builder of the Lords of Vegas board page (issue 11): parties, then what each
gives (only what they hold), then a preview (the trade in words, and what a dry run of the
engine says it would do now), then the proposal through the same service as the typed
notation. A counter starts from the offer's pieces. No JavaScript: GETs, then one POST."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Game, TradeOffer
from tests.web.helpers import footprint, page_text
from tests.web.play import play_one

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _needs_lords_of_vegas() -> None:
    pytest.importorskip("games.engines.lords_of_vegas.engine")


@pytest.fixture
def game(make_game: Any, ada: Any, bob: Any, cy: Any) -> Game:
    return make_game(ada, bob, cy, game_type="lords-of-vegas", seats=3)


def _seat(game: Game, user: Any) -> Any:
    return game.seats.get(user=user)


def _lots(game: Game, order: int) -> list[str]:
    assert game.state is not None
    return sorted(lot for lot, owner in game.state["markers"].items() if owner == order)


def _dice(game: Game, order: int) -> list[str]:
    assert game.state is not None
    return sorted(lot for lot, t in game.state["tiles"].items() if t[2] == order)


def _builder(client: Any, game: Game, user: Any, **query: Any) -> Any:
    client.force_login(user)
    return client.get(f"/games/{game.pk}/trades/new/", query)


def _field_names(html: str, form_id: str) -> set[str]:
    form = html[html.index(f'id="{form_id}"') :]
    form = form[: form.index("</form>")]
    return set(re.findall(r'name="(\w+)"', form))


def test_the_board_page_starts_the_builder_with_the_other_players(
    client: Any, game: Game, ada: Any, bob: Any, cy: Any
) -> None:
    client.force_login(ada)
    page = client.get(f"/games/{game.pk}/").content.decode()
    start = page[page.rindex("<form", 0, page.index('id="trade-builder-start"')) :]
    start = start[: start.index("</form>")]
    assert f'action="/games/{game.pk}/trades/new/"' in start and 'method="get"' in start
    values = set(re.findall(r'name="parties" value="(\d+)"', start))
    assert values == {str(_seat(game, bob).order), str(_seat(game, cy).order)}


def _with_dice(game: Game, *orders: int) -> Game:
    """Play on (the greedy bot's moves) until each of ``orders`` has a die on the board."""
    for _move in range(80):
        game.refresh_from_db()
        if all(_dice(game, order) for order in orders):
            return game
        play_one(game)
    raise AssertionError("no dice on the board after 80 moves")


def test_the_pieces_are_what_each_party_holds(
    client: Any, game: Game, ada: Any, bob: Any, cy: Any
) -> None:
    a, b, c = (_seat(game, u).order for u in (ada, bob, cy))
    game = _with_dice(game, a, b)
    html = _builder(client, game, ada, parties=[b]).content.decode()
    names = _field_names(html, "builder-pieces")
    assert {f"pay_{a}_{b}", f"pay_{b}_{a}"} <= names
    assert not any(n.startswith(f"pay_{c}") or n.endswith(f"_{c}") for n in names if "pay" in n)
    offered_lots = {n[4:] for n in names if n.startswith("lot_")}
    assert offered_lots == set(_lots(game, a)) | set(_lots(game, b))
    assert not offered_lots & set(_lots(game, c))  # Cy is no party: his lots are not offered
    offered_dice = {n[4:] for n in names if n.startswith("die_")}
    assert offered_dice == set(_dice(game, a)) | set(_dice(game, b)) and offered_dice
    assert not offered_dice & set(_dice(game, c))
    assert game.state is not None
    money = game.state["money"]
    assert f'name="pay_{a}_{b}" id="pay_{a}_{b}" min="0" max="{money[a]}"' in html
    assert f'name="pay_{b}_{a}" id="pay_{b}_{a}" min="0" max="{money[b]}"' in html


def test_the_preview_says_the_trade_and_its_effect_and_proposes_the_typed_offer(
    client: Any, game: Game, ada: Any, bob: Any
) -> None:
    a, b = _seat(game, ada), _seat(game, bob)
    lot = _lots(game, b.order)[0]
    query = {"parties": [b.order], f"pay_{a.order}_{b.order}": 3, f"lot_{lot}": a.order}
    before = footprint(game)
    response = _builder(client, game, ada, preview=1, **query)
    assert response.status_code == 200
    text = page_text(response.content.decode())
    assert f"{ada.name} ({a.colour}) pays {bob.name} ({b.colour}) $3m." in text
    assert f"{bob.name} ({b.colour}) gives the parking lot {lot} to {ada.name}" in text
    typed = f"trade {a.colour} pays {b.colour} 3, {b.colour} gives lot {lot} to {a.colour}"
    assert typed in text
    assert f"{ada.name} pays {bob.name} $3m." in text  # the engine's account of the dry run
    assert game.state is not None
    money = game.state["money"]
    assert f"{ada.name} ${money[a.order]}m ${money[a.order] - 3}m" in text
    assert footprint(game) == before  # a preview writes nothing

    # Proposing: the same offer as the typed notation makes.
    html = response.content.decode()
    form = html[html.index('id="builder-propose"') :]
    hidden = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
    response = client.post(f"/games/{game.pk}/trades/new/propose/", hidden)
    assert response.status_code == 302, page_text(response.content.decode())[-900:]
    assert response["Location"].endswith("#trades")
    offer = TradeOffer.objects.get(game=game)
    assert offer.text == typed and offer.parties == sorted([a.order, b.order])
    assert offer.proposer == a and offer.accepted_by == [a.order]
    assert f"Trade offer #{offer.pk} proposed: {typed}" in page_text(
        client.get(response["Location"]).content.decode()
    )


def test_a_lot_no_party_holds_is_neither_offered_nor_proposed(
    client: Any, game: Game, ada: Any, bob: Any, cy: Any
) -> None:
    a, b, c = (_seat(game, u).order for u in (ada, bob, cy))
    theirs = _lots(game, c)[0]
    html = _builder(client, game, ada, parties=[b]).content.decode()
    assert f'name="lot_{theirs}"' not in html
    before = footprint(game)
    forged = {"parties": [b], f"lot_{theirs}": a}
    response = _builder(client, game, ada, preview=1, **forged)
    assert response.status_code == 400
    assert f"No party of this trade has a parking lot on {theirs}" in page_text(
        response.content.decode()
    )
    assert 'id="builder-propose"' not in response.content.decode()
    response = client.post(f"/games/{game.pk}/trades/new/propose/", forged)
    assert response.status_code == 400
    assert footprint(game) == before


def test_a_trade_the_engine_refuses_says_why_and_proposes_nothing(
    client: Any, game: Game, ada: Any, bob: Any, cy: Any
) -> None:
    a, b, c = (_seat(game, u).order for u in (ada, bob, cy))
    assert game.state is not None
    # An action that cannot be done: a build on a lot that is nobody's parking lot.
    free = next(
        lot
        for lot in (f"{col}{row}" for col in "ABCDEF" for row in range(1, 10))
        if lot not in game.state["markers"] and lot not in game.state["tiles"]
    )
    query: dict[str, Any] = {"parties": [b, c], f"pay_{a}_{b}": 1}
    query["action"] = f"build {free} sphinx"
    before = footprint(game)
    response = _builder(client, game, ada, preview=1, **query)
    text = page_text(response.content.decode())
    assert "It would not go through:" in text and f"build {free} sphinx" in text
    assert 'id="builder-propose"' not in response.content.decode()
    response = client.post(f"/games/{game.pk}/trades/new/propose/", query)
    assert response.status_code in (400, 409, 422)
    assert footprint(game) == before
    assert not TradeOffer.objects.filter(game=game).exists()


def test_the_counter_form_starts_from_the_offer(
    client: Any, game: Game, ada: Any, bob: Any
) -> None:
    a, b = _seat(game, ada), _seat(game, bob)
    lot = _lots(game, b.order)[0]
    client.force_login(ada)
    typed = f"trade {a.colour} pays {b.colour} 2, {b.colour} gives lot {lot} to {a.colour}"
    assert client.post(f"/games/{game.pk}/trades/", {"trade": typed}).status_code == 302
    offer = TradeOffer.objects.get(game=game)

    client.force_login(bob)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f'href="/games/{game.pk}/trades/new/?counter={offer.pk}"' in page
    html = client.get(f"/games/{game.pk}/trades/new/", {"counter": offer.pk}).content.decode()
    assert f'name="pay_{a.order}_{b.order}" id="pay_{a.order}_{b.order}" min="0"' in html
    assert re.search(rf'name="pay_{a.order}_{b.order}"[^>]*value="2"', html)
    assert re.search(rf'<option value="{a.order}" selected>', html[html.index(f'id="lot_{lot}"') :])
    assert f'name="counter" value="{offer.pk}"' in html

    # Bob asks for 3 instead: a new offer from him, the first one declined.
    response = _builder(
        client,
        game,
        bob,
        counter=offer.pk,
        parties=[a.order],
        preview=1,
        **{f"pay_{a.order}_{b.order}": 3, f"lot_{lot}": a.order},
    )
    html = response.content.decode()
    form = html[html.index('id="builder-propose"') :]
    hidden = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
    assert hidden["counter"] == str(offer.pk)
    response = client.post(f"/games/{game.pk}/trades/new/propose/", hidden)
    assert response.status_code == 302
    offer.refresh_from_db()
    assert offer.status == "declined"
    counter = TradeOffer.objects.get(game=game, status="open")
    assert counter.proposer == b
    assert (
        counter.text
        == f"trade {a.colour} pays {b.colour} 3, {b.colour} gives lot {lot} to {a.colour}"
    )


def test_a_line_that_is_no_trade_is_answered_with_the_trade_syntax(
    client: Any, game: Game, ada: Any
) -> None:
    client.force_login(ada)
    before = footprint(game)
    response = client.post(f"/games/{game.pk}/trades/", {"trade": "I give Cy 5 for D2"})
    assert response.status_code == 422
    text = page_text(response.content.decode())
    assert "'I give Cy 5 for D2' is not a trade: a trade reads 'trade <colour> pays" in text
    assert "gives lot <lot> to <colour>" in text
    assert (
        "unknown command" not in text and "sprawl" not in text.split("is not a trade", 1)[1][:200]
    )
    assert footprint(game) == before


def test_a_malformed_trade_step_names_the_trade_form(client: Any, game: Game, ada: Any) -> None:
    client.force_login(ada)
    response = client.post(f"/games/{game.pk}/trades/", {"trade": "trade I give Cy 5 for D2"})
    text = page_text(response.content.decode())
    assert "'i give cy 5 for d2' is not a trade step: a trade reads 'trade <colour> pays" in text
    assert not TradeOffer.objects.filter(game=game).exists()


def _proposal(client: Any, game: Game, ada: Any, bob: Any) -> dict[str, str]:
    """The hidden fields of the builder's propose form for Ada paying Bob $2m."""
    a, b = _seat(game, ada), _seat(game, bob)
    response = _builder(
        client, game, ada, preview=1, parties=[b.order], **{f"pay_{a.order}_{b.order}": 2}
    )
    html = response.content.decode()
    form = html[html.index('id="builder-propose"') :]
    assert 'name="expires_at"' in form and 'type="datetime-local"' in form
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))


def test_the_builder_proposes_with_an_expiry_time(
    client: Any, game: Game, ada: Any, bob: Any
) -> None:
    at = (timezone.now() + timedelta(hours=30)).replace(second=0, microsecond=0)
    hidden = _proposal(client, game, ada, bob)
    local = timezone.localtime(at).strftime("%Y-%m-%dT%H:%M")
    response = client.post(f"/games/{game.pk}/trades/new/propose/", {**hidden, "expires_at": local})
    assert response.status_code == 302
    assert TradeOffer.objects.get(game=game).expires_at == at


@pytest.mark.parametrize(
    ("when", "said"),
    [
        ("soon", "Give the expiry as a date and a time"),
        ("past", "An offer expires in the future: choose a later time"),
        ("too late", "An offer expires within 7 days: choose an earlier time"),
    ],
)
def test_the_builder_refuses_a_bad_expiry_time_and_writes_nothing(
    client: Any, game: Game, ada: Any, bob: Any, when: str, said: str
) -> None:
    sent = {
        "past": timezone.now() - timedelta(minutes=5),
        "too late": timezone.now() + timedelta(days=8),
    }
    value = timezone.localtime(sent[when]).strftime("%Y-%m-%dT%H:%M") if when in sent else when
    hidden = _proposal(client, game, ada, bob)
    before = footprint(game)
    response = client.post(f"/games/{game.pk}/trades/new/propose/", {**hidden, "expires_at": value})
    assert response.status_code == 400
    assert said in page_text(response.content.decode())
    assert footprint(game) == before


def test_the_parties_form_sent_with_nobody_ticked_says_so(
    client: Any, game: Game, ada: Any, bob: Any, cy: Any
) -> None:
    """Nobody ticked, "Choose what each gives" showed step 1 again without a word (from the
    board page and from the builder's step 1): it says what is missing; nothing changes."""
    client.force_login(ada)
    board = client.get(f"/games/{game.pk}/").content.decode()
    first = client.get(f"/games/{game.pk}/trades/new/").content.decode()
    for page, form in ((board, "trade-builder-start"), (first, "builder-parties")):
        start = page[page.index(f'id="{form}"') :]
        start = start[: start.index("</form>")]
        hidden = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', start))
        before = (TradeOffer.objects.count(), footprint(game))
        response = client.get(f"/games/{game.pk}/trades/new/", hidden)
        assert response.status_code == 400, form
        error = response.content.decode().split('id="builder-error"')[1].split("</div>")[0]
        assert "Tick at least one other player to trade with" in page_text(error), form
        assert (TradeOffer.objects.count(), footprint(game)) == before
