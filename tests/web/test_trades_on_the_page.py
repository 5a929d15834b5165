"""Trade offers on the board page (Lords of Vegas): propose in the notation, accept,
decline or withdraw with buttons. Each POST calls one service and redirects with a
message; a refusal shows the page again with the service's message and writes nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games.models import Move, TradeOffer
from tests.web.helpers import footprint, page_text

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _needs_lords_of_vegas() -> None:
    pytest.importorskip("games.engines.lords_of_vegas.engine")


@pytest.fixture
def game(make_game: Any, ada: Any, bob: Any, cy: Any) -> Any:
    return make_game(ada, bob, cy, game_type="lords-of-vegas", seats=3)


def _pays(game: Any, payer: Any, payee: Any, amount: int = 2) -> str:
    p, q = game.seats.get(user=payer), game.seats.get(user=payee)
    return f"trade {p.colour} pays {q.colour} {amount}"


def _page(client: Any, game: Any, user: Any) -> str:
    client.force_login(user)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    return str(response.content.decode())


def _propose(client: Any, game: Any, user: Any, text: str) -> Any:
    client.force_login(user)
    return client.post(f"/games/{game.pk}/trades/", {"trade": text})


def _answer(client: Any, game: Any, user: Any, offer: TradeOffer, verb: str) -> Any:
    client.force_login(user)
    return client.post(f"/games/{game.pk}/trades/{offer.pk}/{verb}/")


def _offered(client: Any, game: Any, ada: Any, bob: Any) -> TradeOffer:
    response = _propose(client, game, ada, _pays(game, ada, bob))
    assert response.status_code == 302
    return TradeOffer.objects.get(game=game)


def test_the_page_offers_a_trade_form_with_csrf(client: Any, game: Any, ada: Any) -> None:
    page = _page(client, game, ada)
    form = page[page.index('id="trade-form"') :]
    assert 'name="trade"' in form and "csrfmiddlewaretoken" in form
    assert "through the API" not in page


def test_a_proposal_is_listed_for_both_players(client: Any, game: Any, ada: Any, bob: Any) -> None:
    text = _pays(game, ada, bob)
    response = _propose(client, game, ada, text)
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.pk}/#trades"
    offer = TradeOffer.objects.get(game=game)
    assert offer.status == "open" and offer.text == text
    mine = page_text(client.get(response["Location"]).content.decode())
    assert f"Trade offer #{offer.pk} proposed" in mine
    assert text in mine.split("Trade offers", 1)[1]
    page = _page(client, game, ada)
    assert f"/trades/{offer.pk}/withdraw/" in page
    assert f"/trades/{offer.pk}/accept/" not in page  # the proposer has accepted already
    theirs = _page(client, game, bob)
    assert text in page_text(theirs)
    assert f"/trades/{offer.pk}/accept/" in theirs and f"/trades/{offer.pk}/decline/" in theirs
    assert f"/trades/{offer.pk}/withdraw/" not in theirs


def test_the_other_party_accepts_and_the_trade_is_done(
    client: Any, game: Any, ada: Any, bob: Any
) -> None:
    offer = _offered(client, game, ada, bob)
    a, b = game.seats.get(user=ada).order, game.seats.get(user=bob).order
    money = list(game.__class__.objects.get(pk=game.pk).state["money"])
    response = _answer(client, game, bob, offer, "accept")
    assert response.status_code == 302
    offer.refresh_from_db()
    assert offer.status == "executed" and offer.move is not None
    assert Move.objects.filter(pk=offer.move.pk, source="web").exists()
    game.refresh_from_db()
    assert game.state["money"][a] == money[a] - 2 and game.state["money"][b] == money[b] + 2
    text = page_text(client.get(response["Location"]).content.decode())
    assert f"You accepted trade offer #{offer.pk}: the trade is done." in text
    # The replay of that move names it a trade (it read "the game trade ...").
    replay = client.get(f"/games/{game.pk}/moves/{offer.move.seq}/").content.decode()
    said = re.search(r"<p><strong>([^<]*)</strong>", replay)
    assert said is not None and said.group(1) == "trade", said


def test_decline(client: Any, game: Any, ada: Any, bob: Any) -> None:
    offer = _offered(client, game, ada, bob)
    response = _answer(client, game, bob, offer, "decline")
    assert response.status_code == 302
    offer.refresh_from_db()
    assert offer.status == "declined" and offer.move is None
    assert f"You declined trade offer #{offer.pk}." in page_text(
        client.get(response["Location"]).content.decode()
    )


def test_withdraw(client: Any, game: Any, ada: Any, bob: Any) -> None:
    offer = _offered(client, game, ada, bob)
    response = _answer(client, game, ada, offer, "withdraw")
    assert response.status_code == 302
    offer.refresh_from_db()
    assert offer.status == "withdrawn"
    assert f"You withdrew trade offer #{offer.pk}." in page_text(
        client.get(response["Location"]).content.decode()
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("trade nonsense everywhere", None),
        ("end", "is not a trade"),
        ("", "Type a trade in the notation."),
    ],
)
def test_a_bad_proposal_shows_the_message_and_writes_nothing(
    client: Any, game: Any, ada: Any, text: str, expected: str | None
) -> None:
    before = footprint(game)
    response = _propose(client, game, ada, text)
    assert response.status_code in (400, 409, 422)
    page = response.content.decode()
    assert 'id="trade-error"' in page
    if expected is not None:
        assert expected in page_text(page)
    assert f">{text}</textarea>" in page  # the trade as typed
    assert footprint(game) == before
    assert not TradeOffer.objects.filter(game=game).exists()


def test_someone_not_party_cannot_accept(
    client: Any, game: Any, ada: Any, bob: Any, cy: Any
) -> None:
    offer = _offered(client, game, ada, bob)
    assert f"/trades/{offer.pk}/accept/" not in _page(client, game, cy)
    before = footprint(game)
    response = _answer(client, game, cy, offer, "accept")
    assert response.status_code == 403
    text = page_text(response.content.decode())
    assert f"You are not a party to trade offer #{offer.pk}" in text
    assert footprint(game) == before
    offer.refresh_from_db()
    assert offer.status == "open" and offer.accepted_by == [game.seats.get(user=ada).order]


def test_an_offer_is_answered_under_its_own_game_only(
    client: Any, game: Any, make_game: Any, ada: Any, bob: Any
) -> None:
    offer = _offered(client, game, ada, bob)
    other = make_game(ada, bob, game_type="lords-of-vegas")
    response = _answer(client, other, bob, offer, "accept")
    assert response.status_code == 404
    assert f"Game #{other.pk} has no trade offer #{offer.pk}" in page_text(
        response.content.decode()
    )
    offer.refresh_from_db()
    assert offer.status == "open" and offer.accepted_by == [game.seats.get(user=ada).order]


def test_only_the_proposer_withdraws(client: Any, game: Any, ada: Any, bob: Any) -> None:
    offer = _offered(client, game, ada, bob)
    before = footprint(game)
    response = _answer(client, game, bob, offer, "withdraw")
    assert response.status_code == 403
    assert "decline it instead" in page_text(response.content.decode())
    assert footprint(game) == before
    offer.refresh_from_db()
    assert offer.status == "open"


def test_answers_need_a_post(client: Any, game: Any, ada: Any, bob: Any) -> None:
    offer = _offered(client, game, ada, bob)
    client.force_login(bob)
    assert client.get(f"/games/{game.pk}/trades/{offer.pk}/accept/").status_code == 405
    offer.refresh_from_db()
    assert offer.status == "open"


def test_a_proposal_without_the_csrf_token_is_refused(game: Any, ada: Any, bob: Any) -> None:
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(ada)
    response = strict.post(f"/games/{game.pk}/trades/", {"trade": _pays(game, ada, bob)})
    assert response.status_code == 403
    assert not TradeOffer.objects.filter(game=game).exists()


def _local(when: Any) -> str:
    """A time as a browser's datetime-local input sends it (the site's time zone)."""
    from django.utils import timezone

    return str(timezone.localtime(when).strftime("%Y-%m-%dT%H:%M"))


def test_the_typed_offer_takes_an_expiry_time(client: Any, game: Any, ada: Any, bob: Any) -> None:
    from datetime import timedelta

    from django.utils import timezone

    page = _page(client, game, ada)
    form = page[page.index('id="trade-form"') :]
    assert 'name="expires_at"' in form and 'type="datetime-local"' in form
    at = (timezone.now() + timedelta(days=2)).replace(second=0, microsecond=0)
    response = client.post(
        f"/games/{game.pk}/trades/", {"trade": _pays(game, ada, bob), "expires_at": _local(at)}
    )
    assert response.status_code == 302
    assert TradeOffer.objects.get(game=game).expires_at == at


@pytest.mark.parametrize(
    ("when", "said"),
    [
        ("tomorrow-ish", "Give the expiry as a date and a time"),
        ("past", "An offer expires in the future: choose a later time"),
        ("too late", "An offer expires within 7 days: choose an earlier time"),
    ],
)
def test_a_bad_expiry_time_is_refused_on_the_page_and_nothing_is_written(
    client: Any, game: Any, ada: Any, bob: Any, when: str, said: str
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    sent = {
        "past": _local(timezone.now() - timedelta(minutes=5)),
        "too late": _local(timezone.now() + timedelta(days=8)),
    }.get(when, when)
    before = footprint(game)
    client.force_login(ada)
    response = client.post(
        f"/games/{game.pk}/trades/", {"trade": _pays(game, ada, bob), "expires_at": sent}
    )
    assert response.status_code == 400
    assert said in page_text(response.content.decode())
    assert footprint(game) == before


def test_the_parties_read_an_offer_in_words_and_who_declined_it_in_their_language(
    client: Any, game: Any, ada: Any, bob: Any
) -> None:
    """The other party reads what they would accept in sentences (it was the notation
    only), and a declined offer says by whom in the reader's language (it said "declined
    by <name>" in English to everyone)."""
    for user in (ada, bob):
        user.language = "fr"
        user.save(update_fields=["language"])
    offer = _offered(client, game, ada, bob)
    payer = game.seats.get(user=ada)
    page = page_text(_page(client, game, bob))
    said = page[page.index("Offres d'échange") :]
    assert f"{payer.name} (" in said and " paie 2" in said and f" à {bob.name} (" in said
    assert f"{payer.name}, en attente" in said  # (an open offer: not a game's "libre")

    _answer(client, game, bob, offer, "decline")
    offer.refresh_from_db()
    page = page_text(_page(client, game, ada))
    assert f"refusée (par {bob.name})" in page and "declined by" not in page
    assert offer.message == "" and offer.closed_by == game.seats.get(user=bob)


