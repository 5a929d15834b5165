"""Reads for the web pages, composed from the selectors (``games/selectors.py``): one call
per page, so that each view calls one read and presents it. The visibility rule is the
selectors' own (``game_view``/``moves_since`` call ``check_visible``)."""

from __future__ import annotations

import hashlib
from functools import partial
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from games import selectors
from games.models import Game, Invitation, Seat, TradeOffer
from games.services import talk
from games.services.errors import NotFound
from games.services.games import invitation_problem, may_manage, start_refusal
from games.services.lookups import engine_for
from games.web import trade_builder
from games.web.bots import described_bots

LOTS_TTL = 7 * 24 * 3600
"""Seconds the lots after a viewer's latest move are kept (re-replayed after that)."""

RECENT_MOVES = 40
"""How many log entries the board page shows (newest first)."""
FINISHED_SHOWN = 20
OFFERS_SHOWN = 10


def _offer(
    offer: TradeOffer, seat: int | None, waiting: set[int], game: Game, shown: dict[str, Any]
) -> dict[str, Any]:
    """An offer with the buttons to offer the viewer (the services still decide), and its
    steps in words while it is open (Lords of Vegas: the trades the builder makes)."""
    is_open = offer.status == TradeOffer.Status.OPEN
    words = is_open and shown["game_type"] == trade_builder.GAME_TYPE and shown["view"]
    return {
        "offer": offer,
        "words": trade_builder.offer_in_words(game, shown, offer) if words else [],
        "may_answer": offer.pk in waiting,
        "may_withdraw": is_open and seat is not None and offer.proposer.order == seat,
        "accepted": is_open and seat is not None and seat in offer.accepted_by,
    }


def board_page(*, game_id: int, user: Any) -> dict[str, Any]:
    """What the board page shows to ``user``: the game as they may see it, the recent log
    (``moves``: a call, read when drawn) and the trade offers, each with the answers
    offered to the viewer."""
    game = selectors.game_by_id(game_id=game_id)
    shown = selectors.game_view(game=game, user=user)  # refuses a private game first
    since = max(-1, game.version - RECENT_MOVES)
    seat = shown["your_seat"]
    offers: list[dict[str, Any]] = []
    if game.status == Game.Status.ACTIVE:
        waiting = {o.pk for o in selectors.offers_waiting_on(game=game, order=seat)}
        offers = [
            _offer(o, seat, waiting, game, shown)
            for o in selectors.trade_offers(game=game)[:OFFERS_SHOWN]
        ]
    is_open = game.status == Game.Status.OPEN
    seated = seat is not None
    latest = selectors.last_move_of(game=game, user=user) if seated and not is_open else None
    playing = (
        game.status == Game.Status.ACTIVE
        and seated
        and not any(s["resigned"] for s in shown["seats"] if s["order"] == seat)
    )
    manages = is_open and may_manage(game, user)
    free = len(shown["seats"]) < game.max_seats
    # A signed-out visitor watches (decision 0029): the page asks them to sign in to play.
    signed_in = bool(getattr(user, "is_authenticated", False))
    refusal = start_refusal(game=game, by=user) if is_open and seated else None
    return {
        "game": shown,
        # Read when the log is drawn: not at all when its fragment is cached (_log.html).
        "moves": partial(selectors.moves_since, game=game, since=since, user=user),
        "older_moves": since >= 0,
        # The moves the viewer has seen play out: folded in the log (their own latest and
        # those before it; a viewer who has not moved has seen all but the newest).
        "seen_up_to": game.version - 1 if latest is None else latest,
        "offers": offers,
        "may_propose": playing and engine_for(game).trades,
        # Offer only what the services would accept (they still decide); a manager who may
        # not start yet is told why (the service's own refusal).
        "may_start": is_open and seated and refusal is None,
        "start_refusal": refusal if manages else None,
        "may_join": signed_in and is_open and not seated and not game.private and free,
        "seat_free": is_open and not game.private and free,
        "may_leave": is_open and seated,
        "may_resign": playing,
        "may_invite": is_open and seated and free,
        "bots": described_bots(engine_for(game).bots) if manages and free else [],
        "may_remove_bots": manages,
        # Shown on the open table only (``_table.html``): two queries saved after the start.
        "invitations": _invitations(game, user) if is_open and (seated or manages) else [],
        "changed": changed_lots(game=game, seat=seat, since=latest, user=user)
        if seat is not None and game.status == Game.Status.ACTIVE
        else [],
        "live_tag": live_tag(game, user)["tag"],
    }


