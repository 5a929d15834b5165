"""The text notation: ``parse`` one command, ``format`` its canonical form.

Case-insensitive, accents optional. English verbs are canonical; the French and Italian verbs
of the classic rule books are accepted too (``construire A2 or``, ``costruisci A2 oro``).
The full grammar is in ``docs/notation.md``.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable

from games.engines.base import MalformedCommand, Mistyped
from games.engines.text import Text, _

from .board import ALL_COLOURS, COMPANY_ALIASES, EDITIONS, LOTS
from .commands import (
    PREFERENCES,
    Action,
    Build,
    Command,
    Do,
    End,
    Gamble,
    GiveDie,
    GiveLot,
    LayOff,
    Move,
    Pay,
    Place,
    Prefer,
    Raise,
    Remodel,
    Reorganize,
    Sprawl,
    Step,
    Trade,
)

VERBS: dict[str, tuple[str, ...]] = {
    "build": ("build", "construire", "construis", "construction", "costruisci", "costruire"),
    "sprawl": ("sprawl", "etendre", "etends", "extension", "espandi", "espandere"),
    "remodel": ("remodel", "reamenager", "reamenage", "reamenagement", "rimodella", "rimodellare"),
    "reorganize": (
        "reorganize",
        "reorganise",
        "reorg",
        "reorganiser",
        "reorganisation",
        "riorganizza",
        "riorganizzare",
    ),
    "raise": ("raise", "elever", "surelever", "rehausser", "alza", "alzare", "sopraeleva"),
    "gamble": ("gamble", "bet", "parier", "parie", "pari", "scommetti", "scommettere"),
    "end": ("end", "done", "pass", "fin", "finir", "terminer", "passe", "fine", "passo"),
    "move": ("move", "deplacer", "deplace", "sposta", "spostare"),
    "place": ("place", "placer", "piazza", "piazzare"),
    # (the Italian book's lay-off: "dividere il rischio con la banca")
    "layoff": ("layoff", "lay-off", "abandonner", "dividi", "dividere"),
    "prefer": ("prefer", "preferer", "preferisci"),
    "trade": ("trade", "echanger", "echange", "scambia", "scambiare", "scambio"),
}
VERB_OF: dict[str, str] = {word: verb for verb, words in VERBS.items() for word in words}
NEWEST, CLASSIC = EDITIONS
EDITION_ONLY: dict[str, str] = {"raise": NEWEST, "layoff": CLASSIC}
"""The verbs of one edition only: the classic book has no raise action, and only its bosses
lay off half a bet. (The editions come from the board, not as quoted words: this module's
quoted words are the notation, which tests/test_no_english_left.py lets through.)"""


_VERB_LISTS: dict[str | None, Text] = {
    NEWEST: _("build, sprawl, remodel, reorganize, raise, gamble, end, move, place, prefer, trade"),
    CLASSIC: _(
        "build, sprawl, remodel, reorganize, gamble, end, move, place, prefer, trade, layoff"
    ),
    None: _(
        "build, sprawl, remodel, reorganize, raise, gamble, end, move, place, prefer, trade, layoff"
    ),
}
"""The verbs an unknown command's refusal lists: the edition's only when the game is
known (else every edition's), each in the reader's words where the books have them
(``construire, étendre...``, ``costruisci, espandi...``: the translations must name words
:data:`VERBS` accepts, in this order; tests/test_translations.py holds them to
it)."""


def known_verbs(edition: str | None = None) -> Text:
    """The verbs an unknown command's refusal lists (see :data:`_VERB_LISTS`)."""
    return _VERB_LISTS[edition if edition in _VERB_LISTS else None]


def closest_verb(word: str, edition: str | None = None) -> str | None:
    """The verb a mistyped one is closest to ("construir" -> "construire"), among the
    words the parser takes for the edition's verbs (None when none is close): a refusal
    that only listed the verbs left the player to spot their typo."""
    other = {verb for verb, only in EDITION_ONLY.items() if edition and only != edition}
    words = [w for verb, forms in VERBS.items() if verb not in other for w in forms]
    found = difflib.get_close_matches(word, words, n=1, cutoff=0.75)
    return found[0] if found else None


TRADE_FORM = (
    "trade <colour> pays <colour> <amount>, <colour> gives lot <lot> to <colour>, "
    "<colour> gives die <lot> to <colour>, do <action>"
)
"""How a trade reads (its steps in any number and order, at least one): the refusals of a
malformed trade quote it (notation: never translated)."""

FROM_WORDS = frozenset({"from", "de", "depuis", "da", "dal"})
MOVING_WORDS = frozenset({"moving", "deplacant", "spostando"})
DIE_WORDS = frozenset({"die", "de", "dado", "dice"})
LOT_WORDS = frozenset({"lot", "marker", "car", "marqueur", "lotto", "segnalino"})
YES = frozenset({"yes", "y", "oui", "si", "true"})
NO = frozenset({"no", "n", "non", "false"})
END_TAILS = frozenset({"turn", "du tour", "tour", "turno", "del turno", "my turn"})

COMPANY_WORDS: dict[str, str] = {
    **COMPANY_ALIASES,
    "or": "sphinx",
    "oro": "sphinx",
    "violet": "albion",
    "viola": "albion",
    "vert": "vega",
    "verde": "vega",
    "acqua": "vega",
    "turquoise": "vega",
    "argent": "tivoli",
    "argento": "tivoli",
    "marron": "pioneer",
    "marrone": "pioneer",
    "brun": "pioneer",
    # The classic French book's own colour words ("bleu, marron, jaune, violet et gris"):
    "gris": "tivoli",
    "bleu": "vega",
    "jaune": "sphinx",
    "grigio": "tivoli",
}


COLOUR_WORDS: dict[str, str] = {
    **{colour: colour for colour in ALL_COLOURS},
    "noir": "black",
    "nero": "black",
    "bleu": "blue",
    "blu": "blue",
    "vert": "green",
    "verde": "green",
    "violet": "purple",
    "viola": "purple",
    "rouge": "red",
    "rosso": "red",
    "jaune": "yellow",
    "giallo": "yellow",
}
"""The players' colours in a trade, in the three languages (the French and Italian pages
and emails name the players by these words: "Vert (Dee)")."""

PAY_WORDS = frozenset({"pays", "pay", "paie", "paye", "paga"})
GIVE_WORDS = frozenset({"gives", "give", "donne", "da"})
TO_WORDS = frozenset({"to", "a", "vers"})


def _plain(text: str) -> str:
    """Lower case, accents and extra spaces removed: how the parser compares words."""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.lower().replace("\u2019", "'").split())


