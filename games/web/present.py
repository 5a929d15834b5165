"""Presentation for the web pages: turn the selectors' dicts (the engine's view for the
viewer's seat, the log, the seats) into what the templates draw. No rules here and nothing
read from the full state: only from what the viewer may already see."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import tzinfo
from typing import Any

from django.utils import translation
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.models import unnamed, zone_named
from games.engines.lords_of_vegas import describe_decision, describe_lot, describe_view
from games.engines.lords_of_vegas.board import LOTS, in_play
from games.engines.lords_of_vegas.views import command_cost, gamble_limit
from games.engines.registry import get_engine
from games.engines.vegas.view import in_hand, notes_text, rolled

BUTTONS_OPEN = 12
"""A group of legal commands up to this size is shown open; bigger ones start folded."""

DIE_FACES = {1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅"}


# -- small things --------------------------------------------------------------------------


def viewer_zone(user: Any) -> tzinfo:
    """The viewer's time zone (UTC for someone not signed in)."""
    return zone_named(getattr(user, "time_zone", None))


def game_name(game_type: str) -> str:
    try:
        return get_engine(game_type).name
    except LookupError:
        return game_type


ABOUT = {
    "lords-of-vegas": gettext_lazy(
        "Build casinos on the Strip, roll to be the boss, gamble and sprawl: 2 to 6 players."
    ),
    "vegas": gettext_lazy(
        "Roll dice, place them on six casinos, win the biggest notes: 2 to 5 players."
    ),
}


def about(game_type: str) -> str:
    """One line on what the game is (the create page's choice of game)."""
    return str(ABOUT.get(game_type, ""))


def edition(game_type: str, options: dict[str, Any] | None) -> str:
    """The game's edition as its engine labels it, in the reader's language and without
    the player counts the create form adds ("classic edition", "édition classique"), or
    ""."""
    try:
        key, values = get_engine(game_type).editions
    except LookupError:
        return ""
    chosen = (options or {}).get(key, "")
    label = next((label for value, label in values if value == chosen), chosen)
    return str(label).split(" (", 1)[0]


def title(game: dict[str, Any]) -> str:
    return f"{game_name(game['game_type'])} #{game['id']}"


def money(value: int | None) -> str:
    """``$65,000`` (grouped as the reader's language groups thousands), or "hidden"."""
    if value is None:
        return _("hidden")
    return _("$%(amount)s") % {"amount": number_format(value, force_grouping=True)}


def millions(value: int) -> str:
    """Lords of Vegas money, counted in millions: ``$12m``."""
    return _("$%(amount)sm") % {"amount": number_format(value, force_grouping=True)}


# -- seats ---------------------------------------------------------------------------------


def seats(game: dict[str, Any]) -> list[dict[str, Any]]:
    """The seats with what the view shows of each (money, score, dice in hand...)."""
    view = game["view"] or {}
    shown = view.get("players") if isinstance(view.get("players"), list) else view.get("seats")
    per_seat = {entry["seat"]: entry for entry in shown or []}
    rows = []
    for seat in game["seats"]:
        figures = _figures(per_seat.get(seat["order"], {}))
        name = _colour_name(game.get("game_type", ""), seat["colour"])
        rows.append(
            {**seat, "you": seat["order"] == game["your_seat"], "colour_name": name, **figures}
        )
    return rows


def _colour_name(game_type: str, colour: str | None) -> str:
    """A seat's colour in the reader's language (the engine's name for it)."""
    if not colour:
        return ""
    try:
        return str(get_engine(game_type).colour_name(colour))
    except LookupError:
        return colour


def _figures(shown: dict[str, Any]) -> dict[str, Any]:
    if "score" in shown:  # Lords of Vegas: money in millions, points on the track
        return {
            "money": millions(shown["money"]),
            "score": shown["score"],
            # Translators: what a Lords of Vegas player has left: "5 dice, 7 lot markers left".
            "detail": _("%(dice)s, %(markers)s left")
            % {
                "dice": ngettext("%(count)s die", "%(count)s dice", shown["dice_left"])
                % {"count": shown["dice_left"]},
                "markers": ngettext(
                    "%(count)s lot marker", "%(count)s lot markers", shown["markers_left"]
                )
                % {"count": shown["markers_left"]},
            },
        }
    if "notes" in shown:  # Vegas: money hidden but to its owner, until the end
        return {
            "money": money(shown["money"]),
            "score": None,
            # Translators: a Vegas player's dice and notes: "5 dice + 2 white in hand, 1 note".
            "detail": _("%(dice)s in hand, %(notes)s")
            % {
                "dice": str(in_hand(shown["dice"], shown.get("white") or 0)),
                "notes": str(notes_text(shown["notes"])),
            },
        }
    return {"money": None, "score": None, "detail": ""}