def changed_lots(*, game: Game, seat: int, since: int | None, user: Any) -> list[str]:
    """``selectors.changed_lots`` after the viewer's latest move ``since``, with the lots of
    the position right after it kept in the cache: the log is append-only, so that position
    never changes, and the page replays the game once a move of the viewer instead of once
    a load."""
    if since is None or game.state is None or since >= game.version:
        return []
    now = engine_for(game).view(game.state, None)
    if "tiles" not in now:
        return []
    return selectors.lots_changed(_lots_at(game, since, seat, user), now)


def _lots_at(game: Game, seq: int, seat: int, user: Any) -> dict[str, Any]:
    """The tiles and lot markers of the seat's view right after Move ``seq`` (a replay
    from the seed on the first call; the game's creation time in the key keeps a game of
    another database with the same id apart)."""
    key = f"board-lots:{game.pk}:{game.created_at.timestamp()}:{seq}:{seat}"
    use_cache = board_cache_enabled()
    found = cache.get(key) if use_cache else None
    if found is None:
        view = selectors.position_at(game=game, seq=seq, user=user)["view"]
        found = {"tiles": view.get("tiles", {}), "markers": view.get("markers", {})}
        if use_cache:
            cache.set(key, found, LOTS_TTL)
    return dict(found)


def replay_page(*, game_id: int, seq: int, user: Any) -> dict[str, Any]:
    """The position after Move ``seq`` as ``user`` could see it then (the selector keeps
    hidden information hidden while the game runs), with the game around it."""
    game = selectors.game_by_id(game_id=game_id)
    shown = selectors.game_view(game=game, user=user)
    return {"game": shown, "position": selectors.position_at(game=game, seq=seq, user=user)}


def live_version(*, game_id: int, user: Any) -> dict[str, Any]:
    """What an open board page polls: a tag that changes whenever anything it shows may
    have changed (a move, an offer, an answer to one, a message the viewer may read), and
    whether it waits on the viewer. Small queries, no engine work."""
    game = selectors.game_by_id(game_id=game_id)
    selectors.check_visible(game=game, user=user)
    return live_tag(game, user)


def live_tag(game: Game, user: Any) -> dict[str, Any]:
    """``live_version`` of a game already read and found visible (the board page draws
    the tag its live.js starts from)."""
    offers = TradeOffer.objects.filter(game=game).order_by("pk")
    answers = list(offers.values_list("pk", "status", "accepted_by"))
    seats = list(game.seats.order_by("order").values_list("user_id", "resigned", "to_act", "id"))
    # A signed-out visitor's pk is None, as a bot seat's user: they are never "mine".
    me = user.pk if getattr(user, "is_authenticated", False) else None
    ours = [
        (u, resigned, acts, pk) for u, resigned, acts, pk in seats if me is not None and u == me
    ]
    mine = any(not resigned and acts for _u, resigned, acts, _pk in ours)
    seat = next((Seat(pk=pk, game_id=game.pk, user_id=u) for u, *_, pk in ours), None)
    said = talk.newest_seen(seat) if seat is not None else None
    digest = hashlib.sha256(repr((answers, seats, said)).encode()).hexdigest()[:16]
    tag = f"{game.version}-{game.status}-{digest}"
    return {"tag": tag, "your_turn": mine and game.status == Game.Status.ACTIVE}


def board_cache_enabled() -> bool:
    """The board page's caches are on (``settings.BOARD_PAGE_CACHE``, default True; the
    benchmark turns them off to time the first render)."""
    return bool(getattr(settings, "BOARD_PAGE_CACHE", True))


def _invitations(game: Game, user: Any) -> list[dict[str, Any]]:
    """The game's invitations as its players see them: to whom (as the inviter typed it:
    the address, or the player's name, never an account found behind an address), by whom,
    the answer, and whether the viewer may withdraw it (the creator's, or their own, while
    unanswered)."""
    found = game.invitations.select_related("invitee", "invited_by").order_by("created_at")
    manages = may_manage(game, user)
    return [
        {
            "invitation": inv,
            "who": inv.addressed_to,
            "state": _state(inv),
            "may_withdraw": inv.is_pending
            and game.status == Game.Status.OPEN
            and (manages or inv.invited_by_id == user.pk),
        }
        for inv in found
    ]


