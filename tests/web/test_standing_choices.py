"""The standing choices on the board page (decision 0042): a classic boss is shown the
lay-off, the book's choice before each bet at their casinos, with what it is now, and
changes it with one form; the same choice again is refused and changes nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import selectors
from tests.web.helpers import footprint, page_text

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