def parse(text: str, *, edition: str | None = None) -> Command:
    """One command from its text; raises :class:`MalformedCommand` naming the input.
    ``edition``: the game's, so that an unknown verb's refusal lists only its verbs (the
    other edition's verbs still parse: the rules refuse them with the reason)."""
    if not isinstance(text, str):
        raise MalformedCommand(_("%(input)s is not text", input=repr(text)))
    plain = _plain(text)
    if plain.startswith("lay off"):
        plain = "layoff" + plain[len("lay off") :]
    if plain.startswith(("s'etendre ", "s'etend ")):
        plain = "etendre" + plain[plain.find(" ") :]
    words = plain.split(" ") if plain else []
    if not words:
        raise MalformedCommand(_("an empty line is not a command (try 'end' to end your turn)"))
    verb = VERB_OF.get(words[0])
    guess = None if verb is not None else closest_verb(words[0], edition)
    if guess is not None:
        raise Mistyped(
            _(
                "%(input)s: unknown command %(word)s; did you mean %(guess)s? "
                "(commands: %(commands)s)",
                input=repr(text),
                word=repr(words[0]),
                guess=repr(guess),
                commands=known_verbs(edition),
            )
        )
    if verb is None:
        raise MalformedCommand(
            _(
                "%(input)s: unknown command %(word)s (commands: %(commands)s)",
                input=repr(text),
                word=repr(words[0]),
                commands=known_verbs(edition),
            )
        )
    try:
        return _PARSERS[verb](words[1:], plain)
    except MalformedCommand as error:
        raise MalformedCommand(naming(repr(text), error.text)) from None


def starts_like_trade(text: str) -> bool:
    """Whether a line begins with a trade verb (``trade``, ``échanger``, ``scambia``...):
    a trade form answers any other line with the trade syntax, not every verb."""
    words = _plain(text).split(" ", 1) if isinstance(text, str) else [""]
    return VERB_OF.get(words[0]) == "trade"


def naming(command: str, reason: Text | str) -> Text:
    """A refusal that names what it refuses: "'build A2 gold': A2 is not your parking lot"."""
    return _("%(command)s: %(reason)s", command=command, reason=reason)


def _lot(word: str) -> str:
    name = word.upper()
    if name not in LOTS:
        raise MalformedCommand(_("%(word)s is not a lot (A1 to F9)", word=repr(word)))
    return name


