"""What the season play-test found (docs/decisions/0036), as a league's admin and its
players see it: the pages, the emails (a real SMTP server) and what they can click.

- "Open the next season" twice (a double click) made two drafts of the same players, both
  startable, and sent the admin back to the finished season, its button still there.
- "remove" took a member out at one click, told them nothing, and their league page
  offered "Join the league" again; the owner saw "remove" on their own row.
- A season's start emailed "X joined" for every seat of every game, and no start email
  named the league or the season.
- Closing a season told nobody, its page showed no final table, a season game's
  game-over email did not name the league, and its board page did not link to its season.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.models import Game
from leagues import services as leagues
from leagues.models import League, Membership, Season
from tests.leagues.conftest import play_to_the_end
from tests.leagues.test_taking_people_in import _post
from tests.notifications.conftest import Inbox, smtp, text_part  # noqa: F401
from tests.web.helpers import page_text

BASE = "/leagues/vegas-nights"


def _signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _finished(season: Season, ada: User) -> Season:
    """The season started, its games played to the end, closed."""
    leagues.start_season(season=season, by=ada, seed="play-test")
    for game in Game.objects.filter(season_game__season=season):
        play_to_the_end(game)
    return leagues.finish_season(season=season, by=ada)


# -- 1. the next season, once ---------------------------------------------------------------


@pytest.mark.django_db
def test_opening_the_next_season_twice_opens_one_and_the_admin_lands_on_it(
    season_with: Callable[..., Season], ada: User, bob: User, cy: User
) -> None:
    first = _finished(season_with(bob, cy, players_per_game=2), ada)
    admin = _signed_in(ada)
    url = f"{BASE}/seasons/{first.number}/next/"

    _, landed, said, page = _post(admin, url, {})
    assert landed == f"{BASE}/seasons/2/"
    assert said == "The next season is open: its players are entered, promoted and relegated."
    assert "Season 2 · Vegas Nights" in page and "2 players entered" in page

    _, again, said, _ = _post(admin, url, {})  # the double click
    assert again == f"{BASE}/seasons/2/"
    assert said == "The next season was opened already: here it is."
    assert list(first.league.seasons.values_list("number", flat=True)) == [2, 1]

    html = admin.get(f"{BASE}/seasons/{first.number}/").content.decode()
    assert 'id="next-season"' not in html
    assert "The next season: Season 2 — draft" in page_text(html)


@pytest.mark.django_db
def test_the_service_opens_one_next_season_however_often_it_is_asked(
    season_with: Callable[..., Season], ada: User, bob: User, cy: User
) -> None:
    """Every door (the API, the Django admin, tools) gets the same answer: the season the
    first request opened, its entries not doubled."""
    first = _finished(season_with(bob, cy, players_per_game=2), ada)
    opened = leagues.next_season(season=first, by=ada)
    again = leagues.next_season(season=first.pk, by=ada)
    assert again.pk == opened.pk and again.entries.count() == 2
    assert first.league.seasons.count() == 2


@pytest.mark.django_db
def test_a_next_season_opened_before_the_fix_is_found_not_opened_again(
    season_with: Callable[..., Season], ada: User, bob: User, cy: User
) -> None:
    """Found by review: a season whose next one was opened before seasons kept their
    ``previous`` showed the button again; the migration links them."""
    from django.apps import apps

    first = _finished(season_with(bob, cy, players_per_game=2), ada)
    opened = leagues.open_season(league=first.league, by=ada)  # (as the old button did)
    migration = importlib.import_module("leagues.migrations.0006_link_next_seasons")
    migration.link_next_seasons(apps, None)
    assert leagues.next_season(season=first, by=ada).pk == opened.pk
    assert first.league.seasons.count() == 2


@pytest.mark.django_db
def test_the_migration_links_a_next_season_to_the_season_whose_button_opened_it(
    season_with: Callable[..., Season], ada: User, bob: User, cy: User
) -> None:
    """Found by a second review: season 2 opened while season 1 ran, then season 3 from
    season 2's button; the migration gave season 3 to season 1, and season 2 kept its
    button."""
    from django.apps import apps
    from django.utils import timezone

    first = season_with(bob, cy, players_per_game=2)
    second = leagues.open_season(league=first.league, by=ada)
    for user in (bob, cy):
        leagues.enter_season(season=second, user=user)
    first = _finished(first, ada)
    second = _finished(second, ada)
    third = leagues.open_season(league=first.league, by=ada)  # (as the old button did)
    now = timezone.now()
    Season.objects.filter(pk=first.pk).update(finished_at=now - timedelta(days=3))
    Season.objects.filter(pk=second.pk).update(
        created_at=now - timedelta(days=5), finished_at=now - timedelta(days=1)
    )
    Season.objects.filter(pk=third.pk).update(created_at=now)
    migration = importlib.import_module("leagues.migrations.0006_link_next_seasons")
    migration.link_next_seasons(apps, None)
    assert Season.objects.get(pk=third.pk).previous_id == second.pk
    assert leagues.next_season(season=second, by=ada).pk == third.pk


# -- 2. removing a member ---------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_removed_member_is_asked_about_told_and_comes_back_only_invited(
    season_with: Callable[..., Season],
    league: League,
    ada: User,
    bob: User,
    cy: User,
    smtp: Inbox,  # noqa: F811
) -> None:
    season = season_with(bob, cy, players_per_game=2)
    leagues.start_season(season=season, by=ada)
    [game] = Game.objects.filter(season_game__season=season)
    admin = _signed_in(ada)
    leagues.join_league(league=league, user=ada)  # (the owner plays too)

    manage = admin.get(f"{BASE}/manage/").content.decode()
    assert "bob remove cy remove ada owner Invite" in page_text(manage)
    assert f"/members/{ada.pk}/remove/" not in manage

    started = len(smtp.wait_for(2))  # (the game's start, to bob and cy)
    remove = f"{BASE}/manage/members/{bob.pk}/remove/"
    asked = page_text(admin.get(remove).content.decode())
    assert "Remove bob from Vegas Nights?" in asked
    assert (
        f"their game already started goes on (the game tools can replace them in it): #{game.pk}"
        in asked
    )
    assert (
        "they cannot join again by themselves: an invitation from an admin brings them back"
        in asked
    )
    assert Membership.objects.filter(league=league, user=bob).exists()  # (a GET changes nothing)

    _, _, said, _ = _post(admin, remove, {})
    assert (
        said == "Bob is no longer a member: they are told by email."
    )  # (flashes start with a capital)
    [told] = smtp.wait_for(started + 1)[started:]
    assert told["To"] == bob.email
    assert told["Subject"] == "You are no longer a member of Vegas Nights"
    assert "Your game already started in the league goes on" in text_part(told)
    Game.objects.get(pk=game.pk, status=Game.Status.ACTIVE)  # their game goes on

    player = _signed_in(bob)
    page = player.get(f"{BASE}/").content.decode()
    assert 'id="join"' not in page
    assert "An admin removed you from this league" in page_text(page)
    player.post(f"{BASE}/join/")
    said = page_text(player.get(f"{BASE}/").content.decode())
    assert "an invitation from one of its admins" in said
    assert not Membership.objects.filter(league=league, user=bob).exists()

    _, _, said, _ = _post(admin, f"{BASE}/manage/members/{ada.pk}/remove/", {})
    assert said == 'To leave the league, use "Leave the league" on its page'
    assert Membership.objects.filter(league=league, user=ada).exists()


@pytest.mark.django_db(transaction=True)
def test_the_removal_email_is_in_the_players_language_and_an_invitation_brings_them_back(
    league: League,
    ada: User,
    named: Any,
    smtp: Inbox,  # noqa: F811
) -> None:
    bob = named("bob", language="it")
    leagues.join_league(league=league, user=bob)
    _post(_signed_in(ada), f"{BASE}/manage/members/{bob.pk}/remove/", {})
    [told] = smtp.wait_for(1)
    assert text_part(told).startswith("Ciao Bob,")  # (in Italian; its new sentences: 0036)
    assert "/leagues/vegas-nights/" in text_part(told)

    _post(_signed_in(ada), f"{BASE}/manage/members/", {"member-who": "Bob"})
    invitation = league.invitations.get(invitee=bob)
    _signed_in(bob).post(f"/leagues/invitations/{invitation.token}/")
    assert Membership.objects.filter(league=league, user=bob).exists()
    page = _signed_in(bob).get(f"{BASE}/").content.decode()
    assert f'action="{BASE}/leave/"' in page and 'id="removed"' not in page


@pytest.mark.django_db
def test_an_admin_is_not_removed_the_owner_dismisses_them_first(
    league: League, ada: User, bob: User, cy: User
) -> None:
    """Found by review: Cy, an admin, removed Bob, an admin; Bob kept the role (only the
    owner dismisses an admin, 0014) and took himself back in as any admin may."""
    for admin in (bob, cy):
        leagues.join_league(league=league, user=admin)
        league.admins.add(admin)
    other = _signed_in(cy)
    manage = other.get(f"{BASE}/manage/").content.decode()
    assert f"/members/{bob.pk}/remove/" not in manage
    assert "bob admin" in page_text(manage)
    remove = f"{BASE}/manage/members/{bob.pk}/remove/"
    asked = other.get(remove, follow=True)  # (no page to say yes on: said on the admin's)
    assert asked.redirect_chain == [(f"{BASE}/manage/", 302)]
    assert "Bob is an admin of the league" in page_text(asked.content.decode())
    _, _, said, _ = _post(other, remove, {})
    assert said == (
        "Bob is an admin of the league 'Vegas Nights': its owner dismisses them as an admin first"
    )
    assert Membership.objects.filter(league=league, user=bob).exists()
    assert league.admins.filter(pk=bob.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_a_leagues_name_is_written_as_typed_in_its_emails_subjects(
    ada: User,
    named: Any,
    smtp: Inbox,  # noqa: F811
) -> None:
    """Found by review: "You are no longer a member of Tom &amp; Jerry&#x27;s"."""
    tom = leagues.create_league(creator=ada, name="Tom & Jerry's <1>", game_type="vegas")
    bob = named("bob")
    leagues.join_league(league=tom, user=bob)
    _post(_signed_in(ada), f"/leagues/{tom.slug}/manage/members/{bob.pk}/remove/", {})
    [told] = smtp.wait_for(1)
    assert told["Subject"] == "You are no longer a member of Tom & Jerry's <1>"


@pytest.mark.django_db
def test_a_removal_withdraws_an_invitation_still_waiting_for_them(
    league: League, ada: User, named: Any
) -> None:
    """Found by review: an invitation sent before the removal brought them straight back."""
    bob = named("bob")
    admin = _signed_in(ada)
    _post(admin, f"{BASE}/manage/members/", {"member-who": bob.email})  # (waiting)
    invitation = league.invitations.get()
    leagues.join_league(league=league, user=bob)  # (open league: he joined without it)
    _post(admin, f"{BASE}/manage/members/{bob.pk}/remove/", {})
    _signed_in(bob).post(f"/leagues/invitations/{invitation.token}/")
    assert not Membership.objects.filter(league=league, user=bob).exists()


# -- 3. a season's start: no "joined", and the league named -----------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_seasons_start_sends_no_joined_email_and_names_the_league(
    season_with: Callable[..., Season],
    ada: User,
    bob: User,
    cy: User,
    dee: User,
    make_user: Any,
    smtp: Inbox,  # noqa: F811
) -> None:
    eve = make_user("eve")
    season = season_with(bob, cy, dee, eve, players_per_game=2, name="Autumn")
    _, _, said, _ = _post(_signed_in(ada), f"{BASE}/seasons/{season.number}/start/", {})
    assert said == "The season has started: its games are drawn."
    assert Game.objects.filter(season_game__season=season).count() == 6
    mails = smtp.wait_for(13, timeout=3)
    assert len(mails) == 12, sorted(m["Subject"] for m in mails)  # a seat each, no "joined"
    for message in mails:
        assert "joined" not in message["Subject"]
        assert "has started" in text_part(message)
        assert "League Vegas Nights, season Autumn" in text_part(message)


# -- 4. a season's end ------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_closing_a_season_tells_each_player_their_place_and_shows_the_final_table(
    season_with: Callable[..., Season],
    ada: User,
    bob: User,
    cy: User,
    smtp: Inbox,  # noqa: F811
) -> None:
    season = season_with(bob, cy, players_per_game=2)
    leagues.start_season(season=season, by=ada, seed="play-test")
    [game] = Game.objects.filter(season_game__season=season)
    board = page_text(_signed_in(bob).get(f"/games/{game.pk}/").content.decode())
    assert "League Season 1 · Vegas Nights" in board
    html = _signed_in(bob).get(f"/games/{game.pk}/").content.decode()
    assert f'id="season-link" href="{BASE}/?season=1"' in html

    play_to_the_end(game)
    over = [m for m in smtp.wait_for(100, timeout=2) if "is over" in text_part(m)]
    assert {m["To"] for m in over} == {bob.email, cy.email}
    assert all("League Vegas Nights, season 1" in text_part(m) for m in over)
    before = len(smtp.messages)

    admin = _signed_in(ada)
    _, _, said, page = _post(admin, f"{BASE}/seasons/1/finish/", {})
    assert said == "The season is finished."
    table = re.search(
        r"Final standings Standings table # Player Played Wins Points Rating (.*?) Games", page
    )
    assert table, page
    assert re.fullmatch(r"1 (bob|cy) 1 1 1 [-\d.]+ 2 (bob|cy) 1 0 0 [-\d.]+", table.group(1))

    told = smtp.wait_for(before + 2)[before:]
    assert {m["To"] for m in told} == {bob.email, cy.email}
    winner = table.group(1).split()[1].lower()
    for message in told:
        body = text_part(message)
        assert "Season 1 of the league Vegas Nights is over." in body
        place = "1" if message["To"].startswith(winner) else "2"
        assert f"Your final place: {place} of 2." in body
        assert f"[Vegas Nights] Season 1 is over: your place, {place} of 2" == message["Subject"]
        assert "/leagues/vegas-nights/?season=1" in body