def _state(inv: Invitation) -> str:
    if inv.withdrawn_at:
        return "withdrawn"
    if inv.accepted_at:
        return "accepted"
    if inv.declined_at:
        return "declined"
    return "pending"


def invitation_page(*, token: str, user: Any) -> dict[str, Any]:
    """What the invitation link shows: the game, who invited, who sits, and what the
    services would answer the viewer (None: they may accept)."""
    invitation = (
        Invitation.objects.select_related("game", "invitee", "invited_by")
        .filter(token=token)
        .first()
    )
    if invitation is None:
        raise NotFound(_("there is no such invitation: check the link in the email"))
    game = invitation.game
    seats = list(game.seats.select_related("user").order_by("order"))
    signed_in = getattr(user, "is_authenticated", False)
    return {
        "invitation": invitation,
        "game": game,
        "seats": seats,
        "problem": invitation_problem(invitation, user) if signed_in else None,
        "closed": invitation.withdrawn_at is not None or game.status != Game.Status.OPEN,
    }


def invitations_for(*, user: Any) -> list[Invitation]:
    """The invitations waiting on ``user``'s answer: naming their account, or sent to one
    of their verified addresses, unanswered, to open games."""
    from django.db.models import Q

    from accounts.addresses import verified_emails

    emails = verified_emails(user)
    return list(
        Invitation.objects.filter(
            Q(invitee=user) | Q(invitee__isnull=True, email__in=emails),
            accepted_at__isnull=True,
            declined_at__isnull=True,
            withdrawn_at__isnull=True,
            game__status=Game.Status.OPEN,
        )
        .exclude(game__seats__user=user)
        .select_related("game", "invited_by")
        .order_by("created_at")
    )


def lobby(*, user: Any) -> dict[str, list[Game]]:
    """The user's games by what they ask of them, then the games they may join."""

    def mine(status: str, waiting: bool | None = None) -> QuerySet[Game]:
        found = selectors.games_for_user(user=user, status=status, waiting=waiting)
        return found.prefetch_related("seats__user")

    return {
        "waiting": list(mine(Game.Status.ACTIVE, waiting=True)),
        "active": list(mine(Game.Status.ACTIVE, waiting=False)),
        "open": list(mine(Game.Status.OPEN)),
        "joinable": list(selectors.joinable_games(user=user).prefetch_related("seats__user")[:50]),
        "finished": list(mine(Game.Status.FINISHED)[:FINISHED_SHOWN]),
    }


def is_public_game(game_id: int) -> bool:
    """Whether game ``game_id`` exists and is public: what a signed-out visitor may watch."""
    return Game.objects.filter(pk=game_id, private=False).exists()


VISITORS_WATCH = 20
"""How many running public games the visitors' lobby lists to watch (the newest started)."""


def visitors_lobby() -> dict[str, list[Game]]:
    """What the lobby lists to a signed-out visitor (decision 0029): the running public
    games, newest started first, to watch (lichess' and OGS' lists of games being played),
    and the public games with a free seat, to watch and to take a seat in once signed in."""
    running = Game.objects.filter(status=Game.Status.ACTIVE, private=False)
    watch = running.order_by("-started_at", "-id").prefetch_related("seats__user")
    joinable = selectors.joinable_games(user=None).prefetch_related("seats__user")[:50]
    return {"watch": list(watch[:VISITORS_WATCH]), "joinable": list(joinable)}


def _longest_waiting_first(games: QuerySet[Game]) -> QuerySet[Game]:
    """The game whose last move is oldest first (it has waited longest on the player)."""
    from django.db.models import Max

    return games.annotate(last_move=Max("moves__created_at")).order_by("last_move", "id")


def next_waiting(*, user: Any, besides: int) -> Game | None:
    """The game that has waited longest on ``user``, other than game ``besides``: what the
    board page offers next, once this one no longer waits on them."""
    found = selectors.games_for_user(user=user, status=Game.Status.ACTIVE, waiting=True)
    return _longest_waiting_first(found.exclude(pk=besides)).first()


def desk(*, user: Any) -> dict[str, Any]:
    """The signed-in home page: the games waiting on the player (longest waiting first),
    the invitations to answer, then the lobby's other lists."""
    found = lobby(user=user)
    waiting = selectors.games_for_user(user=user, status=Game.Status.ACTIVE, waiting=True)
    found["waiting"] = list(_longest_waiting_first(waiting).prefetch_related("seats__user"))
    return {**found, "invitations": invitations_for(user=user)}
