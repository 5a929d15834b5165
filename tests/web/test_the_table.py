"""The open table on the web: bots, Start offered only when it works, leaving, invitations
(by name or address, accepted, declined, withdrawn) and resigning, each refusal said and
changing nothing. Emails through a real SMTP server."""

from __future__ import annotations

import re
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.test import Client

from games import services
from games.models import Game, Invitation, Move, Seat
from tests.notifications.conftest import text_part
from tests.web.helpers import page_text
from tests.web.signing_up import CODE, fill_in

pytestmark = pytest.mark.django_db(transaction=True)


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _open(ada: Any, seats: int = 3, game_type: str = "lords-of-vegas", **kw: Any) -> Game:
    return services.create_game(creator=ada, game_type=game_type, seats=seats, **kw)


def _link(message: Any) -> str:
    found = re.search(r"https?://\S+/games/invitations/([\w-]+)/", text_part(message))
    assert found, text_part(message)
    return f"/games/invitations/{found.group(1)}/"


def test_start_is_offered_only_once_it_works_and_says_why_not(ada, bob):
    game = _open(ada)
    page = page_text(_client(ada).get(f"/games/{game.pk}/").content.decode())
    assert "Start the game" not in page
    assert "Not ready to start: Lords of Vegas needs at least 2 players; 1 seated." in page
    refused = _client(ada).post(f"/games/{game.pk}/start/", follow=True)
    assert "needs at least 2 players" in page_text(refused.content.decode())
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN
    services.join_game(game=game, user=bob)
    assert "Start the game" in page_text(_client(ada).get(f"/games/{game.pk}/").content.decode())
    assert "Start the game" not in page_text(
        _client(bob).get(f"/games/{game.pk}/").content.decode()
    )


def test_a_bot_is_added_with_its_line_and_removed_before_the_start(ada):
    game = _open(ada)
    client = _client(ada)
    page = page_text(client.get(f"/games/{game.pk}/").content.decode())
    assert "Add a greedy bot" in page and "never plans ahead" in page
    client.post(f"/games/{game.pk}/bots/", {"bot": "greedy"})
    bot = Seat.objects.get(game=game, bot="greedy")
    page = page_text(client.get(f"/games/{game.pk}/").content.decode())
    assert "Remove greedy bot" in page and "Start the game" in page
    client.post(f"/games/{game.pk}/bots/{bot.order}/remove/")
    assert not Seat.objects.filter(game=game, bot="greedy").exists()


@pytest.mark.parametrize(
    ("language", "add", "seated"),
    [
        ("fr", "Ajouter un bot glouton", "Un bot glouton a pris une place."),
        ("it", "Aggiungi un bot avido", "bot avido"),
    ],
)
def test_a_bots_name_is_in_the_readers_language(
    ada: Any, language: str, add: str, seated: str
) -> None:
    """The engines name their bots in English ("greedy"): a French page said "Ajouter un
    bot greedy" and seated a "bot greedy"."""
    ada.language = language
    ada.save(update_fields=["language"])
    game = _open(ada)
    client = _client(ada)
    assert add in page_text(client.get(f"/games/{game.pk}/").content.decode())
    response = client.post(f"/games/{game.pk}/bots/", {"bot": "greedy"}, follow=True)
    page = page_text(response.content.decode())
    assert seated in page and "greedy" not in page


def test_leaving_before_the_start_frees_the_seat_and_after_is_refused(ada, bob, smtp):
    game = _open(ada)
    services.join_game(game=game, user=bob)
    _client(bob).post(f"/games/{game.pk}/leave/")
    assert not Seat.objects.filter(game=game, user=bob).exists()
    told = smtp.wait_for(2)
    assert [m["Subject"] for m in smtp.to(ada.email)] == [
        f"[Lords #{game.pk}] bob joined Lords of Vegas #{game.pk}",
        f"[Lords #{game.pk}] bob left Lords of Vegas #{game.pk}",
    ], told
    services.join_game(game=game, user=bob)
    services.start_game(game=game, by=ada)
    answer = _client(bob).post(f"/games/{game.pk}/leave/", follow=True)
    assert "seats change only before the start" in page_text(answer.content.decode())
    assert Seat.objects.filter(game=game, user=bob).exists()