def test_a_refused_proposal_puts_the_player_on_the_trade_field(client: Any, game: Any) -> None:
    """The page came back with the focus in the move box, at the top of the page, far from
    the refusal below the board: a keyboard or screen-reader user did not find it."""
    player = game.seats.get(to_act=True).user
    response = _propose(client, game, player, "give nonsense")
    page = response.content.decode()
    fields = re.findall(r"<textarea [^>]*>", page)
    focused = [f for f in fields if " autofocus" in f]
    assert len(focused) == 1 and 'name="trade"' in focused[0], fields
    assert 'aria-invalid="true"' in focused[0] and "trade-error" in focused[0]


def test_a_refused_command_marks_the_move_box_invalid(client: Any, game: Any) -> None:
    player = game.seats.get(to_act=True).user
    client.force_login(player)
    sent = {"text": "build Z9 sphinx", "expected_version": game.version, "idempotency_key": "k1"}
    page = client.post(f"/games/{game.pk}/", sent).content.decode()
    assert 'id="move-error"' in page
    [box] = re.findall(r'<textarea name="text" id="id_text"[^>]*>', page)
    assert 'aria-invalid="true"' in box and "move-error" in box


def test_an_expired_offer_reads_expired_once_in_the_reader_s_language(
    client: Any, game: Any, ada: Any, bob: Any
) -> None:
    """It read "expirée (expired)": the status, then the stored code as a note."""
    from django.utils import timezone

    from games.services import offers

    offer = _offered(client, game, ada, bob)
    offers.expire_all([offer], timezone.now())
    ada.language = "fr"
    ada.save(update_fields=["language"])
    line = re.search(rf'<li id="offer-{offer.pk}">.*?</li>', _page(client, game, ada), re.S)
    assert line is not None
    text = page_text(line.group(0))
    assert "expirée" in text and "expired" not in text, text