def placings(game: dict[str, Any]) -> list[dict[str, Any]]:
    """The result as it is said: "1st Ada — 42 points, $65m" or "1st Ada — $65,000 (10
    notes)" (ordinals and numbers in the reader's language)."""
    outcome = game.get("outcome") or {}
    names = {s["order"]: s for s in game["seats"]}
    rows = []
    for placing in outcome.get("placings", []):
        seat = names.get(placing.get("seat"), {})
        rank = placing.get("rank")
        rows.append(
            {
                "rank": rank,
                "place": place(rank) if rank is not None else "",
                **seat,
                "detail": _placing_detail(placing),
            }
        )
    return rows


def place(rank: int) -> str:
    """``1st``, ``1er``, ``1°``: a place in the result. Django's ordinal said "1esimo" in
    Italian, so the places are this project's words: English picks its suffix here and each
    language writes every suffix its way (French "1er" but "2e", Italian "1°")."""
    if rank == 1:
        return _("1st")
    if rank % 100 in (11, 12, 13) or rank % 10 not in (1, 2, 3):
        return _("%(rank)sth") % {"rank": rank}
    if rank % 10 == 1:
        return _("%(rank)sst") % {"rank": rank}
    if rank % 10 == 2:
        return _("%(rank)snd") % {"rank": rank}
    return _("%(rank)srd") % {"rank": rank}


def _placing_detail(placing: dict[str, Any]) -> str:
    notes, points = placing.get("notes"), placing.get("points")
    if notes is not None:  # Vegas: the money, and the notes it is in ("$470,000 (7 notes)")
        return _("%(money)s (%(notes)s)") % {
            "money": money(placing.get("money")),
            "notes": str(notes_text(notes)),
        }
    if points is not None:
        return ngettext("%(count)s point, %(money)s", "%(count)s points, %(money)s", points) % {
            "count": points,
            "money": millions(int(placing.get("money") or 0)),
        }
    return ""


# -- the log -------------------------------------------------------------------------------


def played(moves: Iterable[Any], game_type: str, typed: str) -> str:
    """What the player's submission played, in the words of the reader's language ("Joué :
    préférer abandonner toujours", not the canonical "prefer layoff always" they never
    wrote; the email door's answer says it so too, decision 0040); ``typed`` when nothing
    was written (an answer replayed by its key)."""
    engine = get_engine(game_type)
    language = translation.get_language() or "en"
    words = [
        engine.format_in(engine.command_from_json(m.command), language)
        for m in moves
        if m.source == "web" and m.command
    ]
    return "; ".join(words) or typed


def log(
    moves: Sequence[dict[str, Any]], game: dict[str, Any], seen_up_to: int = -1
) -> list[dict[str, Any]]:
    """Newest first: who, what they typed, what happened (the engine's sentences). The
    sentences of the moves up to ``seen_up_to`` are ``folded`` (the page shows them on a
    tap), the newest move's never: a late game's payouts made a phone's page 24,000 px
    long, while a player coming back wants what happened since their own move."""
    names = {s["order"]: s["name"] for s in game["seats"]}
    newest = moves[-1]["seq"] if moves else -1
    return [
        {
            "seq": m["seq"],
            "who": _who(m, names),
            "source": m["source"],
            "text": "" if _tool(m) else m["text"],
            "sentences": _sentences(m),
            "folded": m["seq"] <= seen_up_to and m["seq"] != newest,
            "at": m["created_at"],
        }
        for m in reversed(moves)
    ]


MARKS = {"turn": "begins", "round_start": "begins", "card": "drawn", "game_end": "ends"}
"""The events whose sentence the log sets apart, by the engines' event types: a move that
ends a turn holds the next player's turn too (its beginning, the card they draw, the
payouts, maybe the game's end), filed under the previous player's "end" (found by a
play-test); the beginning reads as a small heading inside the move, the draw and the end
in bold. Presentation only: the events are the engines'."""