def _company(word: str) -> str:
    try:
        return COMPANY_WORDS[word]
    except KeyError:
        raise MalformedCommand(
            _(
                "%(word)s is not a company (sphinx|gold, albion|purple, vega|green|aqua, "
                "tivoli|silver, pioneer|brown)",
                word=repr(word),
            )
        ) from None


def _colour(word: str) -> str:
    colour = COLOUR_WORDS.get(word)
    if colour is None:
        raise MalformedCommand(
            _(
                "%(word)s is not a player colour (%(colours)s)",
                word=repr(word),
                colours=", ".join(ALL_COLOURS),
            )
        )
    return colour


def _amount(word: str) -> int:
    match = re.fullmatch(r"\$?(\d+)m?", word)
    if match is None or int(match.group(1)) < 1:
        raise MalformedCommand(_("%(word)s is not an amount in $m (e.g. 5)", word=repr(word)))
    return int(match.group(1))


def _expect(words: list[str], count: int, form: str) -> None:
    if len(words) != count:
        raise MalformedCommand(_expected(form))


def _expected(form: str) -> Text:
    """What the command should look like (the form is notation: it stays as written)."""
    return _("expected '%(form)s'", form=form)


def _moving(words: list[str], form: str) -> tuple[list[str], str | None]:
    """Split off an optional trailing 'moving <lot>'."""
    if len(words) >= 2 and words[-2] in MOVING_WORDS:
        return words[:-2], _lot(words[-1])
    if words and words[-1] in MOVING_WORDS:
        raise MalformedCommand(
            _("say which of your dice moves: '%(form)s moving <lot>'", form=form)
        )
    return words, None


def _build(words: list[str], _plain_text: str) -> Build:
    form = "build <lot> <company>"
    words, moving = _moving(words, form)
    _expect(words, 2, form)
    return Build(_lot(words[0]), _company(words[1]), moving)


def _sprawl(words: list[str], _plain_text: str) -> Sprawl:
    form = "sprawl <lot> from <lot of your casino>"
    words, moving = _moving(words, form)
    words = [w for w in words if w not in ("to", "into", "vers", "in", "en")]
    if len(words) == 3 and words[1] in FROM_WORDS:
        return Sprawl(_lot(words[0]), _lot(words[2]), moving)
    if len(words) == 3 and words[0] in FROM_WORDS:  # "sprawl from A2 to A5"
        return Sprawl(_lot(words[2]), _lot(words[1]), moving)
    raise MalformedCommand(_expected(form))


def _remodel(words: list[str], _plain_text: str) -> Remodel:
    words = [w for w in words if w not in ("to", "en", "in")]
    _expect(words, 2, "remodel <lot> <company>")
    return Remodel(_lot(words[0]), _company(words[1]))


def _reorganize(words: list[str], _plain_text: str) -> Reorganize:
    _expect(words, 1, "reorganize <lot>")
    return Reorganize(_lot(words[0]))


def _raise(words: list[str], _plain_text: str) -> Raise:
    _expect(words, 1, "raise <lot>")
    return Raise(_lot(words[0]))


def _gamble(words: list[str], _plain_text: str) -> Gamble:
    words = [w for w in words if w not in ("at", "a", "on", "sur")]
    _expect(words, 2, "gamble <lot> <amount>")
    return Gamble(_lot(words[0]), _amount(words[1]))


def _end(words: list[str], _plain_text: str) -> End:
    if words and " ".join(words) not in END_TAILS:
        raise MalformedCommand(_("'end' takes nothing after it"))
    return End()


def _move(words: list[str], _plain_text: str) -> Move:
    words = [w for w in words if w not in ("from", "depuis", "da", "dal")]
    if len(words) == 3 and words[1] == "de":  # "deplacer de de C3"
        words = [words[0], words[2]]
    _expect(words, 2, "move die <lot> | move lot <lot>")
    if words[0] in DIE_WORDS:
        return Move("die", _lot(words[1]))
    if words[0] in LOT_WORDS:
        return Move("lot", _lot(words[1]))
    raise MalformedCommand(_("expected 'move die <lot>' or 'move lot <lot>'"))


def _place(words: list[str], plain: str) -> Place:
    parts = plain.split(" ", 1)[1].replace("=", " ").replace(",", " ").split() if words else []
    if not parts or len(parts) % 2:
        raise MalformedCommand(_("expected 'place <lot>=<value> <lot>=<value> ...'"))
    values = []
    for lot, value in zip(parts[::2], parts[1::2], strict=True):
        if value not in ("1", "2", "3", "4", "5", "6"):
            raise MalformedCommand(_("%(word)s is not a die value (1 to 6)", word=repr(value)))
        values.append((_lot(lot), int(value)))
    return Place(tuple(values))


