"""A league's admins bring people in by invitation, and their forms tell nothing of who
has an account (docs/decisions/0028).

Found by a privacy review: anyone may create a league, and its "add member" form answered
"nobody is called or at 'x' on Lords" for an unknown address but made a known one a member
at once, so an admin learned which addresses have accounts; "add member" and "enter player"
also put people in a league, and in a season whose games email them, without asking. Now
an address is only sent an invitation (the same answer with an account or without), a
display name is sent one to the player's own address, a player who asked to join is taken
at once, and "appoint admin" and "enter player" take members, by display name only."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest
import time_machine
from django.db import transaction
from django.test import Client

from accounts.models import User
from games.models import Game
from games.services.errors import NotFound
from leagues import manage
from leagues import services as leagues
from leagues.models import (
    JoinRequest,
    League,
    LeagueInvitation,
    Mail,
    Membership,
    Season,
    SeasonEntry,
)
from tests.web.helpers import page_text

pytestmark = pytest.mark.django_db

BASE = "/leagues/vegas-nights"
NOBODY = "nobody-here@example.net"  # an address no account has
MOMENT = datetime(2026, 11, 2, 9, 0, 30, tzinfo=UTC)


@pytest.fixture
def admin(ada: User, client: Client) -> Client:
    """Ada, who created Vegas Nights (its owner, not staff), signed in."""
    assert not ada.is_staff
    client.force_login(ada)
    return client


def _post(client: Client, url: str, data: dict[str, str]) -> tuple[int, str, str, str]:
    """What the admin sees of a post: its status, where it sends them, the message it
    flashes and the whole page they land on (as text, without the message)."""
    answer = client.post(url, data)
    assert answer.status_code == 302, answer.status_code
    location = answer["Location"]
    html = client.get(location).content.decode()
    flash = re.search(r'<ul class="messages"[^>]*>(.*?)</ul>', html, re.S)
    shown = page_text(flash.group(1)).strip() if flash else ""
    rest = page_text(re.sub(r'<ul class="messages".*?</ul>', "", html, flags=re.S))
    return answer.status_code, location, shown, rest


def _as_typed(seen: tuple[Any, ...], typed: str) -> tuple[str, ...]:
    """The answer with what was typed put back as "TYPED" (the one thing that differs)."""
    return tuple(str(part).replace(typed, "TYPED") for part in seen)


def _from_the_start(client: Client, url: str, typed: str, field: str) -> tuple[str, ...]:
    """What the admin sees of posting ``typed``, and what it wrote (the invitations and
    the emails, ``typed`` put back as "TYPED"), from the state before it: undone after
    (two answers compared start from the same page), at the same moment (the page says
    when each invitation ends, to the minute)."""
    with time_machine.travel(MOMENT, tick=False), transaction.atomic():
        seen = _post(client, url, {field: typed})
        wrote = (
            list(LeagueInvitation.objects.values_list("email", flat=True)),
            list(Mail.objects.values_list("to", "kind")),
            list(league_rows()),
        )
        transaction.set_rollback(True)
    return _as_typed((*seen, *wrote), typed)


def league_rows() -> Any:
    """Who is in a league, an admin of it, asked to join it or entered in a season."""
    return (
        *Membership.objects.values_list("user", flat=True),
        *League.admins.through.objects.values_list("user", flat=True),
        *JoinRequest.objects.values_list("user", flat=True),
        *SeasonEntry.objects.values_list("user", flat=True),
    )


# -- an address: the same answer whoever has it --------------------------------------------


def test_an_address_with_an_account_gets_the_answer_an_address_without_one_gets(
    league: League, ada: User, admin: Client, named: Any
) -> None:
    """The same message, page and redirect, and the same writes: an invitation to the
    address typed (it made Bob, who has the address, a member at once and said "Bob is a
    member."; an address nobody has was refused). The invitation form by address (the
    page's one form now posts to the first) answers alike too."""
    bob = named("bob")
    seen = [
        _from_the_start(admin, f"{BASE}{url}", typed, field)
        for url, field in (("/manage/members/", "member-who"), ("/manage/invite/", "email"))
        for typed in (bob.email, NOBODY)
    ]
    assert seen[0] == seen[1] == seen[2] == seen[3]
    assert seen[0][2] == "Invitation sent to TYPED."
    assert "Bob" not in seen[0][3]  # (his name is nowhere on the admin's page)
    assert seen[0][4:] == ("['TYPED']", "[('TYPED', 'invitation')]", str([ada.pk]))


def test_an_address_typed_twice_is_not_sent_twice_whoever_has_it(
    league: League, admin: Client, named: Any
) -> None:
    bob = named("bob")
    url = f"{BASE}/manage/members/"
    for typed in (bob.email, NOBODY):
        _post(admin, url, {"member-who": typed})
    again = [_from_the_start(admin, url, typed, "member-who") for typed in (bob.email, NOBODY)]
    assert (
        again[0][2] == "An invitation to TYPED is already waiting for an answer: none sent again."
    )
    assert again[0][2] == again[1][2]
    assert LeagueInvitation.objects.count() == 2
    assert Mail.objects.count() == 2


@pytest.mark.parametrize(
    ("url", "field"), [("/manage/admins/", "admin-who"), ("/seasons/1/entries/", "member-who")]
)
def test_an_address_typed_to_appoint_or_enter_is_refused_alike_whoever_has_it(
    url: str, field: str, league: League, ada: User, admin: Client, named: Any
) -> None:
    """Bob is a member, and has an account at the address typed: refused as an address
    nobody has is (it made Bob an admin, or entered him, and said so by name)."""
    bob = named("bob")
    leagues.join_league(league=league, user=bob)
    leagues.open_season(league=league, by=ada)
    known = _from_the_start(admin, f"{BASE}{url}", bob.email, field)
    unknown = _from_the_start(admin, f"{BASE}{url}", NOBODY, field)

    assert known == unknown
    assert known[2] == "'TYPED' is an email address: give the player's display name"
    assert known[4:] == ("[]", "[]", str([bob.pk, ada.pk]))  # (Bob a member, Ada an admin)


# -- a name: an invitation to the player's own address ---------------------------------------


def test_a_name_is_sent_an_invitation_and_is_a_member_only_once_accepted(
    league: League, ada: User, admin: Client, named: Any
) -> None:
    bob = named("bob", language="fr")
    cy = named("cy")
    seen = _post(admin, f"{BASE}/manage/members/", {"member-who": "bob"})  # (any case)

    assert seen[2] == "Invitation sent to Bob."
    assert "Your invitations waiting for an answer Bob until " in seen[3]
    assert bob.email not in seen[3]  # the admin never sees his address
    assert not league.memberships.filter(user=bob).exists()
    invitation = LeagueInvitation.objects.get()
    assert (invitation.email, invitation.invitee) == ("", bob)  # no address kept
    email = Mail.objects.get()
    assert email.to == bob.email  # his own address, in his language
    assert email.subject == f"{ada.name} t'invite dans la ligue Vegas Nights"
    link = f"/leagues/invitations/{invitation.token}/"
    assert link in email.body_text

    # Cy, who got hold of the link, cannot take Bob's invitation (its page says so).
    other = Client()
    other.force_login(cy)
    for refused in (other.get(link), other.post(link)):
        assert refused.status_code == 403
        assert "This invitation is for another account." in page_text(refused.content.decode())
        assert 'id="accept"' not in refused.content.decode()
    assert not league.memberships.exists()

    # Bob follows it: who invites him to which league, and a button (the GET changes
    # nothing); then he is a member, and the invitation waits no more.
    mine = Client()
    mine.force_login(bob)
    offered = mine.get(link)
    assert offered.status_code == 200
    said = f"{ada.name} t'invite à rejoindre la ligue Vegas Nights sur Lords."
    assert said in page_text(offered.content.decode())
    assert not league.memberships.exists()
    answer = mine.post(link)
    assert answer.status_code == 302 and answer["Location"] == f"{BASE}/"
    assert list(league.memberships.values_list("user", flat=True)) == [bob.pk]
    assert (
        "waiting for an answer"
        not in _post(admin, f"{BASE}/manage/members/", {"member-who": "Bob"})[3]
    )


def test_an_unknown_name_is_refused_by_what_was_typed(
    league: League, admin: Client, named: Any
) -> None:
    seen = _post(admin, f"{BASE}/manage/members/", {"member-who": "Zed"})
    assert seen[2] == "Nobody is called 'Zed' on Lords"
    assert not LeagueInvitation.objects.exists() and not Mail.objects.exists()


def test_the_refusals_are_said_in_the_admins_language(
    league: League, ada: User, admin: Client, named: Any
) -> None:
    """French; a refusal starts its sentence with a capital (it did not)."""
    ada.language = "fr"
    ada.save(update_fields=["language"])
    named("cy")
    said = [
        _post(admin, f"{BASE}/manage/members/", {"member-who": "Zed"})[2],
        _post(admin, f"{BASE}/manage/admins/", {"admin-who": "Cy"})[2],
        _post(admin, f"{BASE}/manage/admins/", {"admin-who": NOBODY})[2],
    ]
    assert said == [
        "Personne ne s'appelle « Zed » sur Lords",
        "Cy n'est pas membre de la ligue « Vegas Nights » : envoie-lui d'abord une invitation",
        f"« {NOBODY} » est une adresse e-mail : donne le nom affiché du joueur",
    ]


def test_a_player_who_asked_to_join_is_taken_in_at_once(
    league: League, admin: Client, named: Any
) -> None:
    league.open = False
    league.save(update_fields=["open"])
    bob = named("bob")
    manage.ask_to_join(league=league, user=bob)

    seen = _post(admin, f"{BASE}/manage/members/", {"member-who": "Bob"})
    assert seen[2] == "Bob had asked to join: request accepted."
    assert league.memberships.filter(user=bob).exists()
    assert not JoinRequest.objects.exists()
    assert not LeagueInvitation.objects.exists() and not Mail.objects.exists()


# -- appoint and enter: members, by name ----------------------------------------------------


@pytest.mark.parametrize(
    ("url", "field", "done"),
    [
        ("/manage/admins/", "admin-who", "Cy is an admin of this league."),
        ("/seasons/1/entries/", "member-who", "Cy is entered."),
    ],
)
def test_appoint_and_enter_refuse_a_player_who_is_not_a_member(
    url: str, field: str, done: str, league: League, ada: User, admin: Client, named: Any
) -> None:
    named("cy")
    season = leagues.open_season(league=league, by=ada)
    seen = _post(admin, f"{BASE}{url}", {field: "Cy"})
    assert seen[2] == "Cy is not a member of the league 'Vegas Nights': invite them first"
    unknown = _post(admin, f"{BASE}{url}", {field: "Zed"})
    assert unknown[2] == "Nobody is called 'Zed' on Lords"
    assert list(league.admins.all()) == [ada]
    assert not season.entries.exists() and not league.memberships.exists()
    # Once Cy has joined, the same name does it.
    cy = User.objects.get(display_name="Cy")
    leagues.join_league(league=league, user=cy)
    assert _post(admin, f"{BASE}{url}", {field: "cy"})[2] == done  # (any case)
    made_admin, entered = cy in league.admins.all(), season.entries.filter(user=cy).exists()
    assert (made_admin, entered) == (("admins" in url), ("entries" in url))


def test_the_services_refuse_to_appoint_or_enter_a_non_member(
    league: League, ada: User, named: Any
) -> None:
    cy = named("cy")
    season = leagues.open_season(league=league, by=ada)
    with pytest.raises(manage.InvalidRequest, match="Cy is not a member"):
        leagues.enter_season(season=season, user=cy, by=ada)
    with pytest.raises(manage.InvalidRequest, match="Cy is not a member"):
        manage.appoint_admin(league=league, user=cy, by=ada)
    assert not league.memberships.exists() and not Season.objects.get().entries.exists()


# -- the game tools' substitute: a member, by name --------------------------------------------


def test_a_substitute_is_a_member_found_by_name_and_never_by_address(
    season_with: Any, league: League, ada: User, admin: Client, named: Any
) -> None:
    bob, cy, dee = named("bob"), named("cy"), named("dee")
    season = season_with(bob, cy, players_per_game=2)
    leagues.start_season(season=season, by=ada)
    game = Game.objects.get(season_game__season=season)
    url = f"/leagues/games/{game.pk}/tools/replace/"
    seat = str(game.seats.get(user=bob).order)

    def replace(who: str) -> tuple[int, str, str, str]:
        return _post(admin, url, {"why": "gone", "seat": seat, "substitute": who})

    known, unknown = replace(dee.email), replace(NOBODY)  # an account's address, or nobody's
    assert _as_typed(known, dee.email) == _as_typed(unknown, NOBODY)
    assert known[2] == f"'{dee.email}' is an email address: give the player's display name"
    assert (
        replace("Dee")[2] == "Dee is not a member of the league 'Vegas Nights': invite them first"
    )
    assert game.seats.filter(user=bob).exists()
    leagues.join_league(league=league, user=dee)
    assert replace("Dee")[2] == "Done: the players are told by email."
    assert game.seats.filter(user=dee).exists()


def test_an_invitation_by_name_goes_once_they_are_in_and_lets_nobody_back(
    league: League, ada: User, named: Any
) -> None:
    """Found by review: the invitation by name stayed waiting after the player became a
    member another way (the admin's list went on showing a member), and after an admin
    removed them its link let them back in."""
    bob = named("bob")
    league.open = False
    league.save(update_fields=["open"])
    manage.take_in(league=league, by=ada, who="Bob")
    [invitation] = LeagueInvitation.objects.filter(league=league, invitee=bob)
    manage.ask_to_join(league=league, user=bob)
    manage.answer_request(league=league, user=bob, by=ada, accept=True)
    assert manage.waiting_invitations(league=league, by=ada) == []
    manage.remove_member(league=league, user=bob, by=ada)
    with pytest.raises(NotFound):
        manage.accept_invitation(token=invitation.token, user=bob)
    assert not Membership.objects.filter(league=league, user=bob).exists()


def test_an_admin_is_not_told_which_addresses_another_admin_invited(
    league: League, ada: User, named: Any
) -> None:
    """Found by review: the second admin typing an address the first had invited was
    answered "an invitation to x is already waiting", which told them what the first typed."""
    bob = named("bob")
    leagues.add_member(league=league, user=bob, by=ada)
    manage.appoint_admin(league=league, user=bob, by=ada)
    first = manage.take_in(league=league, by=ada, who=NOBODY)
    second = manage.take_in(league=league, by=bob, who=NOBODY)
    assert (first.outcome, second.outcome) == (manage.Outcome.INVITED, manage.Outcome.INVITED)
    again = manage.take_in(league=league, by=bob, who=NOBODY.upper())
    assert again.outcome == manage.Outcome.WAITING  # (their own: no second email from them)
    assert [i.addressed_to for i in manage.waiting_invitations(league=league, by=bob)] == [NOBODY]


def test_a_player_who_unsubscribed_is_not_emailed_an_invitation_by_name(
    league: League, ada: User, named: Any
) -> None:
    """Found by review: an invitation by name was emailed whatever the player's choices,
    without the link to stop them: an admin of any league (anyone may make one) could email
    any player by name. Now it goes as the league's other email to a person does, with its
    unsubscribe link, and not to someone who unsubscribed; the admin is answered alike."""
    from notifications import services as notifications

    bob, cy = named("bob"), named("cy")
    notifications.unsubscribe(user_id=cy.pk)
    told = [manage.take_in(league=league, by=ada, who=name).outcome for name in ("Bob", "Cy")]
    assert told == [manage.Outcome.INVITED, manage.Outcome.INVITED]
    [sent] = Mail.objects.filter(kind="invitation")
    assert sent.to == bob.email and sent.headers["List-Unsubscribe"].startswith("<http")
    link = sent.headers["List-Unsubscribe"].strip("<>")
    assert f"No more email from Lords: {link}" in sent.body_text and link in sent.body_html
