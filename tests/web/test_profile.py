"""The settings page (/profile/): display name, language, time zone, vacation and the email
switches of the signed-in player; the vacation rule is the API's, message and all."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.utils import timezone

from accounts.models import MAX_AWAY_DAYS, User
from leagues import manage
from leagues import services as leagues
from leagues.models import Mail as LeagueMail
from notifications import services as notifications
from notifications.addresses import unsubscribe_token
from notifications.models import EmailPreference
from notifications.services import notify_game
from tests.web.helpers import actor, page_text

pytestmark = pytest.mark.django_db


def form_data(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "display_name": "Ada L.",
        "language": "en",
        "time_zone": "UTC",
        "away_until": "",
        "game_email": "each",
        "digest_hour": "8",
        "reminders": "on",
    }
    if "turn_emails" in changes:  # (the old switch: off is "no game email")
        data["game_email"] = "each" if changes.pop("turn_emails") else "none"
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


def local(moment: Any, zone: str = "UTC") -> str:
    """A moment as the datetime-local field takes it."""
    return str(moment.astimezone(ZoneInfo(zone)).strftime("%Y-%m-%dT%H:%M"))


def saved(user: User) -> tuple[Any, ...]:
    user.refresh_from_db()
    pref = notifications.preference(user)
    return (
        user.display_name,
        user.language,
        user.time_zone,
        user.away_until,
        pref.turn_emails,
        pref.reminders,
    )


def test_it_needs_a_sign_in(client: Any) -> None:
    for response in (client.get("/profile/"), client.post("/profile/", form_data())):
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")


def test_the_navigation_links_to_it_for_signed_in_players(client: Any, ada: User) -> None:
    client.force_login(ada)
    assert 'href="/profile/"' in client.get("/games/").content.decode()
    client.logout()
    assert 'href="/profile/"' not in client.get("/accounts/login/").content.decode()


def test_it_shows_the_current_values(client: Any, make_user: Any) -> None:
    back = timezone.now() + timedelta(days=3)
    ada = make_user(
        "ada", display_name="Countess", time_zone="Europe/Rome", language="en", away_until=back
    )
    notifications.set_preferences(user=ada, turn_emails=True, reminders=False)
    client.force_login(ada)
    response = client.get("/profile/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'value="Countess"' in html
    assert '<option value="Europe/Rome" selected>' in html
    assert '<option value="en" selected>' in html
    assert f'value="{local(back, "Europe/Rome")}"' in html  # in her own time zone
    assert 'name="game_email" value="each" required id="id_game_email_0" checked' in html
    assert 'name="reminders" id="id_reminders">' in html  # off: not checked
    assert "Times are in your time zone (Europe/Rome)." in page_text(html)


def test_the_time_zones_are_grouped_by_region_without_the_odd_names(client: Any, ada: User) -> None:
    client.force_login(ada)
    html = client.get("/profile/").content.decode()
    options = html.split('name="time_zone"', 1)[1].split("</select>")[0]
    values = [part.split('"')[0] for part in options.split('<option value="')[1:]]
    assert values[0] == "UTC" and values[1:] == sorted(values[1:]) and len(values) > 300
    assert {"Europe/Paris", "America/New_York"} <= set(values)
    assert not {"Factory", "localtime", "Etc/GMT+5", "US/Eastern"} & set(values)
    assert '<optgroup label="Europe">' in options
    assert '<option value="America/Argentina/Buenos_Aires">Argentina / Buenos Aires' in options


@pytest.mark.parametrize("zone", ["US/Eastern", "Etc/GMT+5"])
def test_a_zone_the_list_leaves_out_stays_when_another_field_is_saved(
    client: Any, ada: User, zone: str
) -> None:
    """Play-testing: a zone set through the API (which takes any IANA name) was not in the
    page's list, which showed UTC, and saving the display name stored UTC."""
    client.force_login(ada)
    response = client.patch("/api/v1/me/", {"time_zone": zone}, content_type="application/json")
    assert response.status_code == 200
    html = client.get("/profile/").content.decode()
    assert f'<option value="{zone}" selected>{zone}</option>' in html
    assert client.post("/profile/", form_data(time_zone=zone)).status_code == 302
    ada.refresh_from_db()
    assert (ada.display_name, ada.time_zone) == ("Ada L.", zone)
    client.force_login(User.objects.create_user("bob@example.org", "a-long-password-1"))
    assert f'<option value="{zone}"' not in client.get("/profile/").content.decode()