def _sentences(move: dict[str, Any]) -> list[dict[str, Any]]:
    """What happened in ``move``, each sentence with its mark (:data:`MARKS`, or ""): the
    trade's credit first, then one sentence an event (the log and the replay)."""
    said = [{"text": move["credit"], "mark": ""}] if move.get("credit") else []
    for event, sentence in zip(move["events"], move["described"], strict=False):
        if sentence:
            said.append({"text": sentence, "mark": MARKS.get(event.get("type", ""), "")})
    return said


def _tool(move: dict[str, Any]) -> dict[str, Any] | None:
    """A game tool's event, if the move is one (its sentence says what was done: the
    tool's name in the log would be an English word)."""
    events = move["events"]
    return events[0] if events and events[0].get("type") == "tool" else None


def _who(move: dict[str, Any], names: dict[int, str]) -> Any:
    """Who made the move: a game tool is its user's (its seat is the one it acted on)."""
    if move["seq"] == 0:
        return _("setup")
    tool = _tool(move)
    if tool is not None:
        return tool.get("by_name") or (unnamed(tool["by"]) if tool.get("by") else _("the game"))
    command = move.get("command") or {}
    traded = bool(move.get("credit")) or command.get("type") == "trade"  # (the replay: no credit)
    return names.get(move["seat"], _("trade") if traded else _("the game"))


# -- the legal commands --------------------------------------------------------------------


VERB_LABELS = {
    "build": gettext_lazy("Build"),
    "sprawl": gettext_lazy("Sprawl"),
    "remodel": gettext_lazy("Remodel"),
    "reorganize": gettext_lazy("Reorganize"),
    "raise": gettext_lazy("Raise"),
    "gamble": gettext_lazy("Gamble"),
    "end": gettext_lazy("End the turn"),
    "move": gettext_lazy("Move"),
    "place": gettext_lazy("Place"),
    "layoff": gettext_lazy("Lay off half the bet"),
    "prefer": gettext_lazy("Prefer"),
    "trade": gettext_lazy("Trade"),
}
"""What heads each group of legal commands: the notation's verbs are what is played (each
button's value and title keep them), but a heading is read, so it is in the reader's
language. A verb not listed here is shown as it is."""

WORDS = {
    "yes": gettext_lazy("yes"),
    "no": gettext_lazy("no"),
    "die": gettext_lazy("a die"),
    "lot": gettext_lazy("a lot marker"),
}
"""The notation's few plain words a button or a row head shows (``layoff yes``, ``move die
D5``): said in the reader's language, like the verbs."""


