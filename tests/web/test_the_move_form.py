"""The move form: a legal command applies once through ``submit_command(source="web")``
and redirects; every refusal shows the service's message next to the form, keeps the text
typed, and writes nothing."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.utils import translation

from games import selectors, services
from games.models import Move
from games.web import present
from tests.web.helpers import actor, drawn_form, footprint, other, page_text

pytestmark = pytest.mark.django_db


def _open(client: Any, game: Any, user: Any) -> dict[str, str]:
    client.force_login(user)
    return drawn_form(client.get(f"/games/{game.pk}/").content.decode())


def _post(client: Any, game: Any, **data: Any) -> Any:
    return client.post(f"/games/{game.pk}/", data)


def _legal(game: Any, user: Any) -> str:
    return str(selectors.game_view(game=game, user=user)["legal_commands"][0]["text"])


@pytest.fixture
def lords(ada: Any, bob: Any, make_game: Any) -> Any:
    return make_game(ada, bob, game_type="lords-of-vegas")


def test_a_legal_command_applies_and_redirects(client: Any, lords: Any) -> None:
    player = actor(lords)
    command = _legal(lords, player)
    form = _open(client, lords, player)
    assert form["expected_version"] == str(lords.version)
    response = _post(client, lords, text=command, **form)
    assert response.status_code == 302
    assert response["Location"] == f"/games/{lords.pk}/"  # the top: "Played: ..." in view
    move = Move.objects.get(game=lords, seq=lords.version + 1)
    assert (move.source, move.text, move.idempotency_key) == (
        "web",
        command,
        form["idempotency_key"],
    )
    text = page_text(client.get(response["Location"]).content.decode())
    assert f"Played: {command}" in text
    assert command in text.split("Recent moves", 1)[1]


def test_a_button_asks_to_confirm_then_plays_its_command(client: Any, lords: Any) -> None:
    player = actor(lords)
    command = _legal(lords, player)
    form = _open(client, lords, player)
    page = client.get(f"/games/{lords.pk}/").content.decode()
    assert f'name="choice" value="{command}"' in page
    before = footprint(lords)
    asked = _post(client, lords, choice=command, text="", **form)
    assert asked.status_code == 200 and footprint(lords) == before  # nothing played yet
    text = page_text(asked.content.decode())
    assert f"Play this? It cannot be taken back. {command}" in text
    confirm = asked.content.decode().split('id="confirm-form"', 1)[1].split("</form>")[0]
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', confirm))
    assert fields["choice"] == command and fields["confirmed"] == "on"
    response = _post(client, lords, **fields)
    assert response.status_code == 302
    assert Move.objects.filter(game=lords, source="web", text=command).exists()


def test_a_button_from_a_tab_left_open_is_refused_before_the_confirm_step(
    client: Any, lords: Any
) -> None:
    """A tab opened before the turn passed: its button is refused at once (the service's
    "the game has moved on"), not asked "Play this?" and refused only after the yes."""
    player = actor(lords)
    command = _legal(lords, player)
    form = _open(client, lords, player)
    services.submit_command(game=lords, user=player, text="end", source="api")
    html = _refused(client, lords, "game has moved on", 409, choice=command, text="", **form)
    assert "Play this?" not in page_text(html)


def test_a_button_out_of_turn_is_refused_before_the_confirm_step(client: Any, lords: Any) -> None:
    """The version still the game's, but not the player's turn: the service's refusal at
    once, no confirm step."""
    waiting = other(lords, actor(lords))
    form = _open(client, lords, waiting)
    html = _refused(client, lords, "not yours", 409, choice="end", text="", **form)
    assert "Play this?" not in page_text(html)


def test_several_commands_in_one_submission(
    client: Any, ada: Any, bob: Any, make_game: Any
) -> None:
    game = make_game(ada, bob, game_type="lords-of-vegas")
    player = actor(game)
    command = _legal(game, player)
    form = _open(client, game, player)
    response = _post(client, game, text=f"{command}; end", **form)
    assert response.status_code == 302
    texts = list(Move.objects.filter(game=game, source="web").values_list("text", flat=True))
    assert texts == [command, "end"]


def _refused(client: Any, game: Any, expected: str, status: int, **data: Any) -> str:
    before = footprint(game)
    response = _post(client, game, **data)
    html = response.content.decode()
    assert response.status_code == status, html
    error = page_text(html.split('id="move-error"', 1)[1].split("</div>", 1)[0])
    assert expected in error
    assert footprint(game) == before
    return html


def test_it_refuses_out_of_turn(client: Any, lords: Any) -> None:
    waiting = other(lords, actor(lords))
    form = _open(client, lords, waiting)
    html = _refused(client, lords, "not yours", 409, text="end", **form)
    assert ">end</textarea>" in html  # the text typed is kept


def test_it_refuses_a_stale_page(client: Any, lords: Any) -> None:
    player = actor(lords)
    form = _open(client, lords, player)
    services.submit_command(game=lords, user=player, text=_legal(lords, player), source="api")
    html = _refused(client, lords, "game has moved on", 409, text="end", **form)
    assert ">end</textarea>" in html
    again = drawn_form(html)  # the page now shows the game as it is, with a new key
    assert again["expected_version"] == str(lords.version)
    assert again["idempotency_key"] != form["idempotency_key"]


def test_it_refuses_a_malformed_command(client: Any, lords: Any) -> None:
    form = _open(client, lords, actor(lords))
    html = _refused(client, lords, "dance", 400, text="dance wildly", **form)
    assert ">dance wildly</textarea>" in html


def test_it_refuses_an_illegal_command(client: Any, lords: Any) -> None:
    player = actor(lords)
    form = _open(client, lords, player)
    view = selectors.game_view(game=lords, user=player)["view"]
    lot = next(name for name in ("A1", "A2", "A4", "A5", "B1", "B2") if name not in view["markers"])
    _refused(client, lords, lot, 400, text=f"build {lot} sphinx", **form)


def test_it_refuses_an_empty_form(client: Any, lords: Any) -> None:
    form = _open(client, lords, actor(lords))
    _refused(client, lords, "Type a command", 400, text="  ", **form)


def test_a_form_sent_twice_applies_once(client: Any, lords: Any) -> None:
    player = actor(lords)
    command = _legal(lords, player)
    form = _open(client, lords, player)
    assert _post(client, lords, text=command, **form).status_code == 302
    before = footprint(lords)
    response = client.post(f"/games/{lords.pk}/", {"text": command, **form}, follow=True)
    assert "already been sent: it was applied once only" in page_text(response.content.decode())
    assert footprint(lords) == before
    assert Move.objects.filter(game=lords, source="web").count() == 1


def test_a_vegas_move_through_the_form(client: Any, ada: Any, bob: Any, make_game: Any) -> None:
    game = make_game(ada, bob, game_type="vegas")
    player = actor(game)
    command = _legal(game, player)
    assert command.startswith("place ")
    form = _open(client, game, player)
    assert _post(client, game, text=command, **form).status_code == 302
    assert Move.objects.filter(game=game, source="web", text=command).exists()


def test_it_needs_the_csrf_token(ada: Any, bob: Any, make_game: Any) -> None:
    from django.test import Client

    game = make_game(ada, bob, game_type="vegas")
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(actor(game))
    before = footprint(game)
    response = strict.post(f"/games/{game.pk}/", {"text": "place 1", "expected_version": 0})
    assert response.status_code == 403
    assert footprint(game) == before


@pytest.mark.parametrize(
    ("language", "build", "end"),
    [("fr", "Construire", "Finir le tour"), ("it", "Costruisci", "Termina il turno")],
)
def test_the_command_groups_are_headed_in_the_reader_s_language(
    client: Any, lords: Any, language: str, build: str, end: str
) -> None:
    """French and Italian pages headed the groups with the notation's verbs ("build (15)",
    "end (1)", rows "build A5"): the headings are now words of the reader's language, while
    each button still plays (and shows in its title) the command in the notation."""
    player = actor(lords)
    player.language = language
    player.save(update_fields=["language"])
    client.force_login(player)
    html = client.get(f"/games/{lords.pk}/").content.decode()
    summaries = [page_text(s).strip() for s in re.findall(r"<summary>(.*?)</summary>", html)]
    assert f"{build} (15)" in summaries and f"{end} (1)" in summaries, summaries
    assert not [s for s in summaries if s.startswith(("build", "end"))]
    heads = re.findall(r'<span class="cmd-head">([^<]*)</span>', html)
    assert heads and all(h.startswith(f"{build} ") for h in heads), heads
    found = re.findall(
        r'name="choice" value="([^"]*)" class="cmd" title="([^"]*)">'
        r'(?:<span class="sr-only">([^<]*)</span>)?([^<]*)<',
        html,
    )
    buttons = [(value, title, label) for value, title, _, label in found]
    builds = [b for b in buttons if b[0].startswith("build ")]
    assert builds and all(v == t and label.strip() == v.split()[-1] for v, t, label in builds)
    assert ("end", "end", end) in buttons
    # A screen reader names each button with its verb too ("Construire C7 albion"), not
    # "albion" alone; a button that is its verb ("Finir le tour") says it once.
    spoken = {value: f"{said}{label}".strip() for value, _, said, label in found}
    assert all(spoken[v].startswith(f"{build} ") for v, _, _ in builds), spoken
    assert spoken["end"] == end


@pytest.mark.parametrize(
    ("language", "sprawl", "label", "moving"),
    [
        ("fr", "S'étendre", "depuis D7", "depuis D7, ton dé pris en C3"),
        ("it", "Espandi", "da D7", "da D7, il tuo dado preso da C3"),
    ],
)
def test_a_sprawl_button_says_where_from_in_the_reader_s_language(
    language: str, sprawl: str, label: str, moving: str
) -> None:
    """The Italian page showed a group "sprawl (1)" and a button "from D7 $12M"."""
    legal = [
        {"text": "sprawl D6 from D7", "command": {"type": "sprawl", "lot": "D6", "origin": "D7"}},
        {
            "text": "sprawl D6 from D7 moving C3",
            "command": {"type": "sprawl", "lot": "D6", "origin": "D7", "moving": "C3"},
        },
    ]
    with translation.override(language):
        (group,) = present.command_groups(legal)
    assert group["verb"] == sprawl
    (row,) = group["rows"]
    assert row["head"] == f"{sprawl} D6"
    assert [b["label"] for b in row["buttons"]] == [label, moving]
    assert [b["text"] for b in row["buttons"]] == [e["text"] for e in legal]


def _asked_to_decide(
    make_game: Any, users: list[Any], decision: str, towards: str, seed: int
) -> tuple[Any, Any]:
    """A classic Lords of Vegas game whose players all ``prefer <decision> ask``, played
    with real submissions (leaning to ``towards`` commands) until the seat to act must
    answer with a ``<decision> ...`` command: the game and that seat."""
    from games.engines.lords_of_vegas.commands import Prefer
    from games.engines.registry import get_engine

    game = make_game(*users, game_type="lords-of-vegas", options={"edition": "classic"})
    engine = get_engine("lords-of-vegas")
    for seat in game.seats.select_related("user"):
        services.submit_command(
            game=game, user=seat.user, text=engine.format(Prefer(decision, "ask"))
        )
    rng = random.Random(seed)
    for _ in range(800):
        game.refresh_from_db()
        seat = game.seats.select_related("user").get(to_act=True)
        legal = engine.legal_commands(game.state, seat.order)
        if any(engine.format(c).startswith(f"{decision} ") for c in legal):
            return game, seat
        leaning = [c for c in legal if engine.format(c).startswith(towards)]
        pick = rng.choice(leaning if leaning and rng.random() < 0.6 else legal)
        services.submit_command(game=game, user=seat.user, text=engine.format(pick))
    pytest.fail(f"no '{decision}' to answer in 800 moves")


def test_a_lords_of_vegas_placing_after_a_reorganize_is_shown_and_played(
    client: Any, make_game: Any, ada: Any, bob: Any, cy: Any
) -> None:
    """A player who asks to place their own dice after a reorganize (``prefer place ask``)
    got a server error on the board page: its buttons were read as Vegas's ``place 4``. The
    page shows the placings; a wrong one is refused on the page, a right one is played."""
    game, seat = _asked_to_decide(make_game, [ada, bob, cy], "place", "reorganize", 0)
    client.force_login(seat.user)
    page = client.get(f"/games/{game.pk}/")
    assert page.status_code == 200
    placings = re.findall(r'name="choice" value="(place [^"]*)"', page.content.decode())
    assert placings, "no placing button"
    assert "Your dice in the casino you reorganized were rerolled" in page_text(
        page.content.decode()
    )
    wrong = client.post(
        f"/games/{game.pk}/",
        {"text": "place A1=9", "expected_version": game.version, "idempotency_key": "w"},
    )
    assert wrong.status_code in (400, 409, 422) and 'id="move-error"' in wrong.content.decode()
    right = client.post(
        f"/games/{game.pk}/",
        {"text": placings[0], "expected_version": game.version, "idempotency_key": "r"},
    )
    assert right.status_code == 302
    assert Move.objects.filter(game=game, text=placings[0]).exists()


def test_a_lay_off_to_decide_says_which_bet_it_is(
    client: Any, make_game: Any, ada: Any, bob: Any, cy: Any
) -> None:
    """The panel showed "Lay off half the bet (2)" and buttons "no", "yes": not who bet,
    how much, where, nor what each answer does."""
    game, seat = _asked_to_decide(make_game, [ada, bob, cy], "layoff", "gamble", 1)
    asked = next(d for d in game.state["pending"] if d["kind"] == "layoff")
    client.force_login(seat.user)
    page = page_text(client.get(f"/games/{game.pk}/").content.decode())
    assert f"at your casino at {asked['lot']}. Lay off half of the bet to the bank?" in page
    assert f"bets ${asked['amount']}m" in page
    # The text board (the email's, the page's "as text") says it to that player too, in
    # French as well; the others read whom the game waits for.
    from games.engines.registry import get_engine

    engine = get_engine("lords-of-vegas")
    with translation.override("fr"):
        theirs = engine.render_text(engine.view(game.state, seat.order))
        others = engine.render_text(engine.view(game.state, (seat.order + 1) % 3))
    flat = " ".join(theirs.split())
    assert f"dans ton casino en {asked['lot']}. Abandonner la moitié du pari" in flat, theirs
    assert "Abandonner la moitié" not in " ".join(others.split())


def test_what_was_just_played_is_read_with_the_move_box(client: Any, lords: Any) -> None:
    """After a move that leaves the player to act, the page opens with the focus in the
    move box, past "Played: ...", which a screen reader then never read: the box is
    described by it."""
    player = actor(lords)
    client.force_login(player)
    sent = {"text": "prefer place ask", "expected_version": lords.version, "idempotency_key": "p"}
    page = client.post(f"/games/{lords.pk}/", sent, follow=True).content.decode()
    flash = r'<ul class="messages" aria-live="polite" id="flash">\s*<li[^>]*>Played: '
    assert re.search(flash, page)
    [box] = re.findall(r'<textarea name="text" id="id_text"[^>]*>', page)
    assert 'aria-describedby="flash text-help"' in box and " autofocus" in box


def test_played_is_said_in_the_reader_s_words(client: Any, lords: Any) -> None:
    """A French player who played "build A2 sphinx" by a button read "Joué : build A2
    sphinx", words they never wrote: the page says it as the email door does (decision
    0040), in the words the notation reads in French."""
    player = actor(lords)
    player.language = "fr"
    player.save(update_fields=["language"])
    command = next(
        c["text"]
        for c in selectors.game_view(game=lords, user=player)["legal_commands"]
        if str(c["text"]).startswith("build ")
    )
    form = _open(client, lords, player)
    answer = _post(client, lords, text=command, **form)
    assert answer.status_code == 302
    text = page_text(client.get(answer["Location"]).content.decode())
    lot, company = str(command).split()[1:]
    assert re.search(rf"Joué\s: construire {lot} {company}\b", text), text[:300]