def test_resigning_asks_first_and_twice_is_refused(make_game, ada, bob, cy):
    game = make_game(ada, bob, cy)
    client = _client(bob)
    page = page_text(client.get(f"/games/{game.pk}/resign/").content.decode())
    assert "a bot takes your seat" in page and "you rank last" in page
    client.post(f"/games/{game.pk}/resign/")
    assert Seat.objects.get(game=game, user=bob).resigned
    version = Game.objects.get(pk=game.pk).version
    again = client.post(f"/games/{game.pk}/resign/")
    assert again.status_code == 409
    assert "You have already resigned from game" in page_text(again.content.decode())
    assert Game.objects.get(pk=game.pk).version == version


def test_resigning_at_two_players_says_the_game_ends_and_who_wins(make_game, ada, bob):
    """At two players a resignation ends the game: every text said a bot plays on, and
    the finished board still showed a turn to play."""
    bob.display_name = "Bob"
    bob.save()
    game = make_game(ada, bob, game_type="lords-of-vegas")
    client = _client(ada)
    page = page_text(client.get(f"/games/{game.pk}/resign/").content.decode())
    assert "the game ends: Bob, the one player left, wins" in page
    assert "a bot takes your seat" not in page
    answer = page_text(client.post(f"/games/{game.pk}/resign/", follow=True).content.decode())
    assert "the game is over" in answer and "a bot plays your seat on" not in answer
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert Move.objects.get(game=game, text="resign").source == "web"  # (it read "system")
    assert "resigned; the game ends" in answer and "a bot plays the seat on" not in answer
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="turn-steps"' not in page
    result = re.search(r'<section[^>]*id="result".*?</section>', page, re.S)
    assert result is not None
    lines = [page_text(li) for li in re.findall(r"<li>.*?</li>", result.group(0), re.S)]
    assert [line.split()[0] for line in lines] == ["1st", "2nd"]  # (no list number before)
    assert "resigned" in lines[1] and "resigned" not in lines[0], lines


def test_an_invitation_by_name_is_emailed_accepted_and_shown_to_the_creator(ada, bob, smtp):
    bob.display_name = "Bob"
    bob.save()
    game = _open(ada, private=True)
    _client(ada).post(f"/games/{game.pk}/invitations/", {"who": "bob"})
    (mail,) = smtp.wait_for(1)
    assert mail["To"] == bob.email
    assert "invites you to play Lords of Vegas" in mail["Subject"]
    link = _link(mail)
    client = _client(bob)
    assert "Accept: take a seat" in page_text(client.get(link).content.decode())
    client.post(link + "accept/")
    assert Seat.objects.filter(game=game, user=bob).exists()
    page = page_text(_client(ada).get(f"/games/{game.pk}/").content.decode())
    assert "Bob — accepted" in page


def test_a_declined_invitation_is_shown_as_such(ada, bob, smtp):
    game = _open(ada)
    invitation = services.invite(game=game, by=ada, email=bob.email)
    _client(bob).post(f"/games/invitations/{invitation.token}/decline/")
    page = page_text(_client(ada).get(f"/games/{game.pk}/").content.decode())
    assert f"{bob.email} — declined" in page  # what Ada typed (not the account behind it)
    assert not Seat.objects.filter(game=game, user=bob).exists()


def test_a_withdrawn_invitation_link_says_so_and_seats_nobody(ada, bob, smtp):
    game = _open(ada, private=True)
    invitation = services.invite(game=game, by=ada, email=bob.email)
    _client(ada).post(f"/games/{game.pk}/invitations/{invitation.pk}/withdraw/")
    client = _client(bob)
    page = client.get(f"/games/invitations/{invitation.token}/")
    assert page.status_code == 403
    assert "was withdrawn by its creator" in page_text(page.content.decode())
    client.post(f"/games/invitations/{invitation.token}/accept/")
    assert not Seat.objects.filter(game=game, user=bob).exists()


def test_a_link_opened_by_another_signed_in_account_changes_nothing(ada, bob, cy, smtp):
    game = _open(ada, private=True)
    invitation = services.invite(game=game, by=ada, email=bob.email)
    client = _client(cy)
    page = client.get(f"/games/invitations/{invitation.token}/")
    text = page_text(page.content.decode())
    assert page.status_code == 403
    assert f"is for another account, and you are signed in as {cy.email}" in text
    client.post(f"/games/invitations/{invitation.token}/accept/")
    client.post(f"/games/invitations/{invitation.token}/decline/")
    invitation.refresh_from_db()
    assert invitation.is_pending and not Seat.objects.filter(game=game, user=cy).exists()


