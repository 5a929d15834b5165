"""``describe``: one event as one sentence for the game log and for email.

Events are JSON dicts with a ``type``; seats are ints and ``names[seat]`` is how the platform
calls each player. A type this module does not know still gets a readable line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .board import GAME_OVER

Event = dict[str, Any]


def _lots(lots: list[str]) -> str:
    return lots[0] if len(lots) == 1 else f"{lots[0]} ({len(lots)} spaces: {' '.join(lots)})"


def _card(card: str) -> str:
    return "the Game Over card" if card == GAME_OVER else card


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _a(word: str) -> str:
    """ "an Albion", "a Sphinx"."""
    return f"an {word}" if word[:1].lower() in "aeiou" else f"a {word}"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def describe(event: Event, names: Sequence[str]) -> str:
    def who(seat: int | None) -> str:
        return "nobody" if seat is None else str(names[seat])

    kind = event.get("type", "?")
    sentence = _SENTENCES.get(kind)
    if sentence is None:
        details = ", ".join(f"{k} {v}" for k, v in event.items() if k != "type")
        return f"{kind}: {details}."
    return sentence(event, who)


Who = Callable[[int | None], str]


def _roll(e: Event, who: Who) -> str:
    dice = " and ".join(str(d) for d in e["dice"])
    extra = " to break a tie" if e.get("tie") else ""
    return f"{who(e['seat'])} rolls {dice}{extra} for the first turn."


def _tie(e: Event, who: Who) -> str:
    rolls = ", ".join(f"{who(r['seat'])}'s die on {r['lot']} to {r['value']}" for r in e["rolls"])
    return f"Tied bosses in the casino at {e['casino'][0]}: rerolled {rolls}."


def _scored(e: Event, who: Who) -> str:
    scores = f"{who(e['seat'])} scores {_points(e['points'])} for the casino at {e['casino'][0]}"
    if e["to"] == e["from"]:
        return f"{scores} but stays on {e['from']} (not enough to pass the break)."
    return f"{scores}, moving from {e['from']} to {e['to']}."


def _gamble(e: Event, who: Who) -> str:
    dice = " + ".join(str(d) for d in e["dice"])
    if e["won"] > 0:
        result = f"wins ${e['won']}m (${e['boss_paid']}m from {who(e['boss'])}"
        result += f", ${e['bank_paid']}m from the bank)" if e["bank_paid"] else ")"
    else:
        result = f"loses ${e['amount']}m (${-e['boss_paid']}m to {who(e['boss'])}"
        result += f", ${-e['bank_paid']}m to the bank)" if e["bank_paid"] else ")"
    layoff = " with half laid off" if e["lay_off"] else ""
    return f"{who(e['seat'])} rolls {dice} = {e['total']}{layoff} and {result}."


def _end(e: Event, who: Who) -> str:
    why = "the Game Over card" if e["reason"] == "card" else "the end of the scoring track"
    ranking = "; ".join(
        f"{p['rank']}. {who(p['seat'])} ({_points(p['points'])}, ${p['money']}m)"
        for p in e["placings"]
    )
    return f"The game ends ({why}): {ranking}."


def _waiting(e: Event, who: Who) -> str:
    asks = {
        "move die": f"which die moves to {e.get('lot')} (all 12 are on the board)",
        "move lot": f"which lot marker moves to {e.get('lot')} (all 10 are on the board)",
        "place": "where to place the rerolled dice",
        "layoff": "whether to lay off half of the bet",
    }
    return f"Waiting for {who(e['seat'])} to choose {asks[e['decision']]}."


_SENTENCES: dict[str, Callable[[Event, Who], str]] = {
    "deal": lambda e, who: (
        f"{who(e['seat'])} starts with lots {' and '.join(e['cards'])} and ${e['money']}m."
    ),
    "set_aside": lambda e, who: f"{e['card']} is set aside (the F block is out of play).",
    "shuffled_back": lambda e, who: (
        f"The set-aside cards {' '.join(e['cards'])} are shuffled back into the deck."
    ),
    "first_roll": _roll,
    "first_player": lambda e, who: f"{who(e['seat'])} takes the first turn.",
    "turn": lambda e, who: f"{who(e['seat'])}'s turn begins.",
    "card": lambda e, who: (
        f"{who(e['seat'])} draws {_card(e['card'])}, which pays "
        f"{'the Strip' if e['pays'] == 'strip' else e['pays'].capitalize()}."
    ),
    "out_of_play": lambda e, who: (
        f"{e['card']} is in the F block, out of play with two players: no lot marker; "
        "another card is drawn after the payout."
    ),
    "already_yours": lambda e, who: f"{e['lot']} is already {who(e['seat'])}'s.",
    "lot": lambda e, who: f"{who(e['seat'])} puts a lot marker on {e['lot']}.",
    "take_over": lambda e, who: (
        f"{who(e['seat'])} takes over {e['lot']} from {who(e['from'])}, keeping its {e['value']}."
        if e["from"] is not None
        else f"{who(e['seat'])} takes over {e['lot']}, a tile with no die, "
        f"with the printed {e['value']}."
    ),
    "waiting": _waiting,
    "parking": lambda e, who: (
        f"{who(e['seat'])}'s parking lot pays $1m."
        if e["amount"] == 1
        else f"{who(e['seat'])}'s {e['amount']} parking lots pay ${e['amount']}m."
    ),
    "paid": lambda e, who: f"The casino at {e['casino'][0]} pays {who(e['seat'])} ${e['amount']}m.",
    "scored": _scored,
    "game_end": _end,
    "merge": lambda e, who: (
        f"Casinos merge into one {e['company'].capitalize()} casino at {_lots(e['casino'])}."
    ),
    "tie_reroll": _tie,
    "boss": lambda e, who: (
        f"{who(e['seat'])} is now the boss of the casino at {_lots(e['casino'])}."
        if e["seat"] is not None
        else f"Nobody is the boss of the casino at {_lots(e['casino'])} any more."
    ),
    "build": lambda e, who: (
        f"{who(e['seat'])} builds {_a(e['company'].capitalize())} tile on {e['lot']} "
        f"for ${e['cost']}m"
        + (
            f"; it joins the casino{'s' * (len(e['joins']) > 1)} at {_and(e['joins'])}."
            if e.get("joins")
            else "."
        )
    ),
    "sprawl": lambda e, who: (
        f"{who(e['seat'])} sprawls the {e['company'].capitalize()} casino at {e['origin']} "
        f"into {e['lot']} for ${e['cost']}m."
    ),
    "remodel": lambda e, who: (
        f"{who(e['seat'])} remodels the casino at {e['casino'][0]} from "
        f"{e['from'].capitalize()} to {e['company'].capitalize()} for ${e['cost']}m."
    ),
    "reorganize": lambda e, who: (
        f"{who(e['seat'])} reorganizes the casino at {e['casino'][0]} for ${e['cost']}m: "
        + ", ".join(f"{who(r['seat'])} rolls {r['value']}" for r in e["rolls"])
        + "."
    ),
    "raise": lambda e, who: (
        f"{who(e['seat'])} raises the casino at {e['casino'][0]} to {e['height']} tiles high "
        f"for ${e['cost']}m."
    ),
    "die_moved": lambda e, who: f"{who(e['seat'])} moves a die from {e['from']} to {e['to']}.",
    "marker_moved": lambda e, who: (
        f"{who(e['seat'])} moves a lot marker from {e['from']} to {e['to']}."
    ),
    "placed": lambda e, who: (
        f"{who(e['seat'])} places the rerolled dice: "
        + ", ".join(f"{v} on {lot}" for lot, v in e["values"].items())
        + "."
    ),
    "bet": lambda e, who: (
        f"{who(e['seat'])} bets ${e['amount']}m at {who(e['boss'])}'s casino at {e['lot']}."
    ),
    "gamble": _gamble,
    "preference": lambda e, who: f"{who(e['seat'])} sets {e['topic']} to {e['value']}.",
    "trade": lambda e, who: f"A trade between {_and([who(s) for s in e['seats']])} goes off.",
    "trade_stopped": lambda e, who: (
        f"The trade stops at step {e['step']}: {e['reason']}; the later steps do not happen."
    ),
    "trade_done": lambda e, who: f"All {e['steps']} steps of the trade happen.",
    "trade_pay": lambda e, who: f"{who(e['seat'])} pays {who(e['to'])} ${e['amount']}m.",
    "trade_lot": lambda e, who: f"{who(e['seat'])} gives lot {e['lot']} to {who(e['to'])}.",
    "trade_die": lambda e, who: (
        f"{who(e['seat'])}'s {e['value']} on {e['lot']} becomes {who(e['to'])}'s."
    ),
    "turn_end": lambda e, who: f"{who(e['seat'])} ends the turn.",
}
