"""A league's invitation ends (decision 0033): its admin withdraws it from the page, or it
expires after 30 days. Before, an address typed once was a way into the league for good:
whoever the email reached, or was forwarded to, could join years later, and the admin
could not take it back."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client

from accounts.models import User
from leagues.models import League, LeagueInvitation, Mail
from tests.leagues.test_taking_people_in import BASE, NOBODY, _post
from tests.web.helpers import page_text

pytestmark = pytest.mark.django_db

START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def _invite(client: Client, who: str) -> LeagueInvitation:
    _post(client, f"{BASE}/manage/members/", {"member-who": who})
    return LeagueInvitation.objects.latest("pk")


def _follow(user: User, invitation: LeagueInvitation) -> tuple[int, str]:
    """What the person the link reached sees when they try to join with it."""
    them = Client()
    them.force_login(user)
    answer = them.post(f"/leagues/invitations/{invitation.token}/")
    shown = (
        page_text(them.get(answer["Location"]).content.decode())
        if answer.status_code == 302
        else page_text(answer.content.decode())
    )
    return answer.status_code, shown


def test_an_admin_withdraws_an_invitation_and_its_link_seats_nobody(
    league: League, ada: User, cy: User
) -> None:
    admin = Client()
    admin.force_login(ada)
    invitation = _invite(admin, NOBODY)
    page = page_text(admin.get(f"{BASE}/manage/").content.decode())
    assert f"Your invitations waiting for an answer {NOBODY} until " in page

    withdraw = f"{BASE}/manage/invitations/{invitation.pk}/withdraw/"
    _, _, said, page = _post(admin, withdraw, {})
    assert said == f"The invitation to {NOBODY} was withdrawn."
    assert NOBODY not in page

    status, shown = _follow(cy, invitation)  # (the email had reached Cy)
    assert status == 404 and "This invitation is not valid (any more)." in shown
    assert not league.memberships.filter(user=cy).exists()

    # Withdrawn twice (a second tab): said, nothing changes. Typed again: a new one goes.
    _, _, said, _ = _post(admin, withdraw, {})
    assert said == "This invitation is not waiting for an answer any more"
    assert _invite(admin, NOBODY).pk != invitation.pk
    assert Mail.objects.filter(to=NOBODY).count() == 2


def test_only_the_admin_who_sent_it_withdraws_it(
    league: League, ada: User, named: Any, cy: User
) -> None:
    """Another admin sees none of Ada's invitations (0028: an address she typed is hers),
    and cannot withdraw one by its number either."""
    admin = Client()
    admin.force_login(ada)
    invitation = _invite(admin, NOBODY)
    bob = named("bob")
    league.admins.add(bob)
    other = Client()
    other.force_login(bob)
    assert NOBODY not in other.get(f"{BASE}/manage/").content.decode()
    _, _, said, _ = _post(other, f"{BASE}/manage/invitations/{invitation.pk}/withdraw/", {})
    assert said == "This invitation is not waiting for an answer any more"
    invitation.refresh_from_db()
    assert invitation.withdrawn_at is None
    stranger = Client()
    stranger.force_login(cy)  # (not an admin of the league: refused as any admin page is)
    refused = stranger.post(f"{BASE}/manage/invitations/{invitation.pk}/withdraw/")
    assert refused.status_code == 403


def test_an_invitation_expires_after_thirty_days(league: League, ada: User, cy: User) -> None:
    admin = Client()
    admin.force_login(ada)
    with time_machine.travel(START, tick=False) as clock:
        invitation = _invite(admin, NOBODY)
        clock.shift(timedelta(days=29, hours=23))
        page = page_text(admin.get(f"{BASE}/manage/").content.decode())
        assert f"{NOBODY} until Wed 2 Dec, 09:00" in page  # (when it ends, in her zone)
        clock.shift(timedelta(hours=2))
        page = page_text(admin.get(f"{BASE}/manage/").content.decode())
        assert NOBODY not in page

        status, shown = _follow(cy, invitation)
        assert status == 404
        assert (
            "This invitation expired on Wed 2 Dec, 09:00: ask the league's admins for a new one."
            in shown
        )
        assert not league.memberships.filter(user=cy).exists()

        # The admin may send it again: a new link, a new email.
        _, _, said, _ = _post(admin, f"{BASE}/manage/members/", {"member-who": NOBODY})
        assert said == f"Invitation sent to {NOBODY}."
        assert Mail.objects.filter(to=NOBODY).count() == 2


def test_a_dismissed_admins_invitations_go_with_the_role(
    league: League, ada: User, named: Any, cy: User
) -> None:
    """Found by review: they kept seating people for 30 days, and nobody could withdraw
    them (another admin never sees an address an admin typed)."""
    bob = named("bob")
    league.admins.add(bob)
    them = Client()
    them.force_login(bob)
    invitation = _invite(them, NOBODY)
    owner = Client()
    owner.force_login(ada)
    _post(owner, f"{BASE}/manage/admins/{bob.pk}/dismiss/", {})
    status, shown = _follow(cy, invitation)
    assert status == 404 and "This invitation is not valid (any more)." in shown
    assert not league.memberships.filter(user=cy).exists()


def test_the_admin_reads_when_an_invitation_ends_in_her_own_time_zone(
    league: League, ada: User
) -> None:
    """Found by the season play-test: the league's pages showed UTC to a player in Rome
    (the game pages and the emails showed her zone)."""
    ada.time_zone = "Europe/Rome"
    ada.save(update_fields=["time_zone"])
    admin = Client()
    admin.force_login(ada)
    with time_machine.travel(START, tick=False):
        _invite(admin, NOBODY)
        page = page_text(admin.get(f"{BASE}/manage/").content.decode())
    assert f"{NOBODY} until Wed 2 Dec, 10:00" in page


def test_the_invitation_email_says_until_when_its_link_works(league: League, ada: User) -> None:
    """Found by the season play-test: no invitation email said that its link expires."""
    ada.time_zone = "Pacific/Honolulu"  # (the sender's zone is not the reader's: Tue 1 Dec)
    ada.save(update_fields=["time_zone"])
    admin = Client()
    admin.force_login(ada)
    with time_machine.travel(START, tick=False):
        _invite(admin, NOBODY)
    sent = Mail.objects.get(to=NOBODY)
    assert "The link works until Wed 2 Dec; then ask the league's admins" in sent.body_text
    assert "The link works until Wed 2 Dec;" in sent.body_html


def test_an_admin_sends_at_most_fifty_league_invitations_a_day(league: League, ada: User) -> None:
    """Each emails an address the admin typed, anybody's, and anyone may create a league."""
    from leagues import manage

    for n in range(50):
        manage.take_in(league=league, by=ada, who=f"friend{n}@example.net")
    admin = Client()
    admin.force_login(ada)
    _, _, said, _ = _post(admin, f"{BASE}/manage/members/", {"member-who": "one@example.net"})
    assert said == (
        "You sent 50 league invitations within a day, the most: you may invite more people in "
        "24 hours"
    )
    assert not LeagueInvitation.objects.filter(email="one@example.net").exists()