def command_groups(
    legal: Iterable[dict[str, Any]], view: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """The legal commands grouped by verb, then by their first argument (``build B4`` ->
    one row with a button per company), so that a hundred choices stay readable. Each
    button says its price when it has one (Lords of Vegas: from the view); the many
    ``gamble <lot> <amount>`` commands become one amount field a casino (``bets``). The
    headings and labels are in the reader's language; the command played is the button's
    value, in the notation."""
    groups: dict[str, dict[str, list[dict[str, Any]]]] = {}
    bets: dict[str, int] = {}
    for entry in legal:
        text = str(entry["text"])
        verb, _, rest = text.partition(" ")
        first, _, tail = rest.partition(" ")
        command = entry.get("command") or {}
        if view is not None and command.get("type") == "gamble":
            bets[first] = max(bets.get(first, 0), int(command["amount"]))
            continue
        row = groups.setdefault(verb, {}).setdefault(first if tail else "", [])
        label = _button_label(command, tail or first) if tail or first else _verb(verb)
        row.append({"text": text, "label": label, "cost": _price(view, command)})
        if view is not None and command.get("type") == "place" and "number" in command:
            # (Vegas: a number of the roll; Lords of Vegas's place, after a reorganize,
            # says which value each die takes: its button reads as the notation)
            row[-1]["label"] = _placing_label(view, int(command["number"]))
    shown = [
        {
            "key": verb,
            "verb": _verb(verb),
            "count": sum(map(len, rows.values())),
            "open": sum(map(len, rows.values())) <= BUTTONS_OPEN,
            "rows": [
                {"head": f"{_verb(verb)} {WORDS.get(head, head)}" if head else "", "buttons": b}
                for head, b in rows.items()
            ],
        }
        for verb, rows in groups.items()
    ]
    return shown + _bets(bets, view)


def _verb(verb: str) -> str:
    return str(VERB_LABELS.get(verb, verb))


def _button_label(command: dict[str, Any], words: str) -> str:
    """What a button says after its row's head: ``from D7`` for a sprawl, ``sphinx`` for a
    build, ``yes`` for a lay-off, in the reader's language; the tile a die comes from
    (``moving D5``) said too."""
    if command.get("type") == "sprawl":
        label = _("from %(lot)s") % {"lot": command["origin"]}
    elif command.get("type") == "build":
        label = str(command["company"])
    else:
        return str(WORDS.get(words, words))
    if command.get("moving"):
        return _("%(label)s, your die from %(lot)s") % {"label": label, "lot": command["moving"]}
    return label


def _price(view: dict[str, Any] | None, command: dict[str, Any]) -> str | None:
    if view is None or view.get("game") != "lords-of-vegas":
        return None
    cost = command_cost(view, command)
    return None if cost is None else millions(cost)


def _placing_label(view: dict[str, Any], number: int) -> str:
    """ "2 dice + 1 white on casino 4": what ``place 4`` puts where (Vegas)."""
    roll = view.get("roll") or {}
    own = list(roll.get("own", [])).count(number)
    white = list(roll.get("white", [])).count(number)
    whites = ngettext(
        "%(white)s white die on casino %(n)s", "%(white)s white dice on casino %(n)s", white
    ) % {"white": white, "n": number}
    if white and not own:  # (it said "0 dé + 1 blanc(s)")
        return whites
    if white:
        return ngettext("%(own)s die + %(whites)s", "%(own)s dice + %(whites)s", own) % {
            "own": own,
            "whites": whites,
        }
    return ngettext("%(own)s die on casino %(n)s", "%(own)s dice on casino %(n)s", own) % {
        "own": own,
        "n": number,
    }


def _bets(bets: dict[str, int], view: dict[str, Any] | None) -> list[dict[str, Any]]:
    """One amount field a casino the player may gamble at, bounded by what it takes."""
    if not bets or view is None:
        return []
    fields = [
        {"lot": lot, "max": min(most, gamble_limit(view, lot) or most)}
        for lot, most in sorted(bets.items())
    ]
    return [
        {
            "key": "gamble",
            "verb": _verb("gamble"),
            "count": len(fields),
            "open": True,
            "bets": fields,
            "rows": [],
        }
    ]


def confirmation(command: str, legal: Iterable[dict[str, Any]], view: Any) -> dict[str, Any]:
    """What the confirm step shows for a picked command: the command and its price."""
    entry = next((e for e in legal if str(e["text"]) == command), None)
    cost = None if entry is None else _price(view, entry.get("command") or {})
    return {"text": command, "cost": cost}


# -- Lords of Vegas ------------------------------------------------------------------------


_CHOICES: dict[str, tuple[Any, dict[str, Any]]] = {
    "layoff": (
        gettext_lazy("When someone bets at one of your casinos"),
        {
            "never": gettext_lazy("Never lay off: you take the whole bet"),
            "always": gettext_lazy("Always lay off half of it to the bank"),
            "ask": gettext_lazy(
                "Ask me at each bet (the game waits for you; a missed deadline answers no)"
            ),
        },
    ),
    "place": (
        gettext_lazy("After you reorganize"),
        {
            "auto": gettext_lazy("The game places your re-rolled dice"),
            "ask": gettext_lazy("Ask me where they go (the game waits for you)"),
        },
    ),
}
"""The standing choices a player makes once for the whole game, in words, by topic: the
lay-off is the classic edition's own (the boss's choice before each bet)."""


def standing_choices(game: dict[str, Any]) -> list[dict[str, Any]]:
    """The viewer's standing choices with their current values, each option the command
    that sets it (``prefer layoff ask``): the book gives a classic boss the lay-off at every
    bet, and a default nobody is told of is a choice made for them (decision 0042)."""
    if game["game_type"] != "lords-of-vegas" or game.get("your_seat") is None:
        return []
    players = (game.get("view") or {}).get("players") or []
    seat = game["your_seat"]
    if seat >= len(players) or "prefs" not in players[seat]:
        return []
    prefs = players[seat]["prefs"]
    topics = (
        ["layoff", "place"]
        if (game.get("options") or {}).get("edition") == "classic"
        else ["place"]
    )
    return [
        {
            "topic": topic,
            "legend": _CHOICES[topic][0],
            "options": [
                {
                    "command": f"prefer {topic} {value}",
                    "label": label,
                    "chosen": prefs[topic] == value,
                }
                for value, label in _CHOICES[topic][1].items()
            ],
        }
        for topic in topics
        if topic in prefs
    ]


def lords_board(
    view: dict[str, Any], changed: Iterable[str] = (), viewer: int | None = None
) -> dict[str, Any]:
    """The 48 lots at their grid positions (the board data), each with what is on it (the
    card of this turn and the lots ``changed`` since the viewer's last move marked), the
    casinos numbered, the score track, the box (tiles left, cards drawn and left), the
    viewer's own pieces, and the engine's plain list for screen readers."""
    colours = {p["seat"]: p["colour"] for p in view["players"]}
    casino_of = {lot: i for i, c in enumerate(view["casinos"], 1) for lot in c["lots"]}
    lots = [_lot(name, view, colours, casino_of.get(name), len(view["players"])) for name in LOTS]
    changed = set(changed)
    mine = next((p for p in view["players"] if p["seat"] == viewer), None)
    for cell in lots:
        cell["card"] = cell["name"] == view.get("card")
        cell["changed"] = cell["name"] in changed
    casinos = [
        {
            "number": i,
            "company": c["company"],
            "colour": view["company_colours"][c["company"]],
            "lots": c["lots"],
            "height": c["height"],
            "points": c["points"],
            "boss": None if c["boss"] is None else colours[c["boss"]],
            "boss_name": "" if c["boss"] is None else _colour(colours[c["boss"]]),
            "strip": c["strip"],
        }
        for i, c in enumerate(view["casinos"], 1)
    ]
    return {
        "lots": lots,
        "casinos": casinos,
        "company_colours": view["company_colours"],
        "deck_left": view["deck_left"],
        "discards": {k: len(v) for k, v in view["discards"].items()},
        "pending": view["pending"],
        "described": [line.removeprefix("- ") for line in describe_view(view).splitlines()],
        "track": _track(view),
        "companies": [
            {
                "name": name,
                "colour": view["company_colours"][name],
                "tiles_left": left,
                "drawn": len(view["discards"].get(name, [])),
            }
            for name, left in view["tiles_left"].items()
        ],
        "strip_drawn": len(view["discards"].get("strip", [])),
        "card": view.get("card"),
        "changed": sorted(changed),
        "mine": mine,
        "mine_money": None if mine is None else millions(mine["money"]),
        "turn_name": _colour(colours.get(view["turn"], "")),
        "acts": view.get("acts", 0),
        "raise": view.get("edition") == "2024",  # (the classic edition has no risers)
        "decision": str(describe_decision(view, viewer) or ""),
        "turn": colours.get(view["turn"]),
        "over": view["over"],
    }


def _track(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The score track's spaces 0-90 (the gaps widen: 8, 10, 12... 81, 90), each with the
    markers on it: their colours, and the colours' names in the reader's language."""
    on: dict[int, list[dict[str, str]]] = {}
    for p in view["players"]:
        on.setdefault(p["score"], []).append({"colour": p["colour"], "name": _colour(p["colour"])})
    track = view["track"]
    return [
        {
            "space": space,
            "gap": space - track[i - 1] if i else 0,
            "break": i > 1 and space - track[i - 1] != track[i - 1] - track[i - 2],
            "markers": on.get(space, []),
        }
        for i, space in enumerate(track)
    ]


def _lot(
    name: str,
    view: dict[str, Any],
    colours: dict[int, str],
    casino: int | None,
    players: int,
) -> dict[str, Any]:
    lot = LOTS[name]
    cell: dict[str, Any] = {
        "name": name,
        "row": lot.grid_row + 1,
        "col": lot.grid_col + 1,
        "price": millions(lot.price),
        "die": lot.die,
        "face": DIE_FACES[lot.die],
        "strip": lot.strip,
        "casino": casino,
        "kind": "empty",
    }
    tile = view["tiles"].get(name)
    if tile is not None:
        owner = None if tile["owner"] is None else colours[tile["owner"]]
        cell.update(
            kind="tile",
            company=tile["company"],
            tile_colour=view["company_colours"][tile["company"]],
            height=tile["height"],
            owner=owner,
            pip=tile["pip"],
            pip_face=DIE_FACES.get(tile["pip"], ""),
        )
    elif name in view["markers"]:
        cell.update(kind="marker", owner=colours[view["markers"][name]])
    elif not in_play(name, players):
        cell.update(kind="out")
    cell["label"] = str(describe_lot(view, name))  # the engine's words, the reader's language
    return cell


def _colour(colour: str) -> str:
    """A Lords of Vegas colour's name in the reader's language."""
    return str(get_engine("lords-of-vegas").colour_name(colour)) if colour else ""


# -- Vegas ---------------------------------------------------------------------------------


def vegas_board(view: dict[str, Any], seat_rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The six casinos: their notes (highest first, the order they pay in) and the dice on
    them by colour; the current roll; a plain list for screen readers."""
    colours = {s["seat"]: s["colour"] for s in view["seats"]}
    casinos = []
    for c in view["casinos"]:
        dice = [_dice(colours[seat], count) for seat, count in enumerate(c["dice"]) if count]
        if c["white"]:
            dice.append(_dice("white", c["white"]))
        casinos.append(
            {
                "number": c["number"],
                "face": DIE_FACES[c["number"]],
                "notes": [money(n) for n in sorted(c["notes"], reverse=True)],
                "dice": dice,
            }
        )
    roll = view.get("roll")
    shown_roll = None
    if roll is not None:
        name = get_engine("vegas").colour_name(colours[roll["seat"]])
        shown_roll = {
            "colour": colours[roll["seat"]],
            "colour_name": str(name),
            "said": str(rolled(name, roll)),  # "Red rolled 2 2 4 + white 2 5.", translated
            "own": roll["own"],
            "white": roll["white"],
            "choices": view["choices"],
        }
    board = {
        "round": view["round"],
        "rounds": view["rounds"],
        "start": colours.get(view["start_player"]),
        "start_name": str(get_engine("vegas").colour_name(colours.get(view["start_player"], ""))),
        "casinos": casinos,
        "roll": shown_roll,
        "pile": view["pile"],
        "finished": view["finished"],
    }
    board["described"] = _vegas_lines(board, seat_rows)
    return board


def _dice(colour: str, count: int) -> dict[str, Any]:
    """Dice of one colour on a casino, said plainly: "3 red dice"."""
    name = str(get_engine("vegas").colour_name(colour)).lower()
    said = ngettext("%(count)s %(colour)s die", "%(count)s %(colour)s dice", count) % {
        "count": count,
        "colour": name,
    }
    return {"colour": colour, "count": count, "said": said}


def _vegas_lines(board: dict[str, Any], seat_rows: list[dict[str, Any]]) -> list[str]:
    """The Vegas board for a screen reader, in the reader's language (whole sentences)."""
    vegas = get_engine("vegas")

    def colour(name: str) -> str:
        return str(vegas.colour_name(name))

    lines = [_("Round %(round)s of %(rounds)s.") % board]
    for c in board["casinos"]:
        notes = ", ".join(c["notes"]) or _("no notes")
        dice = ", ".join(
            ngettext("%(count)s %(colour)s die", "%(count)s %(colour)s dice", d["count"])
            % {"count": d["count"], "colour": colour(d["colour"])}
            for d in c["dice"]
        ) or _("no dice")
        lines.append(
            _("Casino %(number)s: notes %(notes)s; dice %(dice)s.")
            % {"number": c["number"], "notes": notes, "dice": dice}
        )
    roll = board["roll"]
    if roll is not None:
        values = {
            "player": colour(roll["colour"]),
            "own": " ".join(map(str, roll["own"])),
            "white": " ".join(map(str, roll["white"])),
        }
        if roll["white"]:
            lines.append(_("%(player)s rolled %(own)s and white %(white)s.") % values)
        else:
            lines.append(_("%(player)s rolled %(own)s.") % values)
    for row in seat_rows:
        lines.append(
            _("%(colour)s (%(name)s): %(detail)s, %(money)s.")
            % {
                "colour": colour(row["colour"]),
                "name": row["name"],
                "detail": row["detail"],
                "money": row["money"],
            }
        )
    lines.append(
        ngettext(
            "The pile holds %(n)s note face down.",
            "The pile holds %(n)s notes face down.",
            board["pile"],
        )
        % {"n": board["pile"]}
    )
    return lines


# -- the lobby -----------------------------------------------------------------------------


def game_row(game: Any) -> dict[str, Any]:
    """One game of a lobby list (a ``Game`` with its seats prefetched): no engine work."""
    seats = sorted(game.seats.all(), key=lambda s: s.order)
    return {
        "id": game.pk,
        "title": f"{game_name(game.game_type)} #{game.pk}",
        "edition": edition(game.game_type, game.options),
        "private": game.private,
        "status": game.status,
        "deadline": game.deadline,
        "seats": [{"name": s.name, "colour": s.colour, "to_act": s.to_act} for s in seats],
        "waiting_on": ", ".join(s.name for s in seats if s.to_act),
        "taken": len(seats),
        "max_seats": game.max_seats,
    }
