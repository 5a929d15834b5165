"""Reads: what a player may see of games. Never replays the log (the snapshot serves), and
never shows the seed or any hidden order before the end (the engine's ``view`` strips them;
the seed is added here only once the game has finished)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from django.db import connection
from django.db.models import Count, F, QuerySet
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from accounts.models import unnamed
from games.engines.base import GameEngine
from games.models import Game, Move, Seat, TradeOffer, bot_name
from games.services import lookups
from games.services.clock import clock_summary
from games.services.errors import NotFound
from games.services.lookups import engine_for
from games.services.moves import MoveResult


def games_for_user(
    *, user: Any, status: str | None = None, waiting: bool | None = None
) -> QuerySet[Game]:
    """The games the user holds a seat in, newest first; ``waiting=True``: only those that
    wait on the user now (``False``: only those that do not)."""
    seats = Seat.objects.filter(user=user)
    if waiting is not None:
        seats = seats.filter(to_act=waiting)
    games = Game.objects.filter(pk__in=seats.values("game_id"))
    if status is not None:
        games = games.filter(status=status)
    return games.select_related("created_by").order_by("-created_at", "-id")


def game_by_id(*, game_id: int) -> Game:
    """The game a URL or an address names, or :class:`NotFound` (the doors' 404)."""
    try:
        return Game.objects.get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound(
            gettext("there is no game #%(game)s") % {"game": game_id}, game=game_id
        ) from None


def joinable_games(*, user: Any) -> QuerySet[Game]:
    """Open public games with a free seat that ``user`` does not sit in, oldest first (a
    signed-out visitor sits in none: the visitors' lobby lists them all)."""
    found = Game.objects.filter(status=Game.Status.OPEN, private=False)
    if getattr(user, "is_authenticated", False):
        found = found.exclude(seats__user=user)
    return (
        found.annotate(taken=Count("seats"))
        .filter(taken__lt=F("max_seats"))
        .order_by("created_at", "id")
    )


def check_visible(*, game: Game, user: Any) -> None:
    """Refuse a game ``user`` may not see: the rule is ``lookups.may_see``, beside the write
    path's reads, which refuse a stranger with it too."""
    lookups.check_visible(game, user)


def seat_names(game: Game, seats: list[Seat] | None = None) -> list[str]:
    """``names[order]`` for the engine's ``describe`` (``seats``: the game's, already read)."""
    if seats is None:
        seats = sorted(game.seats.select_related("user"), key=lambda s: s.order)
    return [s.name for s in seats]


def game_header(game: Game, seats: Sequence[Seat] | None = None) -> dict[str, Any]:
    """What every answer about a game starts with (no engine work, nothing hidden)."""
    return {
        "id": game.pk,
        "game_type": game.game_type,
        "options": game.options,
        "status": game.status,
        "version": game.version,
        "private": game.private,
        "max_seats": game.max_seats,
        "turn_hours": game.turn_hours,
        "max_timeouts": game.max_timeouts,
        "vacation_days": game.vacation_days,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "deadline": game.deadline,
        "clock": clock_summary(game, seats),
    }


def seat_entry(seat: Seat, *, to_act: bool) -> dict[str, Any]:
    """A seat as every answer shows it; ``to_act`` is passed in because the game view takes
    it from the engine while a list of games reads the seat's stored flag (no engine work)."""
    return {
        "order": seat.order,
        "name": seat.name,
        "colour": seat.colour,
        "bot": seat.bot or None,
        "user": seat.user_id,
        "resigned": seat.resigned,
        "to_act": to_act,
        "timeouts": seat.timeouts,
        "timeouts_in_a_row": seat.timeouts_in_a_row,
        "away_until": _away_until(seat),
    }


def _away_until(seat: Seat) -> Any:
    """When the seat's player is back from vacation, while they are away (else None)."""
    until = seat.user.away_until if seat.user is not None and not seat.resigned else None
    return until if until is not None and until > timezone.now() else None


def seats_with_users(game: Game) -> list[Seat]:
    """The game's seats in order, with their users: those of ``prefetch_related("seats")``
    if the caller's query had it, else in one query."""
    if "seats" in getattr(game, "_prefetched_objects_cache", {}):
        seats = list(game.seats.all())
    else:
        seats = list(game.seats.select_related("user"))
    return sorted(seats, key=lambda s: s.order)


def game_view(*, game: Game, user: Any, seats: list[Seat] | None = None) -> dict[str, Any]:
    """The game as ``user`` may see it: the engine's view for their seat (a spectator's view
    if not seated), version, who must act, deadline, their legal commands, the public seed
    hash, and the seed only after the end. ``seats``: the game's with their users, in
    order, when the caller read them already (the emails: one read for all recipients)."""
    check_visible(game=game, user=user)
    if seats is None:
        seats = seats_with_users(game)
    mine = next(
        (s for s in seats if s.user_id is not None and s.user_id == getattr(user, "pk", None)),
        None,
    )
    view: dict[str, Any] | None = None
    to_act: list[int] = []
    legal: list[dict[str, Any]] = []
    text = ""
    if game.state is not None:
        engine = engine_for(game)
        order = mine.order if mine is not None else None
        view = engine.view(game.state, order)
        text = engine.render_text(view)
        if game.status == Game.Status.ACTIVE:
            to_act = list(engine.to_act(game.state))
            if mine is not None and not mine.resigned and mine.order in to_act:
                legal = _legal(engine, game.state, mine.order)
    return {
        **game_header(game, seats),
        "created_by": game.created_by_id,
        "seed_hash": game.seed_hash or None,
        "seed": game.seed if game.status == Game.Status.FINISHED else None,
        "seats": [seat_entry(s, to_act=s.order in to_act) for s in seats],
        "your_seat": mine.order if mine is not None else None,
        "to_act": to_act,
        "your_turn": mine is not None and mine.order in to_act and not mine.resigned,
        "legal_commands": legal,
        "view": view,
        "text": text,
        "outcome": game.outcome,
    }


def _legal(engine: GameEngine, state: dict[str, Any], order: int) -> list[dict[str, Any]]:
    return [
        {"text": engine.format(c), "command": c.to_json()}
        for c in engine.legal_commands(state, order)
    ]


def moves_since(
    *,
    game: Game,
    since: int = -1,
    user: Any = None,
    seats: list[Seat] | None = None,
    traded: bool = True,
    moves: list[Move] | None = None,
) -> list[dict[str, Any]]:
    """The Moves with ``seq > since`` (a client at version ``v`` asks ``since=v``; the
    default -1 includes the setup, Move 0), each with its events described in sentences
    (``seats``: the game's in order, when the caller read them already; ``traded`` False:
    the caller knows no trade offer of the game was ever executed, no need to look;
    ``moves``: those Moves in order, when the caller read them already, with ``seats``:
    the emails' drain reads them for a whole batch of games in one query)."""
    check_visible(game=game, user=user)
    names = seat_names(game, seats)
    engine = engine_for(game) if game.state is not None else None
    by_pk = {s.pk: s for s in seats} if seats is not None else None
    if moves is None:
        read = Move.objects.filter(game=game, seq__gt=since).order_by("seq")
        moves = list(read if by_pk is not None else read.select_related("seat"))
    credits = trade_credits(game, since, names) if traded else {}
    return [
        {
            **_move(m, m.seat if by_pk is None else _seat_of(m, by_pk), engine, names),
            "credit": credits.get(m.pk, ""),
        }
        for m in moves
    ]


def _seat_of(move: Move, by_pk: dict[int, Seat]) -> Seat | None:
    return None if move.seat_id is None else by_pk.get(move.seat_id)


def trade_credits(game: Game, since: int, names: list[str]) -> dict[int, str]:
    """``{move pk: sentence}`` for the trades executed after Move ``since``: who proposed
    and who accepted, in words (the Move itself is the system's: every party agreed)."""
    offers = TradeOffer.objects.filter(game=game, move__seq__gt=since).select_related("proposer")
    return {o.move_id: trade_credit(o, names) for o in offers if o.move_id is not None}


def trade_credit(offer: TradeOffer, names: list[str]) -> str:
    """ "Trade offer #4: proposed by Ada, accepted by Bob and Cy." (the acceptances in
    the order given; the proposer's own acceptance is implied)."""

    def name(order: int) -> str:
        return names[order] if 0 <= order < len(names) else str(order)

    proposer = offer.proposer.order
    accepted = [name(o) for o in offer.accepted_by if o != proposer]
    if not accepted:
        return gettext("Trade offer #%(id)s: proposed by %(proposer)s.") % {
            "id": offer.pk,
            "proposer": name(proposer),
        }
    if len(accepted) == 1:
        who = accepted[0]
    else:
        who = gettext("%(some)s and %(last)s") % {
            "some": ", ".join(accepted[:-1]),
            "last": accepted[-1],
        }
    return gettext("Trade offer #%(id)s: proposed by %(proposer)s, accepted by %(who)s.") % {
        "id": offer.pk,
        "proposer": name(proposer),
        "who": who,
    }


def _move(
    m: Move, seat: Seat | None, engine: GameEngine | None, names: list[str]
) -> dict[str, Any]:
    return {
        "seq": m.seq,
        "seat": seat.order if seat is not None else None,
        "source": m.source,
        "text": m.text,
        "command": m.command,
        "events": m.events,
        "described": [_describe(engine, e, names) for e in m.events],
        "created_at": m.created_at,
    }


def submission_answer(*, result: MoveResult, user: Any) -> dict[str, Any]:
    """The answer to a submission: the version after it, the Moves it wrote (in the move
    log's shape), and what the game waits on right after it: ``status``, ``to_act``,
    ``your_turn`` and the submitter's ``legal_commands`` (so that a client needs no read
    before its next decision when it still has to act).

    Every field is a function of the log up to the submission's last Move, so a replayed
    idempotency key gets the same answer byte for byte: the snapshot serves while it is
    still at that version; once the game has moved on, the position is replayed from the
    seed (the seed never leaves the server)."""
    moves = result.moves
    fresh = result.game is not None and bool(result.seats)
    if result.game is not None and fresh:
        game, seats = result.game, result.seats
        state = game.state
    else:
        game = Game.objects.get(pk=moves[0].game_id)
        seats = list(game.seats.select_related("user").order_by("order"))
        state = game.state
        if moves and moves[-1].seq != game.version:
            state = _state_at(game, len(seats), moves[-1].seq)
    engine = engine_for(game)
    by_id = {s.pk: s for s in seats}
    names = [s.name for s in seats]
    mover = by_id.get(moves[0].seat_id) if moves and moves[0].seat_id is not None else None
    finished = state is None or engine.outcome(state) is not None
    to_act: list[int] = [] if state is None or finished else list(engine.to_act(state))
    your_turn = mover is not None and mover.order in to_act
    legal: list[dict[str, Any]] = []
    if your_turn and mover is not None and state is not None:
        legal = _legal(engine, state, mover.order)
    return {
        "version": moves[-1].seq if moves else result.version,
        "moves": [
            _move(
                _as_stored(m) if fresh else m,
                None if m.seat_id is None else by_id.get(m.seat_id),
                engine,
                names,
            )
            for m in moves
        ],
        "status": Game.Status.FINISHED if finished else Game.Status.ACTIVE,
        "to_act": to_act,
        "your_turn": your_turn,
        "legal_commands": legal,
    }


def _as_stored(m: Move) -> Move:
    """The Move as the log gives it back: PostgreSQL's ``jsonb`` keeps an object's keys
    shortest first, then in byte order; a fresh answer shows them so too, so that it is the
    same, byte for byte, as the answer to a replayed idempotency key (read from the log)."""
    if connection.vendor == "postgresql":  # elsewhere (SQLite), JSON keeps its key order
        m.command = _jsonb_order(m.command)
        m.events = _jsonb_order(m.events)
    return m


def _jsonb_order(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonb_order(value[k]) for k in _jsonb_keys(tuple(value))}
    if isinstance(value, list | tuple):
        return [_jsonb_order(v) if isinstance(v, dict | list | tuple) else v for v in value]
    return value


@lru_cache(maxsize=1024)
def _jsonb_keys(keys: tuple[str, ...]) -> tuple[str, ...]:
    """An object's keys in ``jsonb``'s order (the engines' events come in a few shapes: the
    order of each is worked out once)."""
    return tuple(sorted(keys, key=lambda k: (len(k.encode()), k.encode())))


def _state_at(game: Game, players: int, seq: int) -> Any:
    """The position right after Move ``seq``, replayed from the seed (platform events, such
    as resignations, change no position)."""
    engine = engine_for(game)
    state, _ = engine.new_game(players, game.options, game.seed)
    log = Move.objects.filter(game=game, seq__gt=0, seq__lte=seq, command__isnull=False)
    for m in log.select_related("seat").order_by("seq"):
        if m.command is None:  # (excluded above; for the type checker)
            continue
        order = m.seat.order if m.seat is not None else None
        state, _ = engine.apply(state, order, engine.command_from_json(m.command))
    return state


def _describe(engine: GameEngine | None, event: dict[str, Any], names: list[str]) -> str:
    """The event as a sentence in the active language (the reader's)."""
    if event.get("type") == "resign":
        return _resignation(event, names[event["seat"]])
    if event.get("type") == "tool":
        return _tool_sentence(event)
    if engine is None:
        return str(event.get("type", ""))
    try:
        return str(engine.describe(event, names))
    except Exception:  # a describe bug must never break reading the log
        return str(event.get("type", ""))


def seat_taker(event: dict[str, Any], side: str) -> str:
    """Who held (``before``) or holds (``after``) a seat a replace tool acted on: a bot by
    its name in the reader's language, a person by their name."""
    bot = event.get(f"{side}_bot")
    if bot:
        return bot_name(bot)
    person = event.get(f"{side}_user")  # (kept without a name: an account without one)
    return str(event.get(side, "")) or (unnamed(person) if person else "")


def _tool_sentence(event: dict[str, Any]) -> str:
    """A game tool's entry in the log (``games.services.tools``: staff, a league's admins,
    or the players agreeing on a pause), with the reason given."""
    tool, by, players = event.get("tool"), event.get("by_name", ""), event.get("by_players")
    if not by and event.get("by"):  # (an account without a name: decision 0030)
        by = unnamed(event["by"])
    if tool == "extend":
        hours = int(event.get("hours") or 0)
        said = ngettext(
            "%(by)s gave the game %(hours)s more hour.",
            "%(by)s gave the game %(hours)s more hours.",
            hours,
        ) % {"by": by, "hours": hours}
    elif tool == "pause" and players:
        said = gettext("Every player asked for a pause: no deadline runs until it ends.")
    elif tool == "pause":
        said = gettext("%(by)s paused the game: no deadline runs until it resumes.") % {"by": by}
    elif tool == "resume" and players:
        said = gettext("%(by)s ended the players' pause: the clock runs again.") % {"by": by}
    elif tool == "resume":
        said = gettext(
            "%(by)s resumed the game: the clock runs again with the time it had left."
        ) % {"by": by}
    elif tool == "replace":
        said = gettext("%(by)s replaced %(before)s by %(after)s; the seat keeps its holdings.") % {
            "by": by,
            "before": seat_taker(event, "before"),
            "after": seat_taker(event, "after"),
        }
    elif tool == "abort":
        said = gettext("%(by)s aborted the game: it ends without a result.") % {"by": by}
    else:
        said = gettext("%(by)s used a game tool (%(tool)s).") % {"by": by, "tool": tool}
    why = event.get("why")
    return f"{said} {gettext('Why: %(why)s') % {'why': why}}" if why else said


def trade_offers(*, game: Game) -> QuerySet[TradeOffer]:
    """A game's trade offers, newest first, with what presenting them reads."""
    return (
        TradeOffer.objects.filter(game=game)
        .select_related("proposer", "move", "closed_by__user")
        .order_by("-created_at", "-id")
    )


def offer_in_game(*, game: Game, offer_id: int) -> TradeOffer:
    """An offer of that game, or :class:`NotFound` (an offer id from another game is not
    found here: the doors name an offer under its game)."""
    found = trade_offers(game=game).filter(pk=offer_id).first()
    if found is None:
        raise NotFound(
            gettext("game #%(game)s has no trade offer #%(offer)s")
            % {"game": game.pk, "offer": offer_id},
            offer=offer_id,
        )
    return found


def offers_waiting_on(*, game: Game, order: int | None) -> list[TradeOffer]:
    """Open offers that name seat ``order`` as a party and that it has not accepted yet."""
    if order is None:
        return []
    return [
        offer
        for offer in trade_offers(game=game).filter(status=TradeOffer.Status.OPEN)
        if order in offer.parties and order not in offer.accepted_by
    ]


def position_at(*, game: Game, seq: int, user: Any) -> dict[str, Any]:
    """The position right after Move ``seq`` as ``user`` could see it then: the engine's
    view for their seat (a spectator's if not seated) of the state replayed to that move,
    and the Move itself. Hidden information stays hidden while the game runs (the seat's
    view strips it); after the end, each seat's own view gives what it hid (Vegas money),
    since the end reveals everything. :class:`NotFound` for a move the log lacks."""
    check_visible(game=game, user=user)
    if game.state is None or not 0 <= seq <= game.version:
        raise NotFound(
            gettext("game #%(game)s has no move %(seq)s") % {"game": game.pk, "seq": seq},
            game=game.pk,
        )
    seats = sorted(game.seats.select_related("user"), key=lambda s: s.order)
    engine = engine_for(game)
    state = game.state if seq == game.version else _state_at(game, len(seats), seq)
    mine = next((s.order for s in seats if s.user_id and s.user_id == user.pk), None)
    finished = game.status == Game.Status.FINISHED
    view = engine.view(state, None if finished else mine)
    if finished and isinstance(view.get("seats"), list):  # Vegas: each seat's own money
        for entry in view["seats"]:
            entry["money"] = engine.view(state, entry["seat"])["seats"][entry["seat"]]["money"]
    move = Move.objects.filter(game=game, seq=seq).select_related("seat").first()
    names = [s.name for s in seats]
    return {
        "seq": seq,
        "last": game.version,
        "view": view,
        "text": engine.render_text(view),
        "move": None if move is None else _move(move, move.seat, engine, names),
    }


def last_move_of(*, game: Game, user: Any) -> int | None:
    """The seq of ``user``'s latest command in ``game`` (None: they have not moved)."""
    found = (
        Move.objects.filter(game=game, seat__user=user, command__isnull=False)
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    )
    return None if found is None else int(found)


def changed_lots(*, game: Game, user: Any) -> list[str]:
    """The lots whose tile, die or marker differs now from right after ``user``'s latest
    move (empty before their first move or for a game without lots): what happened on the
    board while they were away, from the public part of the view."""
    if game.state is None:
        return []
    now = engine_for(game).view(game.state, None)
    if "tiles" not in now:  # (an engine without lots: no query, no replay)
        return []
    since = last_move_of(game=game, user=user)
    if since is None or since >= game.version:
        return []
    return lots_changed(position_at(game=game, seq=since, user=user)["view"], now)


def lots_changed(before: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """The lots whose tile or marker differs between two views of a board, in the board's
    order (C8 before C12)."""
    lots = set(before["tiles"]) | set(now["tiles"]) | set(before["markers"]) | set(now["markers"])
    return sorted(
        (
            lot
            for lot in lots
            if before["tiles"].get(lot) != now["tiles"].get(lot)
            or before["markers"].get(lot) != now["markers"].get(lot)
        ),
        key=lambda lot: (lot[:1], int(lot[1:]) if lot[1:].isdigit() else 0, lot),
    )


def _resignation(event: dict[str, Any], name: str) -> str:
    """A resignation or a forfeit (missed deadlines), and what follows: a bot plays the
    seat on, or the game ends there (one player left)."""
    said = {"name": name}
    forfeit = event.get("reason") == "timeouts"
    if event.get("ends"):
        if forfeit:
            return gettext("%(name)s forfeited after missed deadlines; the game ends") % said
        return gettext("%(name)s resigned; the game ends") % said
    if forfeit:
        return gettext("%(name)s forfeited after missed deadlines; a bot plays the seat on") % said
    return gettext("%(name)s resigned; a bot plays the seat on") % said
