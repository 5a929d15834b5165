"""``describe``: one event as one sentence for the game log and for email.

Events are JSON dicts with a ``type``; seats are ints and ``names[seat]`` is how the platform
calls each player. Every sentence is a :class:`~games.engines.text.Text`, said in the
reader's language when it is shown; lots, numbers, names and companies (proper names) are
its parameters. A type this module does not know still gets a readable line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games.engines.text import Join, Text, _, and_list, from_json, ngettext

from .board import GAME_OVER
from .words import NOBODY, company, money

Event = dict[str, Any]
Who = Callable[[int | None], Any]


def describe(event: Event, names: Sequence[str]) -> Text:
    def who(seat: int | None) -> Any:
        return NOBODY if seat is None else str(names[seat])

    kind = event.get("type", "?")
    sentence = _SENTENCES.get(kind)
    if sentence is None:
        details = ", ".join(f"{k} {v}" for k, v in event.items() if k != "type")
        return _("%(type)s: %(details)s.", type=kind, details=details)
    return sentence(event, who)


def _lots(lots: list[str]) -> Any:
    """A casino by its first lot, with every space when it has several."""
    if len(lots) == 1:
        return lots[0]
    return ngettext(
        "%(first)s (%(count)s space: %(lots)s)",
        "%(first)s (%(count)s spaces: %(lots)s)",
        len(lots),
        first=lots[0],
        count=len(lots),
        lots=" ".join(lots),
    )


# -- setting up -----------------------------------------------------------------------------


def _deal(e: Event, who: Who) -> Text:
    return _(
        "%(player)s starts with lots %(lots)s and %(money)s.",
        player=who(e["seat"]),
        lots=and_list(e["cards"]),
        money=money(e["money"]),
    )


def _shuffled_back(e: Event, who: Who) -> Text:
    return ngettext(
        "The set-aside card %(cards)s is shuffled back into the deck.",
        "The set-aside cards %(cards)s are shuffled back into the deck.",
        len(e["cards"]),
        cards=" ".join(e["cards"]),
    )


def _roll(e: Event, who: Who) -> Text:
    dice = and_list(e["dice"])
    if e.get("tie"):
        return _(
            "%(player)s rolls %(dice)s to break a tie for the first turn.",
            player=who(e["seat"]),
            dice=dice,
        )
    return _("%(player)s rolls %(dice)s for the first turn.", player=who(e["seat"]), dice=dice)


# -- steps 1-5 ------------------------------------------------------------------------------


def _card(e: Event, who: Who) -> Text:
    if e["card"] == GAME_OVER:
        return _(
            "%(player)s draws the Game Over card, which pays the Strip.", player=who(e["seat"])
        )
    if e["pays"] == "strip":
        return _(
            "%(player)s draws %(card)s, which pays the Strip.",
            player=who(e["seat"]),
            card=e["card"],
        )
    return _(
        "%(player)s draws %(card)s, which pays %(company)s.",
        player=who(e["seat"]),
        card=e["card"],
        company=company(e["pays"]),
    )


def _take_over(e: Event, who: Who) -> Text:
    if e["from"] is not None:
        return _(
            "%(player)s takes over %(lot)s from %(owner)s, keeping its %(value)s.",
            player=who(e["seat"]),
            lot=e["lot"],
            owner=who(e["from"]),
            value=e["value"],
        )
    return _(
        "%(player)s takes over %(lot)s, a tile with no die, with the printed %(value)s.",
        player=who(e["seat"]),
        lot=e["lot"],
        value=e["value"],
    )


def _waiting(e: Event, who: Who) -> Text:
    player, lot, decision = who(e["seat"]), e.get("lot"), e["decision"]
    if decision == "move die":
        return _(
            "Waiting for %(player)s to choose which die moves to %(lot)s "
            "(all 12 are on the board).",
            player=player,
            lot=lot,
        )
    if decision == "move lot":
        return _(
            "Waiting for %(player)s to choose which lot marker moves to %(lot)s "
            "(all 10 are on the board).",
            player=player,
            lot=lot,
        )
    if decision == "place":
        return _(
            "Waiting for %(player)s to choose where to place the rerolled dice.", player=player
        )
    return _("Waiting for %(player)s to choose whether to lay off half of the bet.", player=player)


def _parking(e: Event, who: Who) -> Text:
    return ngettext(
        "%(player)s's parking lot pays %(money)s.",
        "%(player)s's %(count)s parking lots pay %(money)s.",
        e["amount"],
        player=who(e["seat"]),
        count=e["amount"],
        money=money(e["amount"]),
    )


def _scored(e: Event, who: Who) -> Text:
    params = {
        "player": who(e["seat"]),
        "count": e["points"],
        "lot": e["casino"][0],
        "from": e["from"],
        "to": e["to"],
    }
    if e["to"] == e["from"]:
        return ngettext(
            "%(player)s scores %(count)s point for the casino at %(lot)s but stays on %(from)s "
            "(not enough to pass the break).",
            "%(player)s scores %(count)s points for the casino at %(lot)s but stays on %(from)s "
            "(not enough to pass the break).",
            e["points"],
            **params,
        )
    return ngettext(
        "%(player)s scores %(count)s point for the casino at %(lot)s, "
        "moving from %(from)s to %(to)s.",
        "%(player)s scores %(count)s points for the casino at %(lot)s, "
        "moving from %(from)s to %(to)s.",
        e["points"],
        **params,
    )


def _points(n: int) -> Text:
    return ngettext("%(count)s point", "%(count)s points", n, count=n)


def _end(e: Event, who: Who) -> Text:
    ranking = Join(
        [
            _(
                "%(rank)s. %(player)s (%(points)s, %(money)s)",
                rank=p["rank"],
                player=who(p["seat"]),
                points=_points(p["points"]),
                money=money(p["money"]),
            )
            for p in e["placings"]
        ],
        "; ",
    )
    if e["reason"] == "card":
        return _("The game ends (the Game Over card): %(ranking)s.", ranking=ranking)
    return _("The game ends (the end of the scoring track): %(ranking)s.", ranking=ranking)


# -- casinos --------------------------------------------------------------------------------


def _tie(e: Event, who: Who) -> Text:
    rolls = Join(
        [
            _(
                "%(player)s's die on %(lot)s to %(value)s",
                player=who(r["seat"]),
                lot=r["lot"],
                value=r["value"],
            )
            for r in e["rolls"]
        ]
    )
    return _(
        "Tied bosses in the casino at %(lot)s: rerolled %(rolls)s.",
        lot=e["casino"][0],
        rolls=rolls,
    )


def _boss(e: Event, who: Who) -> Text:
    if e["seat"] is None:
        return _(
            "Nobody is the boss of the casino at %(casino)s any more.", casino=_lots(e["casino"])
        )
    return _(
        "%(player)s is now the boss of the casino at %(casino)s.",
        player=who(e["seat"]),
        casino=_lots(e["casino"]),
    )


def _build(e: Event, who: Who) -> Text:
    """ "an Albion tile" but "a Sphinx tile": English needs two sentences (translators may
    write the same one twice)."""
    name = company(e["company"])
    params = {"player": who(e["seat"]), "company": name, "lot": e["lot"], "cost": money(e["cost"])}
    joins = e.get("joins") or []
    an = name[:1].lower() in "aeiou"
    if not joins:
        if an:
            return _("%(player)s builds an %(company)s tile on %(lot)s for %(cost)s.", **params)
        return _("%(player)s builds a %(company)s tile on %(lot)s for %(cost)s.", **params)
    params["casinos"] = and_list(joins)
    if an:
        return ngettext(
            "%(player)s builds an %(company)s tile on %(lot)s for %(cost)s; "
            "it joins the casino at %(casinos)s.",
            "%(player)s builds an %(company)s tile on %(lot)s for %(cost)s; "
            "it joins the casinos at %(casinos)s.",
            len(joins),
            **params,
        )
    return ngettext(
        "%(player)s builds a %(company)s tile on %(lot)s for %(cost)s; "
        "it joins the casino at %(casinos)s.",
        "%(player)s builds a %(company)s tile on %(lot)s for %(cost)s; "
        "it joins the casinos at %(casinos)s.",
        len(joins),
        **params,
    )


def _reorganize(e: Event, who: Who) -> Text:
    rolls = Join(
        [
            _("%(player)s rolls %(value)s", player=who(r["seat"]), value=r["value"])
            for r in e["rolls"]
        ]
    )
    return _(
        "%(player)s reorganizes the casino at %(lot)s for %(cost)s: %(rolls)s.",
        player=who(e["seat"]),
        lot=e["casino"][0],
        cost=money(e["cost"]),
        rolls=rolls,
    )


def _placed(e: Event, who: Who) -> Text:
    values = Join([_("%(value)s on %(lot)s", value=v, lot=lot) for lot, v in e["values"].items()])
    return _(
        "%(player)s places the rerolled dice: %(values)s.", player=who(e["seat"]), values=values
    )


def _gamble(e: Event, who: Who) -> Text:
    """Won or lost, with or without the classic lay-off (only a lay-off brings the bank in)."""
    params = {
        "player": who(e["seat"]),
        "dice": " + ".join(str(d) for d in e["dice"]),
        "total": e["total"],
        "boss": who(e["boss"]),
    }
    if e["won"] > 0:
        params |= {
            "won": money(e["won"]),
            "boss_paid": money(e["boss_paid"]),
            "bank_paid": money(e["bank_paid"]),
        }
        if e["bank_paid"]:
            return _(
                "%(player)s rolls %(dice)s = %(total)s with half laid off and wins %(won)s "
                "(%(boss_paid)s from %(boss)s, %(bank_paid)s from the bank).",
                **params,
            )
        return _(
            "%(player)s rolls %(dice)s = %(total)s and wins %(won)s (%(boss_paid)s from %(boss)s).",
            **params,
        )
    params |= {
        "lost": money(e["amount"]),
        "boss_paid": money(-e["boss_paid"]),
        "bank_paid": money(-e["bank_paid"]),
    }
    if e["bank_paid"]:
        return _(
            "%(player)s rolls %(dice)s = %(total)s with half laid off and loses %(lost)s "
            "(%(boss_paid)s to %(boss)s, %(bank_paid)s to the bank).",
            **params,
        )
    return _(
        "%(player)s rolls %(dice)s = %(total)s and loses %(lost)s (%(boss_paid)s to %(boss)s).",
        **params,
    )


# -- trades ---------------------------------------------------------------------------------


def _trade_stopped(e: Event, who: Who) -> Text:
    return _(
        "The trade stops at step %(step)s: %(reason)s; the later steps do not happen.",
        step=e["step"],
        reason=from_json(e["reason"]),
    )


def _trade_done(e: Event, who: Who) -> Text:
    return ngettext(
        "The trade's single step happens.",
        "All %(count)s steps of the trade happen.",
        e["steps"],
        count=e["steps"],
    )


_PREFERENCES: dict[tuple[str, str], Text] = {
    ("place", "auto"): _("%(player)s lets the game place their re-rolled dice from now on."),
    ("place", "ask"): _("%(player)s chooses where their re-rolled dice go from now on."),
    ("layoff", "never"): _("%(player)s never lays off half a bet to the bank from now on."),
    ("layoff", "always"): _("%(player)s always lays off half a bet to the bank from now on."),
    ("layoff", "ask"): _("%(player)s is asked about laying off each bet from now on."),
}
"""A standing choice in words (``prefer place auto``): the notation's words are English."""


