"""What the player wrote in a reply, without what they quoted: the text of an incoming
message (plain text, else its HTML as text), cut at the quoted original, the signature, or a
forwarded header block.

A small line-based function on purpose: a reply to a turn email is a few lines of commands
above a quote. ``docs/decisions/0005-email-door.md`` says why no library does this here.
"""

from __future__ import annotations

import re
from email.message import EmailMessage, Message
from html.parser import HTMLParser

# "On Tue, 24 Nov 2026 at 18:00, Lords <play+...> wrote:" (and clients that wrap it over two
# or three lines), "Le mar. 24 nov. 2026 à 18:00, Lords <...> a écrit :",
# "Il giorno mar 24 nov 2026 alle ore 18:00 Lords <...> ha scritto:".
_ATTRIBUTION = re.compile(
    r"^\s*(?:on\s.*\swrote|le\s.*\sa\s+[ée]crit|il\s.*\sha\s+scritto)\s*:\s*$",
    re.IGNORECASE | re.DOTALL,
)
_ATTRIBUTION_START = re.compile(r"^\s*(?:on|le|il)\s", re.IGNORECASE)
# Outlook and friends: "-----Original Message-----", "----- Message d'origine -----",
# "-----Messaggio originale-----", "---------- Forwarded message ---------".
_ORIGINAL = re.compile(
    r"^\s*-{3,}\s*(?:original message|message d'origine|messaggio originale|"
    r"forwarded message|message transf[ée]r[ée])\s*-{3,}\s*$",
    re.IGNORECASE,
)
# An Outlook header block: "From: ..." followed by "Sent:", "To:", "Subject:"... (en, fr, it).
_FROM = re.compile(r"^\s*\*?(?:from|de|da)\s*:\*?\s", re.IGNORECASE)
_HEADER = re.compile(
    r"^\s*\*?(?:sent|date|to|cc|subject|envoy[ée]|[àa]|objet|inviato|data|a|oggetto)\s*:",
    re.IGNORECASE,
)
# Outlook's rule above the quoted original: a line of underscores.
_RULE = re.compile(r"^\s*_{10,}\s*$")
# RFC 3676's signature separator "-- " (many clients drop the trailing space).
_SIGNATURE = re.compile(r"^--\s*$")
_SENT_FROM = re.compile(r"^\s*(?:sent from my|envoy[ée] de mon|inviato da)\s", re.IGNORECASE)
_SEPARATORS = re.compile(r"[;\r\n]+")
_ATTRIBUTION_LINES = 3  # how many lines an attribution may be wrapped over


def _is_attribution(lines: list[str], index: int) -> bool:
    if not _ATTRIBUTION_START.match(lines[index]):
        return False
    for end in range(index + 1, min(index + _ATTRIBUTION_LINES, len(lines)) + 1):
        if _ATTRIBUTION.match(" ".join(lines[index:end])):
            return True
    return False


def _is_header_block(lines: list[str], index: int) -> bool:
    if not _FROM.match(lines[index]):
        return False
    following = [line for line in lines[index + 1 : index + 6] if line.strip()]
    return any(_HEADER.match(line) for line in following[:4])


def _ends_reply(lines: list[str], index: int) -> bool:
    """The reply ends here: the rest is a quote, a signature or a forwarded original."""
    line = lines[index]
    return bool(
        _SIGNATURE.match(line)
        or _ORIGINAL.match(line)
        or _RULE.match(line)
        or _SENT_FROM.match(line)
        or _is_attribution(lines, index)
        or _is_header_block(lines, index)
    )