def test_saving_changes_every_field(client: Any, ada: User) -> None:
    client.force_login(ada)
    back = (timezone.now() + timedelta(days=10)).replace(second=0, microsecond=0)
    response = client.post(
        "/profile/",
        form_data(
            display_name="Lovelace",
            language="it",
            time_zone="America/New_York",
            away_until=local(back, "UTC"),  # read in the zone in force when sent (UTC)
            turn_emails=None,  # unchecked boxes are not sent
            reminders=None,
        ),
    )
    assert response.status_code == 302 and response["Location"] == "/profile/"
    assert saved(ada) == ("Lovelace", "it", "America/New_York", back, False, False)
    page = client.get("/profile/")
    text = page_text(page.content.decode())
    assert "Le tue impostazioni sono salvate." in text  # the message, in the new language
    assert f'value="{local(back, "America/New_York")}"' in page.content.decode()

    response = client.post("/profile/", form_data(away_until="", display_name="Ada"))
    assert response.status_code == 302
    assert saved(ada) == ("Ada", "en", "UTC", None, True, True)


def test_a_display_name_is_required_and_one_persons(client: Any, ada: User, bob: User) -> None:
    """Found by a privacy test: an empty name showed the part of the email address before
    the @ to everyone; and two players could both be "Ada"."""
    User.objects.filter(pk=bob.pk).update(display_name="Bob")
    client.force_login(ada)
    for name, said in (
        ("  ", "Choose a display name: it is what other players see of you."),
        ("bOB", "bOB is taken: choose another display name."),
        # (found by review: a name that is an address reads as one, or as someone else's)
        ("cy@example.org", "A display name may not be an email address"),
    ):
        response = client.post("/profile/", form_data(display_name=name))
        assert response.status_code == 400
        assert said in page_text(response.content.decode())
    ada.refresh_from_db()
    assert ada.display_name == "ada"  # (unchanged)


def test_the_vacation_is_read_in_the_players_time_zone(client: Any, make_user: Any) -> None:
    ada = make_user("ada", time_zone="Asia/Tokyo")
    client.force_login(ada)
    back = (timezone.now() + timedelta(days=2)).replace(second=0, microsecond=0)
    data = form_data(time_zone="Asia/Tokyo", away_until=local(back, "Asia/Tokyo"))
    assert client.post("/profile/", data).status_code == 302
    ada.refresh_from_db()
    assert ada.away_until == back


@pytest.mark.parametrize(
    ("ahead", "message"),
    [
        (timedelta(hours=-1), "is in the past: give a time to come back in the future"),
        (
            timedelta(days=MAX_AWAY_DAYS + 1),
            f"is more than {MAX_AWAY_DAYS} days ahead: set a vacation of at most "
            f"{MAX_AWAY_DAYS} days",
        ),
    ],
)
def test_a_vacation_in_the_past_or_too_far_is_refused_and_nothing_is_saved(
    client: Any, ada: User, ahead: timedelta, message: str
) -> None:
    client.force_login(ada)
    before = saved(ada)
    data = form_data(
        display_name="Changed", away_until=local(timezone.now() + ahead), turn_emails=None
    )
    response = client.post("/profile/", data)
    assert response.status_code == 400
    html = response.content.decode()
    field = html.split('id="id_away_until"', 1)[1].split('class="field', 1)[0]
    assert message in page_text(field)  # next to the field
    assert 'value="Changed"' in html  # what was typed is kept
    assert saved(ada) == before


def away_field(html: str) -> str:
    """The ``away_until`` input as the page drew it."""
    return html.split('name="away_until"', 1)[1].split(">", 1)[0]


def test_a_vacation_that_has_ended_is_not_shown_and_the_page_saves(client: Any, ada: User) -> None:
    """Play-testing: once a vacation had ended, the page still showed its end, and every
    save was refused ("... is in the past") until the player emptied the field."""
    ended = (timezone.now() - timedelta(hours=3)).replace(second=27)
    User.objects.filter(pk=ada.pk).update(away_until=ended)
    client.force_login(ada)
    assert "value=" not in away_field(client.get("/profile/").content.decode())

    # A page opened before the end and sent after it sends the end back, unchanged.
    response = client.post("/profile/", form_data(display_name="Back", away_until=local(ended)))
    assert response.status_code == 302
    ada.refresh_from_db()
    assert (ada.display_name, ada.away_until) == ("Back", None)