def test_inviting_to_a_full_or_started_game_is_refused(ada, bob, cy, make_game):
    full = _open(ada, seats=2)
    services.join_game(game=full, user=bob)
    answer = _client(ada).post(f"/games/{full.pk}/invitations/", {"who": cy.email}, follow=True)
    assert "is full (2 of 2 seats taken)" in page_text(answer.content.decode())
    started = make_game(ada, bob)
    answer = _client(ada).post(f"/games/{started.pk}/invitations/", {"who": cy.email}, follow=True)
    assert "seats change only before the start" in page_text(answer.content.decode())
    assert not Invitation.objects.exists()


def test_a_link_to_a_full_or_started_game_says_so(ada, bob, cy, smtp):
    game = _open(ada, seats=2)
    invitation = services.invite(game=game, by=ada, email=cy.email)
    services.join_game(game=game, user=bob)
    page = _client(cy).get(f"/games/invitations/{invitation.token}/")
    assert "is full (2 of 2 seats taken)" in page_text(page.content.decode())
    services.start_game(game=game, by=ada)
    page = _client(cy).get(f"/games/invitations/{invitation.token}/")
    assert "is active: this invitation can no longer seat anyone" in page_text(
        page.content.decode()
    )
    assert not Seat.objects.filter(game=game, user=cy).exists()


def test_a_new_person_signs_up_through_the_link_and_confirms_the_address_as_anyone(ada, smtp):
    """The link seats the new account; the address waits for allauth's confirmation code like
    any other (the link proves nothing about a mailbox, 0024), and once it is typed the
    newcomer is back on the invitation (0034)."""
    game = _open(ada, private=True)
    services.invite(game=game, by=ada, email="new@example.org")
    (mail,) = smtp.wait_for(1)
    link = _link(mail)
    visitor = Client()
    page = page_text(visitor.get(link).content.decode())
    assert "To answer, sign up (it takes a minute) or sign in." in page
    signed_up = fill_in(visitor, "new@example.org", then=link, name="Newcomer")
    assert signed_up["Location"] == "/accounts/confirm-email/"
    assert not EmailAddress.objects.get(email="new@example.org").verified
    (_invitation, confirmation) = smtp.wait_for(2)
    code = CODE.search(text_part(confirmation))
    assert code is not None, text_part(confirmation)
    typed = visitor.post("/accounts/confirm-email/", {"code": code.group(1)})
    assert typed["Location"] == link
    assert EmailAddress.objects.get(email="new@example.org").verified
    visitor.post(link + "accept/")
    assert Seat.objects.filter(game=game, user__email="new@example.org").exists()


def test_an_invitation_by_address_is_said_without_capitalising_it_and_names_the_edition(
    ada, bob, smtp
):
    """ "Eve@example.org is invited" capitalised an address (the message starts a
    sentence); neither the invitation page nor the invitations to answer said the edition."""
    game = _open(ada, private=True, options={"edition": "classic"})
    response = _client(ada).post(
        f"/games/{game.pk}/invitations/", {"who": "eve@example.org"}, follow=True
    )
    said = page_text(response.content.decode())
    assert "Invitation sent to eve@example.org: an email with the link is on its way." in said
    (mail,) = smtp.wait_for(1)
    page = page_text(_client(bob).get(_link(mail)).content.decode())
    assert f"An invitation to Lords of Vegas #{game.pk} (classic edition)" in page
    created = _client(ada).post(
        "/games/new/",
        {
            "game_type": "vegas",
            "edition": "standard",
            "seats": 2,
            "invite": bob.email,
            "turn_hours": 72,
        },
        follow=True,
    )
    assert f"Invitation sent to {bob.email}." in page_text(created.content.decode())
    services.invite(game=game, by=ada, email=bob.email)
    lobby = page_text(_client(bob).get("/games/").content.decode())
    assert f"Lords of Vegas #{game.pk} (classic edition)" in lobby
