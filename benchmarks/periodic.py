#!/usr/bin/env python3
"""Benchmark of the periodic work (Celery beat): it costs by what is due, not by the site.

    .venv/bin/python benchmarks/periodic.py      # about 5 minutes; prints a table + JSON

Issue 15, target 4: with 100,000 active games of which 100 are due, each periodic task costs
at most 1.5 x what it costs with 1,000 active games and the same 100 due.

In one run, against PostgreSQL at ``PG_URL`` (default ``postgres://postgres@127.0.0.1:5432``):

1. Recreates two databases, ``BENCH_DB`` + ``_small`` and + ``_large`` (default
   ``lords_periodic_bench_small`` and ``lords_periodic_bench_large``), and migrates them.
   Email goes to Django's in-memory backend (the tasks' own work, not an SMTP server's);
   webhooks POST to a tiny HTTP server on 127.0.0.1 in this process; Celery tasks run
   eagerly (the moves the sweep commits are announced in-process, as a worker would).
2. Through the service functions: ``DUE`` (100) games of Vegas, two people each, whose
   deadline has passed (``max_timeouts`` 0: never a forfeit), and ``DUE`` more (Lords of
   Vegas, two people) with a deadline an hour away, whose waiting player is due a reminder
   (the server's 12-hour lead time); the waiting players of those are also due their daily
   digest. And, one each per due game: an open trade offer past its expiry, an invitation
   email due (a failed try), a stored email due again (``send_due``), a league email
   waiting, a webhook with one undelivered event. That is the due work, the same at both sizes.
3. Fills the small one up to ``SMALL`` (1,000) active games with copies (``bulk_create``:
   the state of a started game, two people's seats; the players are real users with email
   preferences, four games each, one in ten a digest player whose hour is to come), none
   due: deadlines spread from 37 to 72 hours away (outside every reminder window), and per
   game a sent invitation and a sent email, per ten games a sent league email and an open
   trade offer that expires in days, per twenty players an idle webhook. The large one gets
   the same due work and ``LARGE`` (100,000) active games the same way; ``VACUUM ANALYZE``.
4. Runs each task ``RUNS`` (5) times at each size, switching the connection between the two
   databases, small first then large first in turn (the shared machine's load falls on
   both alike); the due work is made due again before each run (deadlines, expiries and
   send times back in the past, reminders, digests and webhook positions taken back; the
   sweep gets fresh copies of its late games, so each run plays the same turns).
5. Prints per task the median wall time (and process CPU time, and SQL queries) at both
   sizes, the ratio large / small against the target 1.5, and ``EXPLAIN (ANALYZE, BUFFERS)``
   of each task's selection query (its first SELECT) at the large size while its work is
   due. The last line is one JSON object with every figure.

The tasks are the functions the beat tasks call (``lords/settings.py``
``CELERY_BEAT_SCHEDULE``): ``timeouts.sweep`` (and ``trades.expire_trades``, which the
sweep's task also runs), ``notifications.services.send_reminders``,
``notifications.digest.run_digests``, ``notifications.services.send_due``,
``notifications.table.send_due_invitations``, ``notifications.outbound.deliver_due``,
``leagues.mail.send_waiting``. The script runs against the checkout it sits in (copy it into
another worktree to measure that code); where a column of the newer schema exists
(``Seat.remind_at``, ``Webhook.pending``) the copies get the value the write path would
have left on them.
"""

from __future__ import annotations

import json
import os
import secrets
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PG_URL = os.environ.get("PG_URL", "postgres://postgres@127.0.0.1:5432")
BENCH_DB = os.environ.get("BENCH_DB", "lords_periodic_bench")
DUE = int(os.environ.get("DUE", "100"))
SMALL = int(os.environ.get("SMALL", "1000"))
LARGE = int(os.environ.get("LARGE", "100000"))
RUNS = int(os.environ.get("RUNS", "5"))
TARGET = 1.5
DATABASES = {SMALL: f"{BENCH_DB}_small", LARGE: f"{BENCH_DB}_large"}
GAMES_PER_PLAYER = 4
ENV = {
    "DATABASE_URL": f"{PG_URL}/{BENCH_DB}",
    "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/14"),
    "DEBUG": "false",
    "SECURE": "false",
    "SECRET_KEY": "benchmark-only-secret-key-" + "p" * 40,
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "CELERY_TASK_ALWAYS_EAGER": "true",
    "LOG_LEVEL": "ERROR",
    "NOTIFICATIONS_REMIND_BEFORE_HOURS": "12",
}
H = timedelta(hours=1)


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def psql(sql: str) -> None:
    subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", "postgres", "-q", "-c", sql],
        check=True,
        capture_output=True,
    )


