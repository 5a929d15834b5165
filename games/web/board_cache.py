"""The board page, cached (issue 15, target 6): a running game's page costs an engine
view, its legal commands, a replay (the lots changed since the viewer's last move), the
log in sentences and some 50 KB of template; between two loads nothing of it changes
unless the table does. So a plain GET of the page is answered from the cache (Redis, and
the last pages in the process's memory), keyed by everything the page shows, read in one
query each time:

- the game's row (version, status, deadline, clock, pause votes...), its seats and their
  players (names, vacations: whether one is still away is computed by the database now),
  its trade offers, the table talk the viewer may read (how many messages, the newest, the
  hidden ones: not others' private messages, which would tell that they talk), the
  viewer's mutes and notes, the games that wait on the viewer (the "next game" line), and
  the leagues they administer and the game's season (the tools panel);
- the viewer (id, address, display name, staff, language and time zone), the language of
  the request, and the code, templates and catalogs that draw the page (one hash a process);
- the time, in steps of :data:`CLOCK_STEP`, for a running game with a time bank or the
  weekend pause (the clock panel says the hours left now, and a weekend that holds it).

Never cached: a POST's answer (the confirm step, a refusal), a page with flash messages or
a query string (``?chat_before=``), an open game (nothing expensive there), a private game
the viewer sees for another reason than a seat, its creation or staff (an invitation to a
verified address, which the key does not follow). A stored page holds no secret: the CSRF
token and the move form's idempotency key are stand-ins, replaced on each answer by a fresh
masked token and a fresh key. The key holds the viewer, so nobody gets another's page.

A signed-out visitor (decision 0029) reads a public game's page as a spectator does, with
no seat, no talk, no notes, no tools and no next game: every visitor gets the same page of
a position in one language, so they share one key, marked ``visitor`` in its name and in
what it hashes (no account's key can equal it), read with no viewer (``NULL``: a bot's
seat, whose player is ``NULL`` too, never matches it). A private game is never stored for
them (they are sent to sign in before it is drawn).

The ``ETag`` is the key's hash with the viewer's CSRF secret (a 304 keeps the browser's
copy, whose token must still be valid); ``If-None-Match`` with it gets a 304.
``settings.BOARD_PAGE_CACHE = False`` turns all of it off (the benchmark's cold render)."""

from __future__ import annotations

import hashlib
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from django.apps import apps
from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.utils import timezone, translation
from django.utils.crypto import salted_hmac

from games.web import present
from games.web.forms import new_key
from games.web.queries import board_cache_enabled

TTL = 3600
"""Seconds a stored page is kept: a page of an older position is never asked for again,
and a player back after an hour pays one render. Stored compressed (zlib): ~10 KB a page."""

PREFIX = "board-page:"

RECENT_PAGES = 256
"""Pages each process also keeps in its memory (~2.5 MB)."""