def _layoff(words: list[str], _plain_text: str) -> LayOff:
    if len(words) == 1 and words[0] in YES:
        return LayOff(True)
    if len(words) == 1 and words[0] in NO:
        return LayOff(False)
    raise MalformedCommand(_("expected 'layoff yes' or 'layoff no'"))


PREFERENCE_WORDS: dict[str, str] = {
    **{word: "place" for word in ("placer", "piazza", "piazzare")},
    **{word: "layoff" for word in ("abandonner", "abandon", "dividere", "dividi")},
    "demander": "ask",
    "chiedi": "ask",
    "chiedere": "ask",
    "jamais": "never",
    "mai": "never",
    "toujours": "always",
    "sempre": "always",
}
"""A standing preference's topics and values in the French and Italian the pages use
("préférer abandonner demander": prefer layoff ask)."""


def _prefer(words: list[str], _plain_text: str) -> Prefer:
    if words and words[0] == "lay":
        words = ["layoff", *words[2:]] if words[1:2] == ["off"] else words
    words = [PREFERENCE_WORDS.get(word, word) for word in words]
    if len(words) == 2 and words[0] in PREFERENCES and words[1] in PREFERENCES[words[0]]:
        return Prefer(words[0], words[1])
    raise MalformedCommand(
        _("expected 'prefer place auto|ask' or 'prefer layoff never|always|ask'")
    )


def _trade(words: list[str], plain: str) -> Trade:
    body = plain.split(" ", 1)[1] if words else ""
    steps = [part.strip() for part in body.split(",") if part.strip()]
    if not steps:
        raise MalformedCommand(
            _("a trade needs at least one step: a trade reads '%(form)s'", form=TRADE_FORM)
        )
    return Trade(tuple(_step(step) for step in steps))


def _step(text: str) -> Step:
    words = text.split()
    if words[0] == "do" or VERB_OF.get(words[0]) in _ACTION_VERBS:
        action = parse(" ".join(words[1:] if words[0] == "do" else words))
        if not isinstance(action, Build | Sprawl | Remodel | Reorganize | Raise | Gamble):
            raise MalformedCommand(_("%(step)s: only actions can be trade steps", step=f"'{text}'"))
        return Do(action)
    words, moving = _moving(words, text)
    if len(words) == 4 and words[1] in PAY_WORDS:
        return Pay(_colour(words[0]), _colour(words[2]), _amount(words[3]))
    gives = len(words) > 3 and words[1] in GIVE_WORDS
    if gives and len(words) == 5 and words[3] in TO_WORDS and _is_amount(words[2]):
        return Pay(_colour(words[0]), _colour(words[4]), _amount(words[2]))
    if gives and len(words) == 6 and words[4] in TO_WORDS:
        giver, receiver, lot = _colour(words[0]), _colour(words[5]), _lot(words[3])
        if words[2] in LOT_WORDS:
            return GiveLot(giver, receiver, lot, moving)
        if words[2] in DIE_WORDS:
            return GiveDie(giver, receiver, lot, moving)
    raise MalformedCommand(
        _(
            "%(step)s is not a trade step: a trade reads '%(form)s' "
            "(add 'moving <lot>' to a gift when the receiver has no piece left)",
            step=f"'{text}'",
            form=TRADE_FORM,
        )
    )


def _is_amount(word: str) -> bool:
    return re.fullmatch(r"\$?\d+m?", word) is not None


_ACTION_VERBS = frozenset({"build", "sprawl", "remodel", "reorganize", "raise", "gamble"})

_PARSERS: dict[str, Callable[[list[str], str], Command]] = {
    "build": _build,
    "sprawl": _sprawl,
    "remodel": _remodel,
    "reorganize": _reorganize,
    "raise": _raise,
    "gamble": _gamble,
    "end": _end,
    "move": _move,
    "place": _place,
    "layoff": _layoff,
    "prefer": _prefer,
    "trade": _trade,
}


# -- format -----------------------------------------------------------------------------------


def _suffix(moving: str | None) -> str:
    return f" moving {moving}" if moving else ""


