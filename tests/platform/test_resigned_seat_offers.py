"""A resigned seat trades no more (hardening issue, row 2): after a resignation (or a forfeit
by timeouts) a bot plays the seat, so its money must not move by a trade. Its open offers,
the ones it made and the ones waiting on it, are closed when it resigns, and the others see
why on the board page and in the API's offer list; what the resigned player then tries
(accept, decline, propose, withdraw) is refused with a clear message and changes nothing.
Through the service, the REST API and the board page."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games import services
from games.models import Game, TradeOffer
from tests.web.helpers import page_text

from .helpers import seat_to_act

pytestmark = pytest.mark.django_db

API = "/api/v1"


@pytest.fixture(autouse=True)
def _needs_lords_of_vegas() -> None:
    pytest.importorskip("games.engines.lords_of_vegas.engine")


@pytest.fixture
def game(make_game: Any, ada: Any, bob: Any, cy: Any) -> Game:
    return make_game(ada, bob, cy, game_type="lords-of-vegas", seats=3)


def _pays(game: Game, payer: Any, payee: Any, amount: int = 2) -> str:
    p, q = game.seats.get(user=payer), game.seats.get(user=payee)
    return f"trade {p.colour} pays {q.colour} {amount}"


def _offer(game: Game, payer: Any, payee: Any, amount: int = 2) -> TradeOffer:
    """An offer with its own expiry time, so that a turn's end (a timeout's) leaves it open
    for the resignation to close."""
    return services.propose_trade(
        game=game,
        user=payer,
        text=_pays(game, payer, payee, amount),
        expires_at=timezone.now() + timedelta(days=5),
    )


def _state(game: Game) -> tuple[Any, ...]:
    """What a refused request must leave as it was: the game and every offer of it."""
    game.refresh_from_db()
    offers = TradeOffer.objects.filter(game=game).order_by("pk")
    return (
        game.version,
        game.state,
        list(offers.values_list("pk", "status", "accepted_by", "message", "move")),
    )


def _api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


# -- the service ---------------------------------------------------------------------------


def test_resigning_closes_the_offers_it_made_and_those_waiting_on_it(
    game: Game, ada: Any, bob: Any, cy: Any
) -> None:
    waiting_on_bob = _offer(game, ada, bob)
    made_by_bob = _offer(game, bob, cy)
    elsewhere = _offer(game, ada, cy)
    services.resign(game=game, user=bob)
    for offer in (waiting_on_bob, made_by_bob, elsewhere):
        offer.refresh_from_db()
    # The reason is a code with the seat, said in each reader's language where it is shown
    # (it was "declined: bob resigned" in English for everyone; found by review)
    bob_seat = game.seats.get(user=bob)
    assert (waiting_on_bob.status, waiting_on_bob.message) == ("declined", "resigned")
    assert (made_by_bob.status, made_by_bob.message) == ("withdrawn", "resigned")
    assert waiting_on_bob.closed_by == made_by_bob.closed_by == bob_seat
    assert waiting_on_bob.resolved_at and made_by_bob.resolved_at
    assert waiting_on_bob.move is None and made_by_bob.move is None
    assert elsewhere.status == "open"  # not Bob's business


def test_an_offer_bob_accepted_before_resigning_no_longer_waits_on_the_others(
    make_game: Any, ada: Any, bob: Any, cy: Any, dee: Any
) -> None:
    game = make_game(ada, bob, cy, dee, game_type="lords-of-vegas", seats=4)
    a, b, c = (game.seats.get(user=u).colour for u in (ada, bob, cy))
    text = f"trade {b} pays {a} 1, {c} pays {a} 1"
    offer = services.propose_trade(game=game, user=ada, text=text)
    services.accept_trade(offer=offer, user=bob)
    services.resign(game=game, user=bob)
    offer.refresh_from_db()
    assert (offer.status, offer.message) == ("declined", "resigned")
    before = _state(game)
    with pytest.raises(services.GameNotActive, match="already declined"):
        services.accept_trade(offer=offer, user=cy)  # would take the bot seat's money
    assert _state(game) == before


@pytest.mark.parametrize("verb", ["accept", "decline"])
def test_a_resigned_player_answers_no_offer(game: Game, ada: Any, bob: Any, verb: str) -> None:
    offer = _offer(game, ada, bob)
    services.resign(game=game, user=bob)
    before = _state(game)
    answer = services.accept_trade if verb == "accept" else services.decline_trade
    with pytest.raises(services.NotAllowed, match=f"you resigned from game #{game.pk}"):
        answer(offer=offer.pk, user=bob)
    assert _state(game) == before


def test_a_resigned_player_withdraws_nothing(game: Game, ada: Any, bob: Any) -> None:
    offer = _offer(game, bob, ada)
    services.resign(game=game, user=bob)
    before = _state(game)
    with pytest.raises(services.NotAllowed, match=f"you resigned from game #{game.pk}"):
        services.withdraw_trade(offer=offer.pk, user=bob)
    assert _state(game) == before


def test_an_offer_naming_a_resigned_seat_is_refused(game: Game, ada: Any, bob: Any) -> None:
    services.resign(game=game, user=bob)
    before = _state(game)
    with pytest.raises(services.IllegalMove, match="bob resigned: a bot plays that seat"):
        _offer(game, ada, bob)
    assert _state(game) == before


def test_an_offer_left_open_by_an_older_resignation_is_not_executed(
    game: Game, ada: Any, bob: Any, cy: Any
) -> None:
    """Offers from before resignations closed them: the seat resigned, its offer open."""
    offer = _offer(game, ada, cy)
    proposed_to_cy_by_bob = _offer(game, bob, cy)
    game.seats.filter(user=bob).update(resigned=True, bot="greedy")
    before = _state(game)
    with pytest.raises(services.IllegalMove, match="bob resigned: a bot plays that seat"):
        services.accept_trade(offer=proposed_to_cy_by_bob.pk, user=cy)
    assert _state(game) == before
    services.accept_trade(offer=offer.pk, user=cy)  # Bob is no party to this one
    offer.refresh_from_db()
    assert offer.status == "executed"


def test_a_forfeit_by_timeouts_closes_the_offers_too(
    make_game: Any, ada: Any, bob: Any, cy: Any
) -> None:
    game = make_game(ada, bob, cy, game_type="lords-of-vegas", seats=3, max_timeouts=1)
    late = seat_to_act(game)
    assert late.user is not None
    others = [u for u in (ada, bob, cy) if u != late.user]
    waiting = _offer(game, others[0], late.user)
    made = _offer(game, late.user, others[1])
    game.refresh_from_db()
    assert game.deadline is not None
    services.sweep(now=game.deadline + timedelta(minutes=1))
    late.refresh_from_db()
    assert late.resigned
    waiting.refresh_from_db()
    made.refresh_from_db()
    assert (waiting.status, waiting.message) == ("declined", "forfeited")
    assert waiting.closed_by == made.closed_by == late
    assert (made.status, made.message) == ("withdrawn", "forfeited")


# -- the REST API --------------------------------------------------------------------------


def test_the_api_refuses_a_resigned_players_answer_and_lists_why(
    game: Game, ada: Any, bob: Any
) -> None:
    offer = _offer(game, ada, bob)
    assert _api(bob).post(f"{API}/games/{game.pk}/resign/").status_code in (200, 204)
    before = _state(game)
    for verb in ("accept", "decline"):
        response = _api(bob).post(f"{API}/games/{game.pk}/trades/{offer.pk}/{verb}/")
        assert response.status_code == 403, response.content
        error = response.json()["error"]
        assert error["code"] == "not_allowed"
        assert error["message"].startswith(f"you resigned from game #{game.pk}")
    refused = _api(bob).post(
        f"{API}/games/{game.pk}/trades/", {"command": _pays(game, bob, ada)}, format="json"
    )
    assert refused.status_code == 403 and "you resigned" in refused.json()["error"]["message"]
    assert _state(game) == before
    listed = _api(ada).get(f"{API}/games/{game.pk}/trades/").json()
    [shown] = [o for o in listed if o["id"] == offer.pk]
    assert (shown["status"], shown["message"]) == ("declined", "resigned")
    assert shown["closed_by"] == game.seats.get(user=bob).order
    pending = _api(ada).get(f"{API}/games/{game.pk}/decisions/").json()
    assert pending["trades"] == []


# -- the board page ------------------------------------------------------------------------


def test_the_board_page_shows_why_and_refuses_a_resigned_players_answer(
    client: Any, game: Game, ada: Any, bob: Any
) -> None:
    offer = _offer(game, ada, bob)
    services.resign(game=game, user=bob)  # (the board page has no resign button)
    client.force_login(bob)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f"/trades/{offer.pk}/accept/" not in page
    before = _state(game)
    response = client.post(f"/games/{game.pk}/trades/{offer.pk}/accept/")
    assert response.status_code == 403
    assert f"You resigned from game #{game.pk}" in page_text(response.content.decode())
    assert _state(game) == before
    client.force_login(ada)
    shown = page_text(client.get(f"/games/{game.pk}/").content.decode())
    assert f"#{offer.pk} {offer.text} — ada, declined (bob resigned)" in shown
    ada.language = "fr"
    ada.save(update_fields=["language"])
    shown = page_text(client.get(f"/games/{game.pk}/").content.decode())
    assert f"#{offer.pk} {offer.text} — ada, refusée (bob a abandonné)" in shown