def test_a_stranger_learns_no_offer_of_a_private_game(
    client: Any, make_game: Any, ada: Any, bob: Any, dee: Any
) -> None:
    """An offer that exists and one that does not are answered alike: the private game's
    refusal, before the offer is looked up."""
    game = make_game(ada, bob, game_type="lords-of-vegas", private=True)
    offer = _offered(client, game, ada, bob)
    stranger = Client()
    stranger.force_login(dee)
    for verb in ("accept", "decline", "withdraw"):
        answers = set()
        for offer_id in (offer.pk, offer.pk + 1000):
            response = stranger.post(f"/games/{game.pk}/trades/{offer_id}/{verb}/")
            text = page_text(response.content.decode())
            assert f"Game #{game.pk} is private" in text, text
            answers.add((response.status_code, text))
        assert len(answers) == 1, answers
    offer.refresh_from_db()
    assert offer.status == TradeOffer.Status.OPEN


def test_each_offers_buttons_are_named_for_it(client: Any, game: Any, ada: Any, bob: Any) -> None:
    """A screen reader's list of buttons told two offers' "Accept" apart by nothing: each
    answer now ends with its offer's number (hidden on the screen, beside the offer)."""
    from games import services

    first = services.propose_trade(game=game, user=bob, text=_pays(game, bob, ada, 1))
    second = services.propose_trade(game=game, user=bob, text=_pays(game, bob, ada, 2))
    html = _page(client, game, ada)
    names = [
        page_text(b).strip()
        for b in re.findall(r"<button[^>]*>(.*?)</button>", html[html.index('id="trades"') :])
    ]
    for answer in ("Accept", "Decline"):
        assert f"{answer} #{first.pk}" in names and f"{answer} #{second.pk}" in names