def format_action(cmd: Action) -> str:
    if isinstance(cmd, Build):
        return f"build {cmd.lot} {cmd.company}{_suffix(cmd.moving)}"
    if isinstance(cmd, Sprawl):
        return f"sprawl {cmd.lot} from {cmd.origin}{_suffix(cmd.moving)}"
    if isinstance(cmd, Remodel):
        return f"remodel {cmd.lot} {cmd.company}"
    if isinstance(cmd, Reorganize):
        return f"reorganize {cmd.lot}"
    if isinstance(cmd, Raise):
        return f"raise {cmd.lot}"
    return f"gamble {cmd.lot} {cmd.amount}"


def format_step(step: Step) -> str:
    if isinstance(step, Pay):
        return f"{step.payer} pays {step.payee} {step.amount}"
    if isinstance(step, GiveLot):
        return f"{step.giver} gives lot {step.lot} to {step.receiver}{_suffix(step.moving)}"
    if isinstance(step, GiveDie):
        return f"{step.giver} gives die {step.lot} to {step.receiver}{_suffix(step.moving)}"
    return f"do {format_action(step.action)}"


def format_command(cmd: Command) -> str:
    """The canonical text of a command: ``parse(format_command(c)) == c``."""
    if isinstance(cmd, End):
        return "end"
    if isinstance(cmd, Move):
        return f"move {cmd.piece} {cmd.lot}"
    if isinstance(cmd, Place):
        return "place " + " ".join(f"{lot}={value}" for lot, value in cmd.values)
    if isinstance(cmd, LayOff):
        return f"layoff {'yes' if cmd.lay_off else 'no'}"
    if isinstance(cmd, Prefer):
        return f"prefer {cmd.topic} {cmd.value}"
    if isinstance(cmd, Trade):
        return "trade " + ", ".join(format_step(step) for step in cmd.steps)
    return format_action(cmd)


LOCAL_WORDS: dict[str, dict[str, str]] = {
    "fr": {
        "build": "construire",
        "sprawl": "étendre",
        "remodel": "réaménager",
        "reorganize": "réorganiser",
        "raise": "surélever",
        "gamble": "parier",
        "end": "fin",
        "move": "déplacer",
        "place": "placer",
        "layoff": "abandonner",
        "prefer": "préférer",
        "trade": "échanger",
        "from": "de",
        "moving": "déplaçant",
        "yes": "oui",
        "no": "non",
        "die": "dé",
        "lot": "marqueur",
        "ask": "demander",
        "never": "jamais",
        "always": "toujours",
        "pays": "paie",
        "gives": "donne",
        "to": "à",
        "do": "",
        **{
            colour: word
            for word, colour in COLOUR_WORDS.items()
            if word in {"noir", "bleu", "vert", "violet", "rouge", "jaune"}
        },
    },
    "it": {
        "build": "costruisci",
        "sprawl": "espandi",
        "remodel": "rimodella",
        "reorganize": "riorganizza",
        "raise": "sopraeleva",
        "gamble": "scommetti",
        "end": "fine",
        "move": "sposta",
        "place": "piazza",
        "layoff": "dividi",
        "prefer": "preferisci",
        "trade": "scambia",
        "from": "da",
        "moving": "spostando",
        "yes": "sì",
        "no": "no",
        "die": "dado",
        "lot": "segnalino",
        "ask": "chiedi",
        "never": "mai",
        "always": "sempre",
        "pays": "paga",
        "gives": "dà",  # (the parser reads "da" too: accents are optional)
        "to": "a",
        "do": "",
        **{
            colour: word
            for word, colour in COLOUR_WORDS.items()
            if word in {"nero", "blu", "verde", "viola", "rosso", "giallo"}
        },
    },
}
"""The notation's words as a French or Italian player writes them: the verbs of the books
(the ones :func:`known_verbs` lists in those languages) and the few small words, each one
:func:`parse` accepts. The companies keep their names (the parser takes them in every
language, and the email's legend gives their colours)."""


def format_in(cmd: Command, language: str) -> str:
    """The text of a command as a player of ``language`` writes it ("construire D5 sphinx",
    "étendre B5 de B2", "fin"): the emails show a French or Italian player their commands
    in their words, not only the canonical English (found by play-testing). The canonical
    text for any other language; ``parse(format_in(c, language)) == c`` for every one."""
    words = LOCAL_WORDS.get(language.split("-")[0].lower())
    text = format_command(cmd)
    if words is None:
        return text
    return " ".join(local for word in text.split(" ") if (local := _local_word(word, words)))


def _local_word(word: str, words: dict[str, str]) -> str:
    """One word of a canonical text in the language's ``words``; a trade step's "," kept
    on the word it ends."""
    bare = word.rstrip(",")
    return words.get(bare, bare) + word[len(bare) :]
