"""``manage.py export_game <id>``: the game record as JSON on stdout (the seed only once the
game has ended)."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.services import ServiceError, export_game


class Command(BaseCommand):
    help = "Print a game's record as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_id", type=int)
        parser.add_argument("--indent", type=int, default=2)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            record = export_game(game=options["game_id"])
        except ServiceError as exc:  # no such game
            raise CommandError(exc.message) from exc
        self.stdout.write(json.dumps(record, indent=options["indent"] or None))