class _Recent:
    """The last pages this process served, compressed (~10 KB each): a page a player
    reloads, or that their live.js fetches, skips the cache's round trip. A key names one
    content for good (it holds everything the page shows), so no entry is ever stale."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.pages: OrderedDict[str, bytes] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        with self.lock:
            found = self.pages.get(key)
            if found is not None:
                self.pages.move_to_end(key)
            return found

    def put(self, key: str, page: bytes) -> None:
        with self.lock:
            self.pages[key] = page
            self.pages.move_to_end(key)
            while len(self.pages) > self.size:
                self.pages.popitem(last=False)


_recent = _Recent(RECENT_PAGES)


def forget(key: str) -> None:
    """Drop a stored page here and in the cache (the benchmark's render of a new page)."""
    with _recent.lock:
        _recent.pages.pop(key, None)
    cache.delete(key)


def enabled() -> bool:
    return board_cache_enabled()


@lru_cache(maxsize=1)
def stand_ins() -> tuple[str, str]:
    """The CSRF token's and the idempotency key's stand-ins in a stored page: letters and
    digits (escaping leaves them whole), derived from ``SECRET_KEY`` so that every process
    of the site agrees and nobody can type one into a chat message."""
    mac = salted_hmac("games.web.board_cache", "stand-ins").hexdigest()
    return f"csrfStandIn{mac[:24]}", f"keyStandIn{mac[24:48]}"


@lru_cache(maxsize=1)
def code_version() -> str:
    """A hash of what draws the page besides the data: templates, catalogs, the games
    app's code and static files (their names are in the page). Read once a process, so a
    deploy never serves a page drawn by the code before it."""
    base = Path(settings.BASE_DIR)
    dirs = [d for t in settings.TEMPLATES for d in cast(list[Any], t.get("DIRS", []))]
    roots = [Path(d) for d in dirs]
    roots += [Path(p) for p in settings.LOCALE_PATHS] + [base / "games", base / "lords"]
    digest = hashlib.sha256()
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.suffix in {".html", ".mo", ".py", ".js", ".css"} and path.is_file():
                digest.update(str(path.relative_to(base)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@lru_cache(maxsize=1)
def _sql() -> str:
    """The fingerprint query (table names from the models, in case one is renamed)."""
    from accounts.models import User
    from games.models import Game, Seat, TradeOffer
    from games.talk_models import ChatMessage, ChatMute, PlayerNote

    t = {
        "game": Game._meta.db_table,
        "seat": Seat._meta.db_table,
        "user": User._meta.db_table,
        "offer": TradeOffer._meta.db_table,
        "chat": ChatMessage._meta.db_table,
        "mute": ChatMute._meta.db_table,
        "note": PlayerNote._meta.db_table,
    }
    return _SQL.format(**t, league_admin=_league_admin())


def _league_admin() -> str:
    """Whether the viewer may use the tools as a league's admin (the page's tools panel,
    drawn by ``leagues``' template tag): the leagues they administer and the game's season,
    two lookups of one table each (a join of the three costs the query a third more to
    plan; a season never changes league). Read by name, as the template loads the tag,
    since games does not import leagues; nothing where leagues is not installed."""
    if not apps.is_installed("leagues"):
        return "NULL, NULL"
    season_game = apps.get_model("leagues", "SeasonGame")._meta.db_table
    league: Any = apps.get_model("leagues", "League")
    admins = league._meta.get_field("admins").remote_field.through._meta.db_table
    return f"""(SELECT string_agg(la.league_id::text, ',' ORDER BY la.league_id)
     FROM {admins} la WHERE la.user_id = %(viewer)s),
  (SELECT sg.season_id FROM {season_game} sg WHERE sg.game_id = g.id)"""


_SQL = """
SELECT g.status, g.private, g.created_by_id, g.state IS NOT NULL, md5(g::text),
  (SELECT md5(string_agg(concat_ws(';', s::text, u.email, u.display_name, u.away_until,
                                   u.away_until > now()), '|' ORDER BY s."order"))
     FROM {seat} s LEFT JOIN {user} u ON u.id = s.user_id WHERE s.game_id = g.id),
  EXISTS (SELECT 1 FROM {seat} s WHERE s.game_id = g.id AND s.user_id = %(viewer)s),
  (SELECT md5(string_agg(o::text, '|' ORDER BY o.id)) FROM {offer} o WHERE o.game_id = g.id),
  (SELECT concat_ws(';', count(*), max(c.id), count(c.hidden_at), max(c.hidden_at))
     FROM {chat} c WHERE c.game_id = g.id
       AND EXISTS (SELECT 1 FROM {seat} v WHERE v.game_id = g.id AND v.user_id = %(viewer)s
                   AND (c.to_id IS NULL OR (c.to_id = v.id AND c.to_user_id = v.user_id)
                        OR (c.author_id = v.id AND c.author_user_id = v.user_id)))),
  (SELECT string_agg(m.muted_id::text, ',' ORDER BY m.muted_id)
     FROM {mute} m JOIN {seat} s ON s.id = m.seat_id
     WHERE s.game_id = g.id AND s.user_id = %(viewer)s),
  (SELECT md5(n.text) FROM {note} n JOIN {seat} s ON s.id = n.seat_id
     WHERE s.game_id = g.id AND s.user_id = %(viewer)s AND n.user_id = %(viewer)s),
  (SELECT string_agg(w.game_id || ':' || o.version, ',' ORDER BY w.game_id)
     FROM {seat} w JOIN {game} o ON o.id = w.game_id
     WHERE w.user_id = %(viewer)s AND w.to_act AND o.status = 'active' AND o.id <> g.id),
  {league_admin},
  g.status = 'active' AND (g.clock = 'bank' OR g.weekend_pause)
FROM {game} g WHERE g.id = %(game)s"""

CLOCK_STEP = 360
"""Seconds: the page of a running game whose clock the page tells in time left (a time
bank: the hours left now, to a tenth of an hour) or in weekends (the clock stopped for
one) is a new page every this many seconds."""


def fingerprint(game_id: int, user: Any) -> tuple[Any, ...] | None:
    """Everything of the database the page shows to ``user`` (one query), or None when
    the page is not to be cached (no such game, an open game, a private game seen through
    an invitation, not PostgreSQL)."""
    if connection.vendor != "postgresql":
        return None
    signed_in = bool(user.is_authenticated)
    viewer = user.pk if signed_in else None
    with connection.cursor() as cursor:
        cursor.execute(_sql(), {"game": game_id, "viewer": viewer})
        row = cursor.fetchone()
    if row is None:
        return None
    status, private, creator, started, *rest, clock_runs = row
    seated = rest[2]
    if not started or status == "open":
        return None
    if private and not (signed_in and (seated or creator == user.pk or user.is_staff)):
        return None
    moment = int(timezone.now().timestamp() // CLOCK_STEP) if clock_runs else None
    return (game_id, status, *rest, moment)


def key_for(request: HttpRequest, found: tuple[Any, ...]) -> str:
    """The stored page's key: the data, the viewer and how they read, the code."""
    user: Any = request.user
    reader: tuple[Any, ...]
    if user.is_authenticated:
        who = str(user.pk)
        reader = (
            user.pk,
            user.email,
            user.display_name,
            user.is_staff,
            user.language,
            user.time_zone,
            str(present.viewer_zone(user)),
            translation.get_language(),
        )
    else:  # every signed-out visitor: one page (the Accept-Language chose the language)
        who = "visitor"
        reader = (who, str(present.viewer_zone(user)), translation.get_language())
    digest = hashlib.sha256(repr((code_version(), reader, found)).encode()).hexdigest()
    return f"{PREFIX}{found[0]}:{who}:{digest[:40]}"


def _etag(request: HttpRequest, key: str) -> str:
    """The page's validator: its key and the viewer's CSRF secret (a new secret, after a
    sign-in, makes the browser's copy's token invalid: no 304 then)."""
    secret = str(request.META.get("CSRF_COOKIE", ""))
    return '"' + hashlib.sha256(f"{key}|{secret}".encode()).hexdigest()[:32] + '"'


def _matches(header: str, etag: str) -> bool:
    """``If-None-Match`` names the page's ETag (a weak comparison, as for any GET: a
    proxy that compresses the page marks its ETag weak, ``W/"..."``)."""
    return any(tag.strip().removeprefix("W/") == etag for tag in header.split(","))


def _has_messages(request: HttpRequest) -> bool:
    """Flash messages wait for this page (read without marking them shown)."""
    return len(messages.get_messages(request)) > 0


def _filled(body: bytes, request: HttpRequest) -> bytes:
    """A stored page with this answer's secrets: a fresh masked CSRF token, a fresh key."""
    csrf, key = stand_ins()
    return body.replace(csrf.encode(), get_token(request).encode()).replace(
        key.encode(), new_key().encode()
    )


def serve(
    request: HttpRequest, game_id: int, render: Callable[[bool], HttpResponse]
) -> HttpResponse:
    """The board page for a GET: a 304, the stored page, or ``render(stand_ins)`` (stored
    when the data did not move while it was drawn). ``render(False)`` draws it as before."""
    if not enabled() or request.GET or _has_messages(request):
        return render(False)
    found = fingerprint(game_id, request.user)
    if found is None:
        return render(False)
    key = key_for(request, found)
    get_token(request)  # the secret the page's tokens come from, before the ETag says it
    etag = _etag(request, key)
    if _matches(request.headers.get("If-None-Match", ""), etag):
        response: HttpResponse = HttpResponseNotModified()
    else:
        stored = _recent.get(key)
        if stored is None:
            stored = cache.get(key)
        if stored is None:
            response = render(True)
            body = response.content
            response.content = _filled(body, request)
            if response.status_code != 200:
                return response
            if fingerprint(game_id, request.user) == found:  # else: drawn from newer data
                stored = zlib.compress(body, 6)
                cache.set(key, stored, TTL)
                _recent.put(key, stored)
        else:
            _recent.put(key, stored)
            response = HttpResponse(_filled(zlib.decompress(stored), request))
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response