def test_a_new_vacation_end_in_the_past_is_still_refused(client: Any, ada: User) -> None:
    ended = timezone.now() - timedelta(hours=3)
    User.objects.filter(pk=ada.pk).update(away_until=ended)
    client.force_login(ada)
    typed = local(ended - timedelta(days=1))
    response = client.post("/profile/", form_data(display_name="Back", away_until=typed))
    assert response.status_code == 400
    assert "is in the past: give a time to come back" in page_text(response.content.decode())
    ada.refresh_from_db()
    assert (ada.display_name, ada.away_until) == ("ada", ended)  # (unchanged)


def test_the_api_takes_back_the_vacation_end_it_showed_once_it_has_passed(
    client: Any, ada: User
) -> None:
    """A client that sends back the profile it read (its ``away_until`` passed since) is
    not refused either: the vacation is over."""
    User.objects.filter(pk=ada.pk).update(away_until=timezone.now() - timedelta(hours=3))
    client.force_login(ada)
    me = client.get("/api/v1/me/").json()
    body = {"display_name": "Back", "away_until": me["away_until"]}
    response = client.patch("/api/v1/me/", body, content_type="application/json")
    assert response.status_code == 200, response.content
    assert (response.json()["display_name"], response.json()["away_until"]) == ("Back", None)


def test_the_refusal_names_the_time_as_the_player_reads_it(client: Any, ada: User) -> None:
    client.force_login(ada)
    data = form_data(away_until="2001-01-01T10:00", time_zone="UTC")
    text = page_text(client.post("/profile/", data).content.decode())
    assert "1 Jan 2001, 10:00 (UTC) is in the past" in text


def test_the_api_refuses_with_the_same_message(client: Any, ada: User) -> None:
    client.force_login(ada)
    when = (timezone.now() - timedelta(hours=1)).isoformat()
    response = client.patch("/api/v1/me/", {"away_until": when}, content_type="application/json")
    assert response.status_code == 400
    assert "is in the past: give a time to come back in the future" in response.content.decode()


def test_an_unknown_time_zone_or_language_is_refused(client: Any, ada: User) -> None:
    client.force_login(ada)
    before = saved(ada)
    response = client.post("/profile/", form_data(time_zone="Mars/Olympus", language="xx"))
    assert response.status_code == 400
    assert response.content.decode().count('class="error"') >= 2
    assert saved(ada) == before


def test_turning_turn_emails_off_stops_the_your_turn_email(
    client: Any, ada: User, bob: User, make_game: Any
) -> None:
    game = make_game(ada, bob)
    player = actor(game)
    client.force_login(player)
    assert notifications.wants(player, "turn")
    assert client.post("/profile/", form_data(turn_emails=None)).status_code == 302
    player.refresh_from_db()
    assert not notifications.wants(player, "turn")
    assert notifications.wants(player, "reminder")  # the other switch is untouched
    mail.outbox.clear()
    assert notify_game(game_id=game.pk) == 0
    assert not [m for m in mail.outbox if player.email in m.to]


def test_the_page_is_in_french_for_a_french_player(client: Any, make_user: Any) -> None:
    ada = make_user("ada", language="fr")
    client.force_login(ada)
    response = client.get("/profile/")
    assert '<html lang="fr">' in response.content.decode()
    text = page_text(response.content.decode())
    for words in ("Mes paramètres", "Fuseau horaire", "Absent jusqu'au", "Enregistrer"):
        assert words in text
    for words in ("My settings", "Time zone", "Away until", "Save"):
        assert words not in text
    response = client.post("/profile/", form_data(language="fr", away_until="2000-01-01T00:00"))
    assert "est dans le passé" in page_text(response.content.decode())


# -- the email choices (issue 13) ---------------------------------------------------------


def choices(user: User) -> tuple[Any, ...]:
    pref = notifications.preference(user)
    muted = [g.pk for g in notifications.muted_games(user)]
    return (
        pref.turn_emails,
        pref.digest,
        pref.digest_hour,
        pref.remind_before,
        pref.quiet_from,
        pref.quiet_until,
        muted,
    )


