"""The standing choices on the board page (decision 0042): a classic boss is shown the
lay-off, the book's choice before each bet at their casinos, with what it is now, and
changes it with one form; the same choice again is refused and changes nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import selectors
from tests.web.helpers import footprint, other, page_text

pytestmark = pytest.mark.django_db

CHOSEN = re.compile(r'<input type="radio" name="text" value="prefer (\w+) (\w+)" checked>')


def _choices_form(html: str, topic: str) -> dict[str, str]:
    form = html[html.index(f'id="choice-{topic}"') :]
    form = form[: form.index("</form>")]
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))


def test_a_classic_boss_sees_the_lay_off_and_changes_it(
    client: Any, ada: Any, bob: Any, make_game: Any
) -> None:
    game = make_game(ada, bob, game_type="lords-of-vegas", options={"edition": "classic"})
    player = ada  # whoever is to act: a standing choice is made at any time
    client.force_login(player)
    html = client.get(f"/games/{game.pk}/").content.decode()
    text = page_text(html)
    assert "Your standing choices" in text
    assert "When someone bets at one of your casinos" in text
    assert dict(CHOSEN.findall(html)) == {"layoff": "never", "place": "auto"}

    form = _choices_form(html, "layoff")
    answer = client.post(f"/games/{game.pk}/", {**form, "text": "prefer layoff ask"})
    assert answer.status_code == 302
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert dict(CHOSEN.findall(html)) == {"layoff": "ask", "place": "auto"}
    assert "is asked about laying off each bet from now on" in page_text(html)
    game.refresh_from_db()
    seat = selectors.game_view(game=game, user=player)["your_seat"]
    assert (
        selectors.game_view(game=game, user=player)["view"]["players"][seat]["prefs"]["layoff"]
        == "ask"
    )

    # The same choice again: refused, said, nothing written.
    before = footprint(game)
    form = _choices_form(html, "layoff")
    answer = client.post(f"/games/{game.pk}/", {**form, "text": "prefer layoff ask"})
    assert answer.status_code == 400
    assert footprint(game) == before


def test_the_2024_edition_has_no_lay_off_to_choose(
    client: Any, ada: Any, bob: Any, make_game: Any
) -> None:
    game = make_game(ada, bob, game_type="lords-of-vegas", options={"edition": "2024"})
    client.force_login(ada)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert dict(CHOSEN.findall(html)) == {"place": "auto"}
    assert "When someone bets at one of your casinos" not in page_text(html)


def test_a_choice_from_a_page_drawn_before_a_move_holds_and_a_refusal_is_said_beside_it(
    client: Any, ada: Any, bob: Any, make_game: Any
) -> None:
    """A standing choice holds for the bets to come: a page drawn before another player's
    move (or kept current by live.js, whose forms keep their first version) may still make
    it (it was refused as stale: found by review). A refusal is said in the panel, and the
    move form is left empty (the choice was copied into it)."""
    from tests.web.helpers import actor
    from tests.web.play import play_one

    game = make_game(ada, bob, game_type="lords-of-vegas", options={"edition": "classic"})
    waiting = other(game, actor(game))
    client.force_login(waiting)
    form = _choices_form(client.get(f"/games/{game.pk}/").content.decode(), "layoff")
    play_one(game)  # the other player moves: the page's version is behind
    answer = client.post(f"/games/{game.pk}/", {**form, "text": "prefer layoff always"})
    assert answer.status_code == 302
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert dict(CHOSEN.findall(html))["layoff"] == "always"

    before = footprint(game)
    answer = client.post(
        f"/games/{game.pk}/", {**_choices_form(html, "layoff"), "text": "prefer layoff always"}
    )
    html = answer.content.decode()
    assert answer.status_code == 400 and footprint(game) == before
    panel = html[html.index('id="choices"') :]
    assert 'id="choice-error"' in panel[: panel.index("</section>")]
    assert "prefer layoff always</textarea>" not in html
