"""Racing submissions over real HTTP: exactly one is applied, the others get 409 with the
version that won, and the log has no gap or duplicate."""

from __future__ import annotations

import threading
from typing import Any

import pytest
import requests

from games.models import Move
from tests.api.helpers import body, make_player, start_game


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_racing_submissions_apply_once(live_server: Any) -> None:
    seats = [make_player() for _ in range(2)]
    game_id = start_game(seats[0], seats[1:], "vegas")
    mover = next(p for p in seats if body(p.get(f"/games/{game_id}/"))["your_turn"])
    view = body(mover.get(f"/games/{game_id}/"))
    url = f"{live_server.url}/api/v1/games/{game_id}/moves/"
    command = view["legal_commands"][0]["text"]
    barrier = threading.Barrier(8)
    answers: list[tuple[int, dict[str, Any]]] = []

    def submit(index: int) -> None:
        session = requests.Session()
        barrier.wait()
        response = session.post(
            url,
            json={"command": command, "expected_version": view["version"]},
            headers={"Authorization": f"Token {mover.token}", "Idempotency-Key": f"race-{index}"},
            timeout=30,
        )
        answers.append((response.status_code, response.json()))

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    codes = sorted(code for code, _ in answers)
    assert codes.count(201) == 1, answers
    assert codes.count(409) == 7, answers
    winner = next(answer for code, answer in answers if code == 201)
    for code, answer in answers:
        if code == 409:
            assert answer["error"]["code"] in ("stale_version", "not_your_turn")
            if answer["error"]["code"] == "stale_version":
                assert answer["error"]["detail"]["current_version"] == winner["version"]
    seqs = list(Move.objects.filter(game_id=game_id).values_list("seq", flat=True))
    assert seqs == list(range(len(seqs)))
    assert seqs[-1] == winner["version"]
