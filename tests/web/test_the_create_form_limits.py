"""The create form's numbers: each input carries its range (the browser stops a value out
of it), and a refusal names the field as the form labels it, in a sentence, in the
player's language; the API's refusal has the same words and names its key in ``field``.

Found by play-testing: the refusals named the API's keys, in French too ("max_timeouts va
de 0 à 20 échéances manquées d'affilée, pas 21", "cap_hours va de 200 à 720 heures, pas
100"), and "turn time is 1 to 720 hours" started lower-case."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation

from games import services
from games.models import Game
from tests.api.helpers import assert_error, make_player
from tests.web.helpers import page_text

pytestmark = pytest.mark.django_db

FORM = {"game_type": "vegas", "edition": "standard", "seats": 2, "turn_hours": 48}
RANGES = {
    "turn_hours": ("1", "720"),
    "max_timeouts": ("0", "20"),
    "vacation_days": ("0", "30"),
    "bank_hours": ("1", "720"),
    "increment_hours": ("1", "720"),
    "cap_hours": ("1", "720"),
}


def _input(page: str, name: str) -> str:
    found = re.search(rf'<input type="number" name="{name}"[^>]*>', page)
    assert found, f"no number input {name}"
    return found.group(0)


def test_every_number_of_the_create_form_has_its_range(client: Any, ada: Any) -> None:
    client.force_login(ada)
    page = client.get("/games/?game_type=vegas").content.decode()
    for name, (low, high) in RANGES.items():
        tag = _input(page, name)
        assert f'min="{low}"' in tag and f'max="{high}"' in tag, tag


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("max_timeouts", 21, "Missed turns before a forfeit: 0 to 20, not 21."),
        ("vacation_days", 31, "Vacation days per player: 0 to 30, not 31."),
        ("turn_hours", 721, "Hours per turn: 1 to 720, not 721."),
    ],
)
def test_the_service_names_a_number_out_of_range_by_its_label(
    ada: Any, field: str, value: int, said: str
) -> None:
    asked: dict[str, Any] = {field: value}
    with pytest.raises(services.InvalidRequest) as caught:
        services.create_game(creator=ada, game_type="vegas", **asked)
    assert caught.value.message == said
    assert caught.value.extra["field"] == field
    assert not Game.objects.exists()


def test_a_french_player_reads_the_forms_french_words(client: Any, make_user: Any) -> None:
    elise = make_user("elise", language="fr")
    with translation.override("fr"), pytest.raises(services.InvalidRequest) as caught:
        services.create_game(creator=elise, game_type="vegas", max_timeouts=21)
    assert caught.value.message.startswith("Tours manqués avant forfait"), caught.value.message
    assert "max_timeouts" not in caught.value.message
    client.force_login(elise)
    bank = {"clock": "bank", "bank_hours": 200, "increment_hours": 12, "cap_hours": 100}
    response = client.post("/games/new/", {**FORM, **bank})
    assert response.status_code == 400
    text = page_text(response.content.decode())
    assert "Réserve maximale (heures)" in text and "cap_hours" not in text, text
    assert not Game.objects.exists()


def test_the_web_form_says_a_cap_below_the_bank_in_a_sentence(client: Any, ada: Any) -> None:
    client.force_login(ada)
    bank = {"clock": "bank", "bank_hours": 200, "increment_hours": 12, "cap_hours": 100}
    response = client.post("/games/new/", {**FORM, **bank})
    assert response.status_code == 400
    assert "Largest bank (hours): 200 to 720, not 100." in page_text(response.content.decode())
    assert not Game.objects.exists()


def test_a_number_beyond_the_form_s_range_is_refused_beside_its_field(
    client: Any, ada: Any
) -> None:
    """A browser that ignores ``max`` (or a hand-made request): the form refuses it, the
    field's own error under its label; the API's key is nowhere."""
    client.force_login(ada)
    response = client.post("/games/new/", {**FORM, "max_timeouts": 21})
    assert response.status_code == 400
    text = page_text(response.content.decode())
    assert "less than or equal to 20" in text and "max_timeouts" not in text
    assert not Game.objects.exists()


def test_the_api_refusal_has_the_same_words_and_names_its_key() -> None:
    alice = make_player()
    clock = {"kind": "bank", "bank_hours": 200, "cap_hours": 100}
    response = alice.client.post(
        "/api/v1/games/", {"game_type": "vegas", "seats": 2, "clock": clock}, format="json"
    )
    error = assert_error(response, 400, "invalid_request")
    assert error["message"] == "Largest bank (hours): 200 to 720, not 100."
    assert error["detail"] == {"field": "cap_hours"}
    assert not Game.objects.exists()
