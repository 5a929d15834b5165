"""Fixtures shared by the whole suite: players, a started game, and the replay check."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from hypothesis import settings

from accounts.models import User

PASSWORD = "a-long-test-password"

# No test asserts a time: Hypothesis's default deadline (200 ms an example) failed a
# notation property on a loaded machine. Speed lives in benchmarks/.
settings.register_profile("lords", deadline=None)
settings.load_profile("lords")


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """The default hasher costs ~0.3 s a user; tests need no protection against brute force."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _sign_ups_from_one_address(settings: Any) -> None:
    """Every test signs up from 127.0.0.1, and allauth allows 20 sign-ups a minute from one
    address (counted in the shared cache, across the workers): with every sign-up going
    through its code page (decision 0034) the suite passed that. Its other limits stay."""
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "signup": "1000/m/ip"}


@pytest.fixture(autouse=True)
def _no_language_left_active() -> Any:
    """A request may leave its reader's language active in the thread (a server's next
    request activates its own; a test's next test would not): each test starts without."""
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.fixture
def make_user(db: Any) -> Callable[..., User]:
    """``make_user("ada")`` -> ada@example.org, named "ada" (created once)."""

    def make(name: str, **extra: Any) -> User:
        email = name if "@" in name else f"{name}@example.org"
        user = User.objects.filter(email=email).first()
        extra.setdefault("display_name", email.split("@", 1)[0])
        return user or User.objects.create_user(email, PASSWORD, **extra)

    return make


@pytest.fixture
def ada(make_user: Callable[..., User]) -> User:
    return make_user("ada")


@pytest.fixture
def bob(make_user: Callable[..., User]) -> User:
    return make_user("bob")


@pytest.fixture
def cy(make_user: Callable[..., User]) -> User:
    return make_user("cy")


@pytest.fixture
def dee(make_user: Callable[..., User]) -> User:
    return make_user("dee")


@pytest.fixture
def make_game(db: Any, request: pytest.FixtureRequest) -> Callable[..., Any]:
    """``make_game(ada, bob, bots=1, game_type="vegas", start=True)``: a game created by the
    first player, the others joined, bots added, started unless ``start=False``. Its seed is
    derived from the test's name, so every run of a test plays the same dice."""
    from games import services

    made = itertools.count()

    def make(
        *players: User,
        bots: int = 0,
        game_type: str = "vegas",
        options: dict[str, Any] | None = None,
        start: bool = True,
        bot: str = "greedy",
        **kwargs: Any,
    ) -> Any:
        creator, *others = players
        seats = kwargs.pop("seats", max(2, len(players) + bots))
        game = services.create_game(
            creator=creator, game_type=game_type, options=options, seats=seats, **kwargs
        )
        for user in others:
            token = None
            if game.private:
                token = services.invite(game=game, by=creator, email=user.email).token
            services.join_game(game=game, user=user, token=token)
        for _ in range(bots):
            services.add_bot(game=game, by=creator, bot=bot)
        if start:
            name = f"{request.node.nodeid} / game {next(made)}"
            seed = hashlib.sha256(name.encode()).hexdigest()
            services.start_game(game=game, by=creator, seed=seed)
        game.refresh_from_db()
        return game

    return make


def replay_finished_games(games: Iterable[Any] | None = None) -> list[str]:
    """Replay every finished game (or ``games``) from its seed and log; the problems found
    (empty: every replay equals its snapshot)."""
    from games.models import Game
    from games.services import verify_game

    if games is None:
        games = Game.objects.filter(status=Game.Status.FINISHED)
    problems: list[str] = []
    for game in games:
        result = verify_game(game=game)
        problems += [f"game #{game.pk}: {p}" for p in result.problems]
    return problems


@pytest.fixture
def assert_finished_games_replay(db: Any) -> Callable[[], int]:
    """Call it at the end of a test: every finished game in the database must replay to its
    snapshot. Returns how many games were checked."""
    from games.models import Game

    def check() -> int:
        problems = replay_finished_games()
        assert not problems, "\n".join(problems)
        return Game.objects.filter(status=Game.Status.FINISHED).count()

    return check


_DB_FIXTURES = (
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
)


@pytest.fixture
def games_may_be_tampered() -> None:
    """Request it in a test that corrupts a game on purpose: the replay check below skips it."""


@pytest.fixture(autouse=True)
def _every_finished_game_replays(request: pytest.FixtureRequest) -> Any:
    """After every test that used the database: each finished game it left replays from its
    seed and log to its snapshot (the games are still there: pytest-django rolls back or
    flushes after this fixture's teardown)."""
    marked = request.node.get_closest_marker("django_db") is not None
    requested = [name for name in _DB_FIXTURES if name in request.fixturenames]
    if not marked and requested:
        # Set the database up now, so that it is torn down after the check below.
        transactional = [name for name in requested if name != "db"]
        request.getfixturevalue((transactional or requested)[0])
    yield
    if not (marked or requested) or "games_may_be_tampered" in request.fixturenames:
        return
    problems = replay_finished_games()
    assert not problems, "a finished game does not replay:\n" + "\n".join(problems)