def test_the_digest_quiet_hours_lead_times_and_a_muted_game_are_saved_together(
    client: Any, ada: User, bob: User, make_game: Any
) -> None:
    game = make_game(ada, bob)
    client.force_login(ada)
    data = form_data(
        game_email="digest",
        digest_hour="9",
        remind_before="24, 2",
        quiet_from="22:00",
        quiet_until="07:00",
        muted=str(game.pk),
    )
    response = client.post("/profile/", data)
    assert response.status_code == 302
    from datetime import time

    assert choices(ada) == (True, True, 9, [24, 2], time(22), time(7), [game.pk])
    assert notifications.preference(ada).digest_at is not None  # the next digest is set
    text = page_text(client.get("/profile/").content.decode())
    assert f"Muted: no email about these games. #{game.pk}" in text
    html = client.get("/profile/").content.decode()
    assert 'value="digest" required id="id_game_email_1" checked' in html
    assert 'value="24, 2"' in html


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"remind_before": "24, 0"}, "Reminder lead times: up to 3 whole numbers of hours"),
        ({"remind_before": "1, 2, 3, 4"}, "Reminder lead times: up to 3 whole numbers"),
        # Play-testing: digits Python reads as digits but not as numbers showed its error
        # ("invalid literal for int()"), and another script's were saved.
        ({"remind_before": "²"}, "Reminder lead times: up to 3 whole numbers"),
        ({"remind_before": "1²"}, "Reminder lead times: up to 3 whole numbers"),
        ({"remind_before": "٣"}, "Reminder lead times: up to 3 whole numbers"),
        ({"quiet_from": "22:00"}, "Quiet hours need both a start and an end (or neither)."),
        (
            {
                "game_email": "digest",
                "digest_hour": "6",
                "quiet_from": "22:00",
                "quiet_until": "07:00",
            },
            "Your digest hour falls in your quiet hours: choose another.",
        ),
        # Play-testing: these were saved, and silenced nothing.
        (
            {"quiet_from": "22:00", "quiet_until": "22:00"},
            "Quiet hours from 22:00 until 22:00 silence nothing: give an end other than "
            "the start, or no quiet hours.",
        ),
    ],
)
def test_a_bad_email_choice_is_refused_and_nothing_is_saved(
    client: Any, ada: User, changes: dict[str, str], message: str
) -> None:
    client.force_login(ada)
    before, before_choices = saved(ada), choices(ada)
    response = client.post("/profile/", form_data(display_name="Changed", **changes))
    assert response.status_code == 400
    assert message in page_text(response.content.decode())
    assert saved(ada) == before and choices(ada) == before_choices


def test_the_api_reads_and_changes_the_email_choices(
    client: Any, ada: User, bob: User, make_game: Any
) -> None:
    game = make_game(ada, bob)
    client.force_login(ada)
    shown = client.get("/api/v1/me/").json()["email_choices"]
    assert shown == {
        "game_email": "each",
        "digest_hour": 8,
        "reminders": True,
        "remind_before": [],
        "quiet_from": None,
        "quiet_until": None,
        "muted": [],
    }
    body = {
        "display_name": "Countess",
        "email_choices": {
            "game_email": "digest",
            "digest_hour": 9,
            "remind_before": [2, 24],
            "quiet_from": "23:00",
            "quiet_until": "06:30",
            "muted": [game.pk],
        },
    }
    response = client.patch("/api/v1/me/", body, content_type="application/json")
    assert response.status_code == 200, response.content
    assert response.json()["email_choices"] == {
        "game_email": "digest",
        "digest_hour": 9,
        "reminders": True,
        "remind_before": [24, 2],
        "quiet_from": "23:00",
        "quiet_until": "06:30",
        "muted": [game.pk],
    }


def test_the_api_answers_with_the_choices_it_saved(
    client: Any, ada: User, bob: User, make_game: Any
) -> None:
    """Play-testing: a change of saved choices was answered with the old ones (the answer
    read the row as it was before the save); a GET then showed the new ones."""
    game = make_game(ada, bob)
    notifications.set_preferences(user=ada, turn_emails=True, reminders=True, digest_hour=9)
    client.force_login(ada)
    body = {"email_choices": {"digest_hour": 8, "muted": [game.pk]}}
    response = client.patch("/api/v1/me/", body, content_type="application/json")
    assert response.status_code == 200, response.content
    answered = response.json()["email_choices"]
    assert (answered["digest_hour"], answered["muted"]) == (8, [game.pk])
    assert client.get("/api/v1/me/").json()["email_choices"] == answered