def _preference(e: Event, who: Who) -> Text:
    sentence = _PREFERENCES.get((e["topic"], e["value"]))
    if sentence is None:
        return _(
            "%(player)s sets %(topic)s to %(value)s.",
            player=who(e["seat"]),
            topic=e["topic"],
            value=e["value"],
        )
    return Text(sentence.msgid, {"player": who(e["seat"])})


_SENTENCES: dict[str, Callable[[Event, Who], Text]] = {
    "deal": _deal,
    "set_aside": lambda e, who: _(
        "%(card)s is set aside (the F block is out of play).", card=e["card"]
    ),
    "shuffled_back": _shuffled_back,
    "first_roll": _roll,
    "first_player": lambda e, who: _("%(player)s takes the first turn.", player=who(e["seat"])),
    "turn": lambda e, who: _("%(player)s's turn begins.", player=who(e["seat"])),
    "card": _card,
    "out_of_play": lambda e, who: _(
        "%(card)s is in the F block, out of play with two players: no lot marker; "
        "another card is drawn after the payout.",
        card=e["card"],
    ),
    "already_yours": lambda e, who: _(
        "%(lot)s is already %(player)s's.", lot=e["lot"], player=who(e["seat"])
    ),
    "lot": lambda e, who: _(
        "%(player)s puts a lot marker on %(lot)s.", player=who(e["seat"]), lot=e["lot"]
    ),
    "take_over": _take_over,
    "waiting": _waiting,
    "parking": _parking,
    "paid": lambda e, who: _(
        "The casino at %(lot)s pays %(player)s %(money)s.",
        lot=e["casino"][0],
        player=who(e["seat"]),
        money=money(e["amount"]),
    ),
    "scored": _scored,
    "game_end": _end,
    "merge": lambda e, who: _(
        "Casinos merge into one %(company)s casino at %(casino)s.",
        company=company(e["company"]),
        casino=_lots(e["casino"]),
    ),
    "tie_reroll": _tie,
    "boss": _boss,
    "build": _build,
    "sprawl": lambda e, who: _(
        "%(player)s sprawls the %(company)s casino at %(origin)s into %(lot)s for %(cost)s.",
        player=who(e["seat"]),
        company=company(e["company"]),
        origin=e["origin"],
        lot=e["lot"],
        cost=money(e["cost"]),
    ),
    "remodel": lambda e, who: _(
        "%(player)s remodels the casino at %(lot)s from %(old)s to %(company)s for %(cost)s.",
        player=who(e["seat"]),
        lot=e["casino"][0],
        old=company(e["from"]),
        company=company(e["company"]),
        cost=money(e["cost"]),
    ),
    "reorganize": _reorganize,
    "raise": lambda e, who: ngettext(
        "%(player)s raises the casino at %(lot)s to %(height)s tile high for %(cost)s.",
        "%(player)s raises the casino at %(lot)s to %(height)s tiles high for %(cost)s.",
        e["height"],
        player=who(e["seat"]),
        lot=e["casino"][0],
        height=e["height"],
        cost=money(e["cost"]),
    ),
    "die_moved": lambda e, who: _(
        "%(player)s moves a die from %(from)s to %(to)s.",
        player=who(e["seat"]),
        **{"from": e["from"], "to": e["to"]},
    ),
    "marker_moved": lambda e, who: _(
        "%(player)s moves a lot marker from %(from)s to %(to)s.",
        player=who(e["seat"]),
        **{"from": e["from"], "to": e["to"]},
    ),
    "placed": _placed,
    "bet": lambda e, who: _(
        "%(player)s bets %(amount)s at %(boss)s's casino at %(lot)s.",
        player=who(e["seat"]),
        amount=money(e["amount"]),
        boss=who(e["boss"]),
        lot=e["lot"],
    ),
    "gamble": _gamble,
    "preference": _preference,
    "trade": lambda e, who: _(
        "A trade between %(players)s goes off.", players=and_list([who(s) for s in e["seats"]])
    ),
    "trade_stopped": _trade_stopped,
    "trade_done": _trade_done,
    "trade_pay": lambda e, who: _(
        "%(player)s pays %(payee)s %(money)s.",
        player=who(e["seat"]),
        payee=who(e["to"]),
        money=money(e["amount"]),
    ),
    "trade_lot": lambda e, who: _(
        "%(player)s gives lot %(lot)s to %(receiver)s.",
        player=who(e["seat"]),
        lot=e["lot"],
        receiver=who(e["to"]),
    ),
    "trade_die": lambda e, who: _(
        "%(player)s's %(value)s on %(lot)s becomes %(receiver)s's.",
        player=who(e["seat"]),
        value=e["value"],
        lot=e["lot"],
        receiver=who(e["to"]),
    ),
    "turn_end": lambda e, who: _("%(player)s ends the turn.", player=who(e["seat"])),
}

EVENT_TYPES = frozenset(_SENTENCES)
"""Every event type the engine logs, each with its own sentence."""
