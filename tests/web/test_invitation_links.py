"""An invitation's link seats whoever follows it and verifies no address: the inviter is not
handed the token, and a sign-up or an answer through the link leaves the invited address
to whoever confirms it through allauth's own email (docs/decisions/0024)."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client

from games import services
from games.models import Game, Seat
from games.services.errors import InvalidRequest
from tests.api.helpers import Player, body, make_player
from tests.web.signing_up import fill_in, sign_up

pytestmark = pytest.mark.django_db


def _fresh(name: str) -> str:
    """A new address each run: allauth's rate limits live in the shared cache."""
    return f"{name}-{uuid.uuid4().hex[:12]}@example.org"


@pytest.fixture
def dee() -> Player:
    return make_player("dee")


def _invite_by_api(dee: Player, email: str, capture: Any) -> tuple[Game, dict[str, Any], str]:
    """Dee's private game and her invitation of ``email`` through the API: the game, her
    answer, and the link the invitation email carries."""
    game = body(dee.post("/games/", {"game_type": "vegas", "seats": 3, "private": True}))
    with capture(execute=True):
        answer = dee.post(f"/games/{game['id']}/invitations/", {"email": email})
    assert answer.status_code == 201, answer.content
    (sent,) = [m for m in mail.outbox if email in m.to]
    link = re.search(r"https?://\S+(/games/invitations/[\w-]+/)", str(sent.body))
    assert link is not None, sent.body
    return Game.objects.get(pk=game["id"]), body(answer), link.group(1)


def _sign_up(client: Client, email: str, then: str = "/") -> None:
    """Sign up through the link and type the code mailed: they end where they were going."""
    assert sign_up(client, email, then=then)["Location"] == then


def _addresses(client: Client) -> str:
    """The addresses page of the signed-in account, as its owner reads it."""
    return re.sub(r"\s+", " ", client.get("/accounts/email/").content.decode())


def test_the_inviter_is_not_handed_the_link(
    dee: Player, django_capture_on_commit_callbacks: Any
) -> None:
    victim = _fresh("victim")
    _game, answer, link = _invite_by_api(dee, victim, django_capture_on_commit_callbacks)
    assert answer["email"] == victim  # what she typed
    assert "token" not in answer
    assert link.split("/")[-2] not in str(answer)


def test_signing_up_through_a_link_takes_no_one_s_address(
    dee: Player, django_capture_on_commit_callbacks: Any
) -> None:
    """The privacy tester's case: whoever holds the link (before the fix: the inviter, from
    the API's answer) signs up through it with their own address."""
    victim, mallory = _fresh("victim"), _fresh("mallory")
    game, _answer, link = _invite_by_api(dee, victim, django_capture_on_commit_callbacks)
    visitor = Client()
    assert visitor.get(link).status_code == 200
    _sign_up(visitor, mallory, then=link)
    assert victim not in _addresses(visitor)
    assert not EmailAddress.objects.filter(email__iexact=victim).exists()

    visitor.post(link + "accept/")  # the link seats whoever follows it...
    assert Seat.objects.filter(game=game, user__email=mallory).exists()
    assert victim not in _addresses(visitor)  # ...and still verifies nothing

    the_victim = Client()  # the address's owner can still sign up with it
    _sign_up(the_victim, victim)
    assert victim in _addresses(the_victim)


def test_answering_through_a_link_does_not_verify_the_address(
    dee: Player, django_capture_on_commit_callbacks: Any
) -> None:
    """A signed-in account that added the invited address without confirming it, then
    answers through the link: the address stays unconfirmed (it opens nothing)."""
    victim, mallory = _fresh("victim"), _fresh("mallory")
    game, _answer, link = _invite_by_api(dee, victim, django_capture_on_commit_callbacks)
    client = Client()
    _sign_up(client, mallory)
    added = client.post("/accounts/email/", {"email": victim, "action_add": ""})
    assert added.status_code == 302, added.content
    client.post(link + "accept/")
    assert Seat.objects.filter(game=game, user__email=mallory).exists()
    # (with codes, allauth keeps an added address in the session until its code is typed)
    assert not EmailAddress.objects.filter(email__iexact=victim, verified=True).exists()


def test_a_sign_up_never_confirmed_does_not_take_the_invitation(
    dee: Player, django_capture_on_commit_callbacks: Any
) -> None:
    """Found by review of decision 0034: the invitation was claimed when the account was
    made, before its code; a newcomer who mistyped their address (no code ever came) and
    signed up again with the right one found the invitation "for another account"."""
    typo, right = _fresh("viktor"), _fresh("victor")
    game, _answer, link = _invite_by_api(dee, right, django_capture_on_commit_callbacks)
    first = Client()
    assert first.get(link).status_code == 200
    assert fill_in(first, typo, then=link, name="Vik").status_code == 302  # no code comes
    again = Client()  # (the newcomer tries again from the email's link)
    assert again.get(link).status_code == 200
    _sign_up(again, right, then=link)
    assert "another account" not in again.get(link).content.decode()
    again.post(link + "accept/")
    assert Seat.objects.filter(game=game, user__email=right).exists()


def test_an_account_never_confirmed_is_not_found_by_name(
    dee: Player, django_capture_on_commit_callbacks: Any
) -> None:
    """Found by review of decision 0034: anyone could sign up with a stranger's address and a
    name, never type the code, and the invitations by that name were mailed to the stranger."""
    stranger = _fresh("stranger")
    assert fill_in(Client(), stranger, name="Famous Player").status_code == 302
    mail.outbox.clear()
    game = body(dee.post("/games/", {"game_type": "vegas", "seats": 3, "private": True}))
    with pytest.raises(InvalidRequest, match="no player is called 'Famous Player'"):
        services.invite_player(game=game["id"], by=dee.user, who="Famous Player")
    assert not [m for m in mail.outbox if stranger in m.to]