def setup() -> None:
    os.environ.update(ENV)
    for name in DATABASES.values():
        psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        psql(f'CREATE DATABASE "{name}"')
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            check=True,
            env={**os.environ, "DATABASE_URL": f"{PG_URL}/{name}"},
        )
    os.environ["DJANGO_SETTINGS_MODULE"] = "lords.settings"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    from collections import deque

    from django.db import connection

    connection.queries_limit = 10**6  # (a sweep of 100 games runs more than 9,000 queries)
    connection.queries_log = deque(maxlen=connection.queries_limit)


def use(size: int) -> None:
    """Point this process at the database of ``size`` games (outside any timing: a new
    connection, and the cache emptied, since the two databases reuse the same ids)."""
    from django.core.cache import cache
    from django.db import connection

    connection.close()
    connection.settings_dict["NAME"] = DATABASES[size]
    connection.ensure_connection()
    cache.clear()


def has_field(model: Any, name: str) -> bool:
    return any(f.name == name for f in model._meta.get_fields())


# -- a webhook receiver ------------------------------------------------------------------


class _Receiver(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def receiver() -> str:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/hook"


# -- the due work ------------------------------------------------------------------------


class Due:
    """The due work, made by the services, and how to make it due again."""

    def __init__(self, hook_url: str) -> None:
        self.hook_url = hook_url
        self.templates: list[int] = []  # games copied for each run of the sweep
        self.late: list[int] = []  # the copies past their deadline
        self.near: list[int] = []  # games an hour from it (a reminder due)
        self.digest_users: list[int] = []
        self.offers: list[int] = []
        self.invitations: list[int] = []
        self.emails: list[int] = []
        self.league_mails: list[int] = []
        self.hooks: list[tuple[int, int]] = []  # (webhook, its user)
        self.hook_users: list[int] = []

    def create(self) -> None:
        from accounts.models import User
        from games import services
        from games.models import Invitation, PlayerEvent, Webhook
        from leagues.models import Mail
        from notifications.models import EmailPreference, Notification

        people = User.objects.bulk_create(
            [
                User(email=f"due{n}@bench.example", password="!", language="en", time_zone="UTC")
                for n in range(4 * DUE)
            ]
        )
        for n in range(2 * DUE):
            a, b = people[2 * n], people[2 * n + 1]
            kind = "vegas" if n < DUE else "lords-of-vegas"  # (Vegas has no trades)
            game = services.create_game(creator=a, game_type=kind, seats=2, max_timeouts=0)
            services.join_game(game=game, user=b)
            services.start_game(game=game, by=a, seed=f"bench-{n}")
            (self.templates if n < DUE else self.near).append(game.pk)
        for game_id in self.near:
            seat = _waiting_seat(game_id)
            self.digest_users.append(seat.user_id)
            self.offers.append(_offer(game_id))
        EmailPreference.objects.bulk_create(
            [EmailPreference(user_id=u, digest=True, digest_hour=8) for u in self.digest_users]
        )
        self.invitations = [
            i.pk
            for i in Invitation.objects.bulk_create(
                [
                    Invitation(
                        game_id=g, email=f"inv{g}@bench.example", token=secrets.token_hex(16)
                    )
                    for g in self.templates
                ]
            )
        ]
        self.emails = list(
            Notification.objects.filter(game_id__in=self.templates, kind="turn")
            .exclude(subject="")
            .values_list("pk", flat=True)[:DUE]
        )
        self.league_mails = [
            m.pk
            for m in Mail.objects.bulk_create(
                [
                    Mail(kind="tool", to=f"league{n}@bench.example", subject="s", body_text="b")
                    for n in range(DUE)
                ]
            )
        ]
        for k, user in enumerate(people[:DUE]):
            hook = Webhook.objects.create(user=user, url=self.hook_url, secret=_secret())
            game_id = self.templates[k // 2]  # (one of the user's games)
            PlayerEvent.objects.create(
                user=user,
                game_id=game_id,
                kind="your_turn",
                key=f"bench-{user.pk}",
                data={"game": game_id},
            )
            self.hooks.append((hook.pk, user.pk))
            self.hook_users.append(user.pk)

    def make_due(self) -> None:
        """Everything due again, as it was before the last run took it."""
        from django.db import transaction
        from django.db.models import Max
        from django.utils import timezone

        from games.models import Game, Invitation, PlayerEvent, Seat, TradeOffer, Webhook
        from leagues.models import Mail
        from notifications.models import EmailPreference, Notification

        now = timezone.now()
        hour = now.replace(minute=0, second=0, microsecond=0)
        with transaction.atomic():
            self.late = _copies(self.templates, self.late, deadline=now - H)
            Game.objects.filter(pk__in=self.near).update(deadline=now + H)
            Notification.objects.filter(
                game_id__in=self.near, kind__in=["reminder", "offer_closed"]
            ).delete()
            if has_field(Seat, "remind_at"):  # as a wait with this deadline leaves it
                Seat.objects.filter(game_id__in=self.near, to_act=True).update(
                    remind_at=now + H - 36 * H
                )
            Notification.objects.filter(user_id__in=self.digest_users, kind="digest").delete()
            EmailPreference.objects.filter(user_id__in=self.digest_users).update(
                digest_hour=hour.hour,
                digest_at=hour,  # (this hour: their hour, in UTC)
            )
            TradeOffer.objects.filter(pk__in=self.offers).update(
                status="open", expires_at=now - H, resolved_at=None, message=""
            )
            Invitation.objects.filter(pk__in=self.invitations).update(
                emailed_at=None, email_due_at=now - H, email_attempts=0
            )
            Notification.objects.filter(pk__in=self.emails).update(
                status="failed", due_at=now - H, attempts=1
            )
            Mail.objects.filter(pk__in=self.league_mails).update(
                sent_at=None, due_at=now - H, attempts=0
            )
            newest = dict(
                PlayerEvent.objects.filter(user_id__in=self.hook_users)
                .values("user_id")
                .annotate(last=Max("id"))
                .values_list("user_id", "last")
            )
            for hook_id, user_id in self.hooks:  # one event to deliver
                back = {"last_event": newest[user_id] - 1, "retry_at": None, "failures": 0}
                if has_field(Webhook, "pending"):
                    back["pending"] = True
                Webhook.objects.filter(pk=hook_id).update(**back)


def _copies(templates: list[int], used: list[int], *, deadline: Any) -> list[int]:
    """Fresh copies of the ``templates`` games (rows, seats and the setup move: the log
    takes inserts), past their ``deadline``, so each run of the sweep does the same work;
    the copies ``used`` by the last run are finished (the active games stay as many)."""
    from games.models import Game, Move, Seat

    Game.objects.filter(pk__in=used).update(status="finished", deadline=None)
    games = list(Game.objects.filter(pk__in=templates).order_by("pk"))
    seats = list(Seat.objects.filter(game_id__in=templates))
    moves = list(Move.objects.filter(game_id__in=templates))
    copies = {}
    for game in games:
        old = game.pk
        game.pk = None
        game.deadline = deadline
        copies[old] = game
    Game.objects.bulk_create(list(copies.values()))
    seat_of = {}
    for seat in seats:
        old = seat.pk
        seat.pk, seat.game_id = None, copies[seat.game_id].pk
        seat_of[old] = seat
    Seat.objects.bulk_create(list(seat_of.values()))
    for move in moves:
        move.pk, move.game_id = None, copies[move.game_id].pk
        move.seat_id = seat_of[move.seat_id].pk if move.seat_id else None
    Move.objects.bulk_create(moves)
    return [copies[t].pk for t in templates]


def _waiting_seat(game_id: int) -> Any:
    from games.models import Seat

    return Seat.objects.get(game_id=game_id, to_act=True)


def _offer(game_id: int) -> int:
    """An open offer by the waiting seat: one dollar to the other player."""
    from games import services
    from games.models import Seat

    seats = list(Seat.objects.filter(game_id=game_id).select_related("user").order_by("order"))
    proposer = next(s for s in seats if s.to_act)
    other = next(s for s in seats if not s.to_act)
    offer = services.propose_trade(
        game=game_id, user=proposer.user, text=f"trade {proposer.colour} pays {other.colour} 1"
    )
    return int(offer.pk)


def _secret() -> str:
    import base64

    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


# -- the rest of the site ----------------------------------------------------------------


class Site:
    """Active games that are not due, grown by bulk copies of one started game."""

    def __init__(self, template_id: int) -> None:
        from games.models import Game, Seat

        self.template = Game.objects.get(pk=template_id)
        self.seats = list(Seat.objects.filter(game_id=template_id).order_by("order"))
        self.games = 0
        self.offer_command = None

    def grow(self, count: int) -> None:
        """``count`` more games, in chunks (the memory stays small)."""
        done = 0
        while done < count:
            chunk = min(5000, count - done)
            self._chunk(self.games + done, chunk)
            done += chunk
        self.games += count

    def _chunk(self, start: int, count: int) -> None:
        from django.utils import timezone

        from accounts.models import User
        from games.models import Game, Invitation, Seat, TradeOffer, Webhook
        from leagues.models import Mail
        from notifications.models import EmailPreference, Notification

        now = timezone.now()
        t = self.template
        players = (2 * count) // GAMES_PER_PLAYER
        users = User.objects.bulk_create(
            [
                User(email=f"p{start}-{n}@bench.example", password="!", language="en")
                for n in range(players)
            ],
            batch_size=2000,
        )
        EmailPreference.objects.bulk_create(
            [
                EmailPreference(
                    user=u,
                    digest=n % 10 == 0,
                    digest_at=now + timedelta(minutes=30 + n % 1380) if n % 10 == 0 else None,
                )
                for n, u in enumerate(users)
            ],
            batch_size=2000,
        )
        deadlines = [now + 37 * H + (35 * H) * (i / count) for i in range(count)]
        games = Game.objects.bulk_create(
            [
                Game(
                    game_type=t.game_type,
                    options=t.options,
                    status="active",
                    seed=t.seed,
                    seed_hash=t.seed_hash,
                    state=t.state,
                    version=t.version,
                    max_seats=2,
                    turn_hours=t.turn_hours,
                    deadline=deadlines[i],
                    clock_started_at=deadlines[i] - t.turn_hours * H,
                    started_at=now,
                )
                for i in range(count)
            ],
            batch_size=2000,
        )
        remind = has_field(Seat, "remind_at")
        seats = []
        for i, game in enumerate(games):
            for seat in self.seats:
                user = users[(2 * i + seat.order) % players]
                to_act = seat.to_act
                half = deadlines[i] - timedelta(hours=t.turn_hours) / 2
                extra = {"remind_at": half} if remind and to_act else {}
                seats.append(
                    Seat(
                        game=game,
                        user=user,
                        order=seat.order,
                        colour=seat.colour,
                        to_act=to_act,
                        **extra,
                    )
                )
        Seat.objects.bulk_create(seats, batch_size=5000)
        Invitation.objects.bulk_create(
            [
                Invitation(
                    game=g,
                    email=f"i{g.pk}@bench.example",
                    token=secrets.token_hex(16),
                    emailed_at=now - H,
                    email_attempts=1,
                )
                for g in games
            ],
            batch_size=5000,
        )
        Notification.objects.bulk_create(
            [
                Notification(
                    user=users[(2 * i) % players],
                    game=g,
                    kind="turn",
                    key="v0",
                    version=0,
                    status="sent",
                    sent_at=now - H,
                )
                for i, g in enumerate(games)
            ],
            batch_size=5000,
        )
        Mail.objects.bulk_create(
            [
                Mail(
                    kind="tool",
                    to=f"m{g.pk}@bench.example",
                    subject="s",
                    body_text="b",
                    sent_at=now - H,
                )
                for g in games[::10]
            ],
            batch_size=5000,
        )
        TradeOffer.objects.bulk_create(
            [
                TradeOffer(
                    game=g,
                    proposer=seats[2 * i],
                    command=self.offer_command or {},
                    text="trade",
                    parties=[0, 1],
                    accepted_by=[0],
                    expires_at=now + 3 * 24 * H,
                )
                for i, g in enumerate(games)
                if i % 10 == 0
            ],
            batch_size=5000,
        )
        Webhook.objects.bulk_create(
            [Webhook(user=u, url="http://127.0.0.1:9/idle", secret=_secret()) for u in users[::20]],
            batch_size=5000,
        )


# -- the tasks ---------------------------------------------------------------------------


def tasks() -> dict[str, Callable[[], Any]]:
    from games.services import expire_trades, timeouts
    from leagues.mail import send_waiting
    from notifications import digest, outbound, services, table

    return {
        "sweep": timeouts.sweep,
        "expire_trades": expire_trades,
        "reminders": services.send_reminders,
        "digests": digest.run_digests,
        "send_due": services.send_due,
        "invitations": table.send_due_invitations,
        "webhooks": outbound.deliver_due,
        "league_mail": send_waiting,
    }


def timed(task: Callable[[], Any]) -> dict[str, Any]:
    from django.core import mail
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    mail.outbox = []
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as queries:
        wall, cpu = time.perf_counter(), time.process_time()
        done = task()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    first = next((q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("SELECT")), "")
    count = len(done) if isinstance(done, list) else done
    return {"wall": wall, "cpu": cpu, "queries": len(queries), "did": count, "select": first}


def measure(dues: dict[int, Due]) -> dict[int, dict[str, dict[str, Any]]]:
    """Each task ``RUNS`` times at each size (the due work made due again before each),
    the sizes alternating (small first, then large first...), so that the load of the
    shared machine falls on both alike."""
    runs: dict[int, dict[str, list[dict[str, Any]]]] = {
        size: {name: [] for name in tasks()} for size in dues
    }
    for n in range(RUNS):
        sizes = sorted(dues) if n % 2 == 0 else sorted(dues, reverse=True)
        for name, task in tasks().items():
            for size in sizes:
                use(size)
                dues[size].make_due()
                runs[size][name].append(timed(task))
    return {size: _medians(by_task) for size, by_task in runs.items()}


def _medians(runs: dict[str, list[dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    return {
        name: {
            "wall_ms": round(statistics.median(r["wall"] for r in rs) * 1000, 2),
            "cpu_ms": round(statistics.median(r["cpu"] for r in rs) * 1000, 2),
            "queries": statistics.median(r["queries"] for r in rs),
            "did": statistics.median(r["did"] for r in rs),
            "select": rs[-1]["select"],
        }
        for name, rs in runs.items()
    }


def explain(due: Due, sql: str) -> str:
    """The plan of ``sql`` while the work is due (in a transaction rolled back: a FOR
    UPDATE locks nothing for long)."""
    from django.db import connection, transaction

    if not sql:
        return "(no SELECT)"
    due.make_due()
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) {sql}")
            plan = "\n".join(row[0] for row in cursor.fetchall())
        transaction.set_rollback(True)
    return plan


def analyze() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def main() -> None:
    setup()
    from games.models import TradeOffer

    hook_url = receiver()
    dues = {}
    for size in (SMALL, LARGE):
        use(size)
        log(f"{size} active games: the due work ({DUE} late, {DUE} near) and the rest")
        due = dues[size] = Due(hook_url)
        due.create()
        site = Site(due.near[0])
        site.offer_command = TradeOffer.objects.get(pk=due.offers[0]).command
        site.grow(size - 2 * DUE)
        analyze()
        for task in tasks().values():  # warm-up: templates, engines, connections
            due.make_due()
            task()
    log(f"measuring, {RUNS} runs of each task at each size, alternating")
    measured = measure(dues)
    small, large = measured[SMALL], measured[LARGE]
    use(LARGE)
    plans = {name: explain(dues[LARGE], large[name]["select"]) for name in tasks()}
    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(
        f"\n{'task':<14} {'did':>5} {f'ms {SMALL}':>8} {f'ms {LARGE}':>9} {'ratio':>6} "
        f"{'cpu ratio':>9} {f'q {SMALL}':>7} {f'q {LARGE}':>8}  target {TARGET}"
    )
    result: dict[str, Any] = {
        "small": SMALL,
        "large": LARGE,
        "due": DUE,
        "runs": RUNS,
        "target": TARGET,
        "uptime": uptime,
        "tasks": {},
    }
    for name in tasks():
        s, g = small[name], large[name]
        ratio = round(g["wall_ms"] / s["wall_ms"], 2) if s["wall_ms"] else 0.0
        cpu = round(g["cpu_ms"] / s["cpu_ms"], 2) if s["cpu_ms"] else 0.0
        met = "ok" if ratio <= TARGET else "MISSED"
        print(
            f"{name:<14} {g['did']:>5} {s['wall_ms']:>8} {g['wall_ms']:>9} {ratio:>6} "
            f"{cpu:>9} {s['queries']:>7} {g['queries']:>8}  {met}"
        )
        result["tasks"][name] = {
            "did": g["did"],
            "small": {k: v for k, v in s.items() if k != "select"},
            "large": {k: v for k, v in g.items() if k != "select"},
            "ratio": ratio,
            "cpu_ratio": cpu,
            "plan": plans[name],
        }
    print(f"load: {uptime}")
    for name in tasks():
        print(f"\nEXPLAIN (ANALYZE, BUFFERS) at {LARGE}: {name}\n{plans[name]}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