@pytest.mark.parametrize(
    "email_choices",
    [
        {"remind_before": [500]},
        {"muted": [987654]},
        {"game_email": "digest", "digest_hour": 3, "quiet_from": "22:00", "quiet_until": "07:00"},
        {"quiet_until": "07:00"},
        {"quiet_from": "22:00", "quiet_until": "22:00"},
    ],
)
def test_the_api_refuses_a_bad_choice_and_saves_nothing(
    client: Any, ada: User, email_choices: dict[str, Any]
) -> None:
    client.force_login(ada)
    before, before_choices = saved(ada), choices(ada)
    body = {"display_name": "Changed", "email_choices": email_choices}
    response = client.patch("/api/v1/me/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith("email_choices")
    assert saved(ada) == before and choices(ada) == before_choices


def test_quiet_hours_saved_empty_before_they_were_refused_do_not_block_a_save(
    client: Any, ada: User
) -> None:
    """Hours from 22:00 until 22:00, saved before such hours were refused, silence nothing:
    they are shown as none, and saving the page or another choice does not trip on them."""
    from datetime import time

    notifications.set_preferences(
        user=ada, turn_emails=True, reminders=True, quiet_from=time(22), quiet_until=time(22)
    )
    client.force_login(ada)
    body = {"email_choices": {"digest_hour": 9}}
    response = client.patch("/api/v1/me/", body, content_type="application/json")
    assert response.status_code == 200, response.content
    shown = response.json()["email_choices"]
    assert (shown["digest_hour"], shown["quiet_from"], shown["quiet_until"]) == (9, None, None)
    html = client.get("/profile/").content.decode()
    assert 'name="quiet_from" id="id_quiet_from"' in html  # (no value)
    assert client.post("/profile/", form_data(display_name="Countess")).status_code == 302
    ada.refresh_from_db()
    assert choices(ada)[4:6] == (None, None)


def test_each_fields_help_is_the_one_its_input_points_at(client: Any, ada: User) -> None:
    """Django points an input at its help text (``aria-describedby="<id>_helptext"``): the
    help must carry that id, or a screen reader reads the field without it (it had
    ``<id>_help``, on every form of the site)."""
    client.force_login(ada)
    page = client.get("/profile/").content.decode()
    pointed = set(re.findall(r'aria-describedby="([^"]+)"', page))
    assert pointed, "no input points at a help text"
    ids = set(re.findall(r'\bid="([^"]+)"', page))
    assert pointed <= ids, pointed - ids


def _unsubscribed_at(user: User) -> Any:
    """As stored (``notifications.preference`` keeps the row it read on the user object)."""
    return EmailPreference.objects.get(user=user).unsubscribed_at


def test_game_emails_turned_back_on_end_the_unsubscription(
    client: Any, ada: User, bob: User
) -> None:
    """QA: after an email's "unsubscribe", turning the emails back on in the settings left
    the unsubscription in place, and league emails stayed off for good."""
    league = leagues.create_league(creator=bob, name="Night Owls", game_type="vegas")
    leagues.join_league(league=league, user=ada)
    client.post(f"/notifications/unsubscribe/{unsubscribe_token(ada.pk)}/")
    assert _unsubscribed_at(ada) is not None
    client.force_login(ada)

    all_off = form_data(turn_emails=None, reminders=None)
    assert client.post("/profile/", all_off).status_code == 302
    assert _unsubscribed_at(ada) is not None  # still all off
    assert client.post("/profile/", form_data()).status_code == 302

    assert _unsubscribed_at(ada) is None
    manage.announce(league=league, by=bob, subject="Season 2", body="Soon.")
    assert LeagueMail.objects.filter(to=ada.email, kind="announcement").exists()


def test_signing_up_asks_for_a_display_name_nobody_has(client: Any, ada: User) -> None:
    """Sign-up asked only for an email address and a password, and everyone then saw the
    address's part before the @ (found by a privacy test)."""
    User.objects.filter(pk=ada.pk).update(display_name="Ada")
    zoe = f"zoe-{uuid.uuid4().hex[:12]}@example.org"  # (allauth's limits: per address)
    form = {"email": zoe, "password1": "a-long-pass-9", "password2": "a-long-pass-9"}
    page = page_text(client.get("/accounts/signup/").content.decode())
    assert "Display name" in page and "never your email address" in page
    for name, said in (
        ("", "Choose a display name: it is what other players see of you."),
        ("ADA", "ADA is taken: choose another display name."),
    ):
        refused = client.post("/accounts/signup/", {**form, "display_name": name})
        assert refused.status_code == 200 and said in page_text(refused.content.decode())
    assert not User.objects.filter(email=zoe).exists()
    signed_up = client.post("/accounts/signup/", {**form, "display_name": " Zoe "})
    assert signed_up.status_code == 302
    assert User.objects.get(email=zoe).name == "Zoe"
