"""``manage.py seed_demo``: demo players and a game of each type in progress. Idempotent:
running it again changes nothing that exists."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from accounts.models import User
from games import services
from games.engines.registry import get_engine
from games.models import Game, Seat
from games.services.bots import bot_command

PASSWORD = "lords-demo-password"
PLAYERS = ("ada", "bob", "cy", "dee")
ADMIN = "admin@example.org"
DEMO_BOT = "greedy"
"""The bot seated in the demo games, and whose choices the demo players' moves are."""


class Command(BaseCommand):
    help = "Create demo users and games in progress (idempotent); print the logins."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--moves", type=int, default=12, help="moves to play in each game")

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            users = {name: _user(f"{name}@example.org") for name in PLAYERS}
            _user(ADMIN, is_staff=True, is_superuser=True)
        demos = [
            ("lords-of-vegas", [users["ada"], users["bob"], users["cy"]], 0),
            ("vegas", [users["ada"], users["dee"]], 1),
        ]
        for game_type, players, bots in demos:
            try:
                with transaction.atomic():  # all of a demo game, or none of it
                    game = self._demo_game(game_type, players, bots, options["moves"])
            except Exception as exc:  # a demo must never keep `make run` from starting
                self.stderr.write(f"(no {game_type} demo game: {exc!r})")
                continue
            if game is not None:
                self.stdout.write(f"{game.game_type} game #{game.pk}: version {game.version}")
        site = getattr(settings, "SITE_URL", "http://localhost:8000")
        self.stdout.write(f"\nOpen {site}/games/ and sign in with (password {PASSWORD!r}):")
        for name in PLAYERS:
            self.stdout.write(f"  {name}@example.org")
        self.stdout.write(f"  {ADMIN} (admin, {site}/admin/)")

    def _demo_game(self, game_type: str, players: list[User], bots: int, moves: int) -> Game | None:
        existing = Game.objects.filter(created_by=players[0], game_type=game_type).first()
        if existing is not None:
            return existing
        try:
            engine = get_engine(game_type)
        except ImportError as exc:
            self.stdout.write(f"({game_type} is not available yet: {exc})")
            return None
        creator, *others = players
        game = services.create_game(
            creator=creator, game_type=game_type, seats=len(players) + bots, turn_hours=72
        )
        for user in others:
            services.join_game(game=game, user=user)
        for _ in range(bots):
            services.add_bot(game=game, by=creator, bot=DEMO_BOT)
        services.start_game(game=game, by=creator)
        for _ in range(moves):
            if game.status != Game.Status.ACTIVE or game.state is None:
                break
            order = engine.to_act(game.state)[0]
            seat = game.seats.get(order=order)
            # The players' moves are chosen as the platform chooses a bot's (the greedy bot
            # in their place), then submitted as theirs.
            stand_in = Seat(game=game, order=order, bot=DEMO_BOT)
            command = bot_command(engine, game.state, stand_in, game.version + 1, game.seed)
            try:
                services.submit_command(
                    game=game, user=seat.user, text=engine.format(command), source="web"
                )
            except services.ServiceError:
                services.submit_command(
                    game=game,
                    user=seat.user,
                    text=engine.format(engine.default_command(game.state, order)),
                    source="web",
                )
        return game


def _user(email: str, **extra: Any) -> User:
    user = User.objects.filter(email=email).first()
    if user is None:
        display_name = email.split("@", 1)[0].capitalize()
        user = User.objects.create_user(email, PASSWORD, display_name=display_name, **extra)
    return user