def own_lines(text: str) -> list[str]:
    """The lines the sender wrote above the quote, stripped, in order, blank ones kept as
    "" (where the commands end is read from them: ``notifications.inbound``): lines quoted
    with ">" are dropped wherever they are; the attribution line ("On ... wrote:", "Le ...
    a écrit :", "Il ... ha scritto:"), an Outlook original-message separator, rule or
    header block, "Sent from my ..." and the "-- " signature separator end the reply."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    for index, line in enumerate(lines):
        if _ends_reply(lines, index):
            break
        stripped = line.strip()
        if not stripped.startswith(">"):
            kept.append(stripped)
    return kept


def reply_lines(text: str) -> list[str]:
    """The non-empty lines the sender wrote above the quote (:func:`own_lines` without
    the blank ones)."""
    return [line for line in own_lines(text) if line]


def commands_of(text: str) -> list[str]:
    """The commands of a reply body: its own lines, split at ``;``, blanks dropped."""
    return [
        part.strip()
        for line in reply_lines(text)
        for part in _SEPARATORS.split(line)
        if part.strip()
    ]


# -- the text of a message ---------------------------------------------------------------------

_BLOCKS = frozenset(
    {"address", "article", "br", "dd", "div", "dl", "dt", "footer", "h1", "h2", "h3", "h4"}
    | {"h5", "h6", "header", "hr", "li", "ol", "p", "pre", "section", "table", "tr", "ul"}
)
_SKIPPED = frozenset(["blockquote", "head", "script", "style", "title"])


class _TextOfHtml(HTMLParser):
    """Text of an HTML body: a block element's start and end end the line (once: adjacent
    blocks are adjacent lines, ``<div>build C3 albion</div><div>end</div>``), a ``<br>``
    always (``<div><br></div>`` is a blank line); quoted (``blockquote``), style and script
    contents are dropped."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def _end_line(self, tag: str) -> None:
        if tag == "br" or not self._at_line_start():
            self.parts.append("\n")

    def _at_line_start(self) -> bool:
        for part in reversed(self.parts):
            if part.strip(" \t"):
                return part.rstrip(" \t").endswith("\n")
        return True

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED:
            self.skipping += 1
        elif tag in _BLOCKS:
            self._end_line(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCKS:
            self._end_line(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED:
            self.skipping = max(0, self.skipping - 1)
        elif tag in _BLOCKS and tag != "br":  # (``</br>``: a mistake, no second break)
            self._end_line(tag)

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(" ".join(data.split()) if "\n" in data else data)

    def parse_marked_section(self, i: int, report: bool = True) -> int:
        """A ``<![...]>`` section, or, when it is not one (``<![ 12 ]>``, ``<![foo[``),
        nothing up to its ``>``: before Python 3.13 the parser raises AssertionError there,
        and a mail client shows the rest of the message all the same."""
        try:
            return super().parse_marked_section(i, report)
        except AssertionError:
            end = self.rawdata.find(">", i)
            return -1 if end < 0 else end + 1  # (-1: unfinished, read as text at the end)


def html_to_text(html: str) -> str:
    parser = _TextOfHtml()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)


def _decoded(part: Message) -> str:
    """A text part's content in its declared charset (an unknown charset, or one whose
    codec cannot decode, like ``idna`` or ``undefined``: UTF-8, with replacement
    characters rather than an error)."""
    try:
        content = part.get_content() if isinstance(part, EmailMessage) else None
    except (LookupError, UnicodeError):
        content = None
    if isinstance(content, str):
        return content
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    charset = part.get_content_charset() or "utf-8"
    try:
        return payload.decode(charset, errors="replace")
    except (LookupError, UnicodeError):
        return payload.decode("utf-8", errors="replace")


_SIGNATURE_SEPARATOR = "-- "


def unflowed(text: str, *, delsp: bool) -> str:
    """RFC 3676's format=flowed text as its writer typed it (Thunderbird and Apple Mail
    wrap at 72 characters): a line ending in a space goes on in the next line of the same
    quote depth, without that space when ``delsp`` (``DelSp=yes``: the client added it);
    the space a client stuffs before a line's start is removed; "-- " is not flowed. The
    quoted lines keep their ">"s, one space after them."""
    lines: list[str] = []
    flowing, depth_before = False, -1
    for line in text.replace("\r\n", "\n").split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:].removeprefix(" ")
        flowed = content.endswith(" ") and content != _SIGNATURE_SEPARATOR
        if flowed and delsp:
            content = content[:-1]
        if flowing and depth == depth_before:
            lines[-1] += content
        else:
            lines.append(">" * depth + " " + content if depth else content)
        flowing, depth_before = flowed, depth
    return "\n".join(lines)


def _param(part: Message, name: str) -> str:
    """A Content-Type parameter of the part, lower-cased ("" without it)."""
    value = part.get_param(name)
    return value.lower() if isinstance(value, str) else ""


def _plain_text(part: Message) -> str:
    """A text/plain part's text, its flowed lines unwrapped (``format=flowed``)."""
    text = _decoded(part)
    if _param(part, "format") != "flowed":
        return text
    return unflowed(text, delsp=_param(part, "delsp") == "yes")


# What no reply's text holds and no database column takes: the C0 controls but tab and the
# line ends (NUL above all: PostgreSQL refuses it in text and jsonb), DEL, lone surrogates
# (undecodable bytes the email package keeps as surrogate escapes); and the invisible
# characters an editor leaves: a byte-order mark (U+FEFF) at the start of a body, the
# zero-width space, non-joiner and joiner (U+200B-U+200D) after a pasted command.
_UNPRINTABLE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufeff\u200b-\u200d]")


def printable(text: str) -> str:
    """``text`` without the characters a person cannot have typed on purpose (a mail
    client shows nothing for them), so a reply is read as its writer saw it."""
    return _UNPRINTABLE.sub("", text)


def body_text(message: EmailMessage) -> str:
    """The message's text/plain body (its flowed lines unwrapped), else (none, or only
    blanks) its text/html body as text; "" without either. A webhook's message carries an
    empty text part when the reply had none, a mail server's does not: both read the HTML
    then, so one reply gets one verdict whichever door it came by."""
    plain = message.get_body(preferencelist=("plain",))
    text = printable(_plain_text(plain)) if plain is not None else ""
    if text.strip():
        return text
    html = message.get_body(preferencelist=("html",))
    if html is not None:
        return printable(html_to_text(_decoded(html)))
    return text
