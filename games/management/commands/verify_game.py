"""``manage.py verify_game <id> [<id>...] [--all]``: replay games from their seeds.

Prints whether each game's log replays to every logged event and to its snapshot; exits
non-zero when any does not match."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Game
from games.services import ServiceError, verify_game


class Command(BaseCommand):
    help = "Replay games from their seed and log; fail if any state does not match."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int)
        parser.add_argument("--all", action="store_true", help="every started game")

    def handle(self, *args: Any, **options: Any) -> None:
        ids: list[int] = options["game_ids"]
        if options["all"]:
            ids = list(Game.objects.exclude(seed="").order_by("pk").values_list("pk", flat=True))
        if not ids:
            raise CommandError("name a game id (or --all)")
        failed = []
        for game_id in ids:
            try:
                result = verify_game(game=game_id)
            except ServiceError as exc:  # no such game, or not started
                raise CommandError(exc.message) from exc
            if result.ok:
                self.stdout.write(
                    f"game #{game_id}: matches ({result.moves_checked} moves replayed "
                    f"from the seed)"
                )
            else:
                failed.append(game_id)
                self.stdout.write(f"game #{game_id}: DOES NOT MATCH")
                for problem in result.problems:
                    self.stdout.write(f"  {problem}")
        if failed:
            names = ", ".join(f"#{game_id}" for game_id in failed)
            raise CommandError(f"the replay from the seed does not match for game {names}")
