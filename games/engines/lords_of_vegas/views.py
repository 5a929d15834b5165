"""What a player may see (everything but the seed and the deck order), and a plain list of
it for screen readers.

There is no hidden information in Lords of Vegas except the order of the deck, so every
seat gets the same view; the casinos are computed once here so that renderers need no
rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.engines.base import JSON, State
from games.engines.text import Join, Text, _, ngettext

from .board import (
    COMPANIES,
    COMPANY_COLOUR,
    DICE_PER_PLAYER,
    GAMBLE_PER_TILE,
    GAME_OVER,
    LOTS,
    MARKERS_PER_PLAYER,
    REMODEL_PRICE,
    RISER_PRICE,
    STRIP,
    TILES_PER_COMPANY,
    TRACK,
    card_pays,
    in_play,
)
from .casinos import boss, casinos, company, height, points, touches_strip
from .state import OWNER, PIP, dice_on_board, markers_on_board, pref
from .words import NOBODY, company_with_colour, money, player
from .words import company as proper_name


def view(state: State, seat: int | None) -> JSON:
    players = state["players"]
    slots: dict[str, list[str]] = {name: [] for name in (*COMPANIES, STRIP)}
    for card in state["discard"]:
        slots[card_pays(card)].append(card)
    return {
        "game": "lords-of-vegas",
        "viewer": seat,
        "edition": state["edition"],
        "n": state["n"],
        "turn": state["turn"],
        "over": state["over"],
        "players": [
            {
                "seat": s,
                "colour": state["colours"][s],
                "money": state["money"][s],
                "score": state["score"][s],
                "dice_left": DICE_PER_PLAYER - dice_on_board(state, s),
                "markers_left": MARKERS_PER_PLAYER - markers_on_board(state, s),
                "prefs": {topic: pref(state, s, topic) for topic in ("place", "layoff")},
            }
            for s in range(players)
        ],
        "markers": dict(sorted(state["markers"].items())),
        "tiles": {
            lot: {"company": t[0], "height": t[1], "owner": t[OWNER], "pip": t[PIP]}
            for lot, t in sorted(state["tiles"].items())
        },
        "casinos": [
            {
                "lots": casino,
                "company": company(state, casino),
                "height": height(state, casino),
                "points": points(state, casino),
                "boss": boss(state, casino),
                "strip": touches_strip(casino),
            }
            for casino in casinos(state)
        ],
        "tiles_left": _tiles_left(state),
        "track": list(TRACK),
        "card": _this_card(state),
        "acts": state["acts"],
        "deck_left": len(state["deck"]),
        "game_over_drawn": GAME_OVER in state["discard"],
        "discards": slots,
        "drawn": state["drawn"],
        "gambles": state["gambles"],
        "reorganized": list(state["reorged"]),
        "pending": [dict(d) for d in state["pending"]],
        "company_colours": dict(COMPANY_COLOUR[state["edition"]]),
    }


def _tiles_left(state: State) -> dict[str, int]:
    """Each company's tiles still in the box (nine each; a company with none left can no
    longer be built, sprawled into or remodelled to)."""
    used = {name: 0 for name in COMPANIES}
    for tile in state["tiles"].values():
        used[tile[0]] += 1
    return {name: TILES_PER_COMPANY - n for name, n in used.items()}


def _this_card(state: State) -> str | None:
    """The card of the current turn: in the active player's hand while step 1 waits, else
    the last one drawn (discarded at step 5); None before the first draw."""
    if state["drawn"] is not None:
        return str(state["drawn"])
    return str(state["discard"][-1]) if state["discard"] else None


def command_cost(view: JSON, command: JSON) -> int | None:
    """What a command costs in $m, from the view alone (the prices the actions charge):
    build the lot's price; sprawl twice it, plus a riser a level of the casino it joins;
    remodel $5m and raise $15m a space; reorganize $1m a pip. None: it costs nothing, or
    (gamble) the player names the amount."""
    kind, lot = command.get("type"), command.get("lot")
    if kind == "build" and lot in LOTS:
        return LOTS[lot].price
    casino = _casino_at(view, command.get("origin") if kind == "sprawl" else lot)
    if kind == "sprawl" and lot in LOTS and casino is not None:
        return 2 * LOTS[lot].price + RISER_PRICE * (int(casino["height"]) - 1)
    if casino is None:
        return None
    if kind == "remodel":
        return REMODEL_PRICE * len(casino["lots"])
    if kind == "raise":
        return RISER_PRICE * len(casino["lots"])
    if kind == "reorganize":
        return sum(view["tiles"][x]["pip"] or 0 for x in casino["lots"])
    return None


def gamble_limit(view: JSON, lot: str) -> int:
    """The largest bet the casino at ``lot`` takes ($5m a point), 0 if no casino."""
    casino = _casino_at(view, lot)
    return 0 if casino is None else GAMBLE_PER_TILE * int(casino["points"])


def _casino_at(view: JSON, lot: object) -> JSON | None:
    return next((c for c in view["casinos"] if lot in c["lots"]), None)


def _who(view: JSON, seat: int | None) -> Text | str:
    return NOBODY if seat is None else player(str(view["players"][seat]["colour"]))


def describe_decision(view: JSON, seat: int | None) -> Text | None:
    """What the game asks ``seat`` to decide, with what it is about (None: nothing): a
    lay-off names the bet and what yes and no do, a placing its tiles, a move its lot (the
    answers alone, "yes" and "no", did not say which bet a lay-off was for)."""
    asked = next((d for d in view["pending"] if d["seat"] == seat), None)
    if asked is None:
        return None
    if asked["kind"] == "layoff":
        return _(
            "%(gambler)s bets %(amount)s at your casino at %(lot)s. Lay off half of the bet "
            "to the bank? Yes: you pay or take only half of it, the bank the rest. No: all "
            "of it is yours to pay or take.",
            gambler=_who(view, asked["gambler"]),
            amount=money(asked["amount"]),
            lot=asked["lot"],
        )
    if asked["kind"] == "place":
        return _(
            "Your dice in the casino you reorganized were rerolled: choose which value goes "
            "on which of your tiles (%(lots)s). Who is the boss does not change.",
            lots=", ".join(asked["lots"]),
        )
    if asked.get("piece") == "lot":
        return _(
            "All 10 of your lot markers are on the board: choose which one moves to %(lot)s.",
            lot=asked["lot"],
        )
    return _(
        "All 12 of your dice are on the board: choose which one moves to %(lot)s.",
        lot=asked["lot"],
    )


def describe_view(view: JSON) -> str:
    """The view as a plain list, one fact a line, for screen readers (in the language active
    now: every line is a Text rendered here)."""
    facts: list[Text] = []
    if view["over"]:
        facts.append(_("The game is over."))
    else:
        facts.append(_("It is %(player)s's turn.", player=_who(view, view["turn"])))
    facts += [_player_fact(p) for p in view["players"]]
    for lot, owner in view["markers"].items():
        facts.append(
            _("Lot %(lot)s: parking lot of %(player)s.", lot=lot, player=_who(view, owner))
        )
    facts += [_casino_fact(view, casino) for casino in view["casinos"]]
    facts += _deck_facts(view)
    facts += [WAITING[d["kind"]](_who(view, d["seat"])) for d in view["pending"]]
    return "\n".join(f"- {fact}" for fact in facts)


def _points(n: int) -> Text:
    return ngettext("%(count)s point", "%(count)s points", n, count=n)


def _player_fact(p: JSON) -> Text:
    dice, markers = p["dice_left"], p["markers_left"]
    return _(
        "%(player)s: %(points)s, %(money)s, %(dice)s and %(markers)s left.",
        player=player(p["colour"]),
        points=_points(p["score"]),
        money=money(p["money"]),
        dice=ngettext("%(count)s die", "%(count)s dice", dice, count=dice),
        markers=ngettext("%(count)s lot marker", "%(count)s lot markers", markers, count=markers),
    )


def _casino_fact(view: JSON, casino: JSON) -> Text:
    """Four sentences: raised or not, on the Strip or not."""
    tall = casino["height"]
    params = {
        "casino": company_with_colour(view["edition"], casino["company"]),
        "height": tall,
        "points": _points(casino["points"]),
        "boss": _who(view, casino["boss"]),
        "tiles": Join([_tile_text(view, lot) for lot in casino["lots"]]),
    }
    if tall > 1 and casino["strip"]:
        return ngettext(
            "%(casino)s casino, %(height)s tile high, %(points)s, on the Strip, "
            "boss %(boss)s: %(tiles)s.",
            "%(casino)s casino, %(height)s tiles high, %(points)s, on the Strip, "
            "boss %(boss)s: %(tiles)s.",
            tall,
            **params,
        )
    if tall > 1:
        return ngettext(
            "%(casino)s casino, %(height)s tile high, %(points)s, boss %(boss)s: %(tiles)s.",
            "%(casino)s casino, %(height)s tiles high, %(points)s, boss %(boss)s: %(tiles)s.",
            tall,
            **params,
        )
    if casino["strip"]:
        return _("%(casino)s casino, %(points)s, on the Strip, boss %(boss)s: %(tiles)s.", **params)
    return _("%(casino)s casino, %(points)s, boss %(boss)s: %(tiles)s.", **params)


def _deck_facts(view: JSON) -> list[Text]:
    players = len(view["players"])
    empty = [
        lot
        for lot in LOTS
        if lot not in view["markers"] and lot not in view["tiles"] and in_play(lot, players)
    ]
    facts = [_("Empty lots: %(lots)s.", lots=", ".join(empty)) if empty else _("Empty lots: none.")]
    if players == 2:
        facts.append(_("The F block is out of play with two players."))
    facts.append(_("Cards left in the deck: %(count)s.", count=view["deck_left"]))
    for name, cards in view["discards"].items():
        if name == STRIP:
            facts.append(_("Strip cards drawn: %(count)s.", count=len(cards)))
        else:
            facts.append(
                _(
                    "%(company)s cards drawn: %(count)s.",
                    company=proper_name(name),
                    count=len(cards),
                )
            )
    return facts


WAITING: dict[str, Callable[[Text | str], Text]] = {
    "move": lambda who: _(
        "Waiting for %(player)s to choose which die or lot marker moves.", player=who
    ),
    "place": lambda who: _(
        "Waiting for %(player)s to choose where the rerolled dice go.", player=who
    ),
    "layoff": lambda who: _(
        "Waiting for %(player)s to choose whether to lay off half of the bet.", player=who
    ),
}


def _tile_text(view: JSON, lot: str) -> Text:
    tile = view["tiles"][lot]
    if tile["owner"] is None:
        return _("%(lot)s no die", lot=lot)
    return _(
        "%(lot)s %(player)s %(pip)s", lot=lot, player=_who(view, tile["owner"]), pip=tile["pip"]
    )


def describe_lot(view: JSON, lot: str) -> Text:
    """One lot for a screen reader ("Lot A3, on the Strip: empty, price $15m, die 5"):
    the text alternative of a lot on a drawn board. Casinos are numbered as in the view's
    list, from 1."""
    where = (
        _("Lot %(lot)s, on the Strip", lot=lot) if LOTS[lot].strip else _("Lot %(lot)s", lot=lot)
    )
    tile = view["tiles"].get(lot)
    if tile is not None:
        return _tile_label(view, lot, where, tile)
    if lot in view["markers"]:
        return _(
            "%(where)s: parking lot of %(player)s",
            where=where,
            player=_who(view, view["markers"][lot]),
        )
    if not in_play(lot, len(view["players"])):
        return _("%(where)s: out of play", where=where)
    return _(
        "%(where)s: empty, price %(price)s, die %(die)s",
        where=where,
        price=money(LOTS[lot].price),
        die=LOTS[lot].die,
    )


def _tile_label(view: JSON, lot: str, where: Text, tile: JSON) -> Text:
    number = next(i for i, c in enumerate(view["casinos"], 1) if lot in c["lots"])
    params = {
        "where": where,
        "company": proper_name(tile["company"]),
        "height": tile["height"],
        "casino": number,
    }
    if view.get("edition") == "classic":  # (no risers: every tile is one high)
        return _classic_tile_label(view, tile, params)
    if tile["owner"] is None:
        return ngettext(
            "%(where)s: %(company)s casino tile, %(height)s high, no die, casino %(casino)s",
            "%(where)s: %(company)s casino tile, %(height)s high, no die, casino %(casino)s",
            tile["height"],
            **params,
        )
    return ngettext(
        "%(where)s: %(company)s casino tile, %(height)s high, %(player)s's die showing %(pip)s, "
        "casino %(casino)s",
        "%(where)s: %(company)s casino tile, %(height)s high, %(player)s's die showing %(pip)s, "
        "casino %(casino)s",
        tile["height"],
        player=_who(view, tile["owner"]),
        pip=tile["pip"],
        **params,
    )


def _classic_tile_label(view: JSON, tile: JSON, params: dict[str, Any]) -> Text:
    """A classic edition's tile without its height: the edition has no risers, and "1 high"
    on every tile read as if it might be otherwise (found by a play-test)."""
    del params["height"]
    if tile["owner"] is None:
        return _("%(where)s: %(company)s casino tile, no die, casino %(casino)s", **params)
    return _(
        "%(where)s: %(company)s casino tile, %(player)s's die showing %(pip)s, casino %(casino)s",
        player=_who(view, tile["owner"]),
        pip=tile["pip"],
        **params,
    )
