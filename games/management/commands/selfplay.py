"""``manage.py selfplay``: bot games to the end with every invariant checked, as one JSON line.

A thin door onto :func:`games.engines.selfplay.play`: it only turns the arguments into an engine
and options, and the result into a line and an exit code (1 when an invariant broke)::

    python manage.py selfplay --game lords-of-vegas --edition 2024 --players 4 --games 200 --seed 1
    python manage.py selfplay --game vegas --players 4 --games 200 --seed 1 --variant neutral
"""

from __future__ import annotations

import json
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engines import registry, selfplay
from games.engines.base import InvalidOptions


class Command(BaseCommand):
    help = "Play bot games to the end, checking every invariant; print the figures as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", required=True, help=f"one of {', '.join(registry.slugs())}")
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", default="1", help="everything is derived from it")
        parser.add_argument("--bot", default="random", help="random or greedy")
        parser.add_argument("--edition", help="Lords of Vegas: 2024 or classic")
        parser.add_argument("--variant", help="Vegas: standard or neutral")
        parser.add_argument("--max-commands", type=int, default=selfplay.MAX_COMMANDS)

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            engine = registry.get_engine(opts["game"])
        except LookupError as error:
            raise CommandError(str(error)) from error
        options = {key: opts[key] for key in ("edition", "variant") if opts[key] is not None}
        try:
            stats = selfplay.play(
                engine, opts["players"], options, opts["games"], opts["seed"], opts["bot"],
                max_commands=opts["max_commands"], clock=time.perf_counter,
            )  # fmt: skip
        except (InvalidOptions, KeyError) as error:
            raise CommandError(str(error).strip("'\"")) from error
        self.stdout.write(json.dumps(stats))
        if stats["invariant_violations"]:
            count = stats["invariant_violations"]
            raise CommandError(f"{count} game(s) broke an invariant", returncode=1)