def test_a_fourth_open_offer_is_refused_on_the_page(
    client: Any, game: Any, ada: Any, bob: Any
) -> None:
    for _ in range(3):
        assert _propose(client, game, ada, _pays(game, ada, bob)).status_code == 302
    before = footprint(game)
    response = _propose(client, game, ada, _pays(game, ada, bob))
    assert response.status_code == 409
    page = response.content.decode()
    assert 'id="trade-error"' in page
    assert (
        f"You already have 3 open trade offers in game #{game.pk}, the most at once: wait "
        "for their answers or withdraw one before proposing another"
    ) in page_text(page)
    assert footprint(game) == before
    # (beside the trade it refuses, which keeps the focus)
    assert page.index('id="trade-error"') > page.index('id="h-trades"')
    assert page.index('id="trade-error"') < page.index('id="trade-form"')
    assert page.index('id="trade-error"') > page.index('id="offer-')


def test_a_refused_answer_to_an_offer_is_said_at_the_offers(
    client: Any, game: Any, ada: Any, bob: Any, cy: Any
) -> None:
    """Found by review: an answer's refusal followed the proposal's to the form below, far
    from the offer it was about, and put the focus on the empty trade field."""
    offer = _offered(client, game, ada, bob)
    page = _answer(client, game, cy, offer, "accept").content.decode()
    assert page.index('id="trade-error"') < page.index(f'id="offer-{offer.pk}"')
    assert 'aria-invalid="true"' not in page.split('id="trade-form"')[1].split("</form>")[0]


def test_the_typed_expiry_is_the_players_own_time(
    client: Any, game: Any, ada: Any, bob: Any
) -> None:
    """The page shows times in the player's zone, and the time they type is read in it too
    (it was read as UTC: 18:00 typed in Paris was 19:00 there)."""
    from datetime import timedelta
    from zoneinfo import ZoneInfo

    from django.utils import timezone

    ada.time_zone = "Europe/Paris"
    ada.save(update_fields=["time_zone"])
    _page(client, game, ada)
    paris = ZoneInfo("Europe/Paris")
    at = (timezone.now() + timedelta(days=2)).astimezone(paris).replace(second=0, microsecond=0)
    typed = at.strftime("%Y-%m-%dT%H:%M")  # (a datetime-local input: no zone)
    response = client.post(
        f"/games/{game.pk}/trades/", {"trade": _pays(game, ada, bob), "expires_at": typed}
    )
    assert response.status_code == 302
    assert TradeOffer.objects.get(game=game).expires_at == at
