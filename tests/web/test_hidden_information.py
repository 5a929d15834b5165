"""Before the end no page shows the seed or the order of a hidden list (Vegas: the pile of
notes; Lords of Vegas: the deck), to any seat or spectator, signed in or not; after it the
seed is shown."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games import selectors, services
from games.models import Game
from tests.web.helpers import actor

pytestmark = pytest.mark.django_db

HIDDEN = {"vegas": "pile", "lords-of-vegas": "deck"}
RUN = 5


def _spellings(item: Any) -> list[str]:
    return [str(item), json.dumps(item)] + ([f"${item:,}"] if isinstance(item, int) else [])


def leaks(html: str, game: Game) -> list[str]:
    state = game.state or {}
    found = []
    if state.get("seed") and state["seed"] in html:
        found.append("the seed")
    if game.seed and game.seed in html:
        found.append("the game's seed")
    hidden = list(state.get(HIDDEN[game.game_type], []))[:RUN]
    if len(hidden) == RUN:
        for way in range(3):
            for sep in (" ", ", ", ",", "</li><li>"):
                words = [_spellings(item)[min(way, len(_spellings(item)) - 1)] for item in hidden]
                if sep.join(words) in html:
                    found.append(f"the {HIDDEN[game.game_type]} order")
    return found


@pytest.mark.parametrize("game_type", ["vegas", "lords-of-vegas"])
def test_no_page_shows_a_secret_before_the_end(
    client: Any, ada: Any, bob: Any, cy: Any, make_game: Any, game_type: str
) -> None:
    game = make_game(ada, bob, game_type=game_type)
    for _ in range(6):  # a few moves, so that the pages show a game under way
        player = actor(game)
        legal = selectors.game_view(game=game, user=player)["legal_commands"]
        services.submit_command(game=game, user=player, text=legal[-1]["text"], source="web")
        game.refresh_from_db()
        for viewer in (ada, bob, cy, None):  # (None: a signed-out visitor, decision 0029)
            if viewer is None:
                client.logout()
            else:
                client.force_login(viewer)
            for url in (f"/games/{game.pk}/", "/games/", f"/games/{game.pk}/moves/{game.version}/"):
                response = client.get(url)
                assert response.status_code == 200, (viewer, url)
                assert leaks(response.content.decode(), game) == [], (viewer, url)


def test_the_seed_is_shown_after_the_end(client: Any, ada: Any, bob: Any, make_game: Any) -> None:
    game = make_game(ada, bob, game_type="vegas")
    services.resign(game=game, user=ada)
    game.refresh_from_db()
    client.force_login(bob)
    assert "the game's seed" in leaks(client.get(f"/games/{game.pk}/").content.decode(), game)


def test_the_scan_would_see_a_leaked_order(ada: Any, bob: Any, make_game: Any) -> None:
    game = make_game(ada, bob, game_type="lords-of-vegas")
    deck = (game.state or {})["deck"][:RUN]
    assert leaks("<li>" + "</li><li>".join(deck) + "</li>", game) != []
