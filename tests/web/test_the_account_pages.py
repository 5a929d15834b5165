"""allauth's pages (sign in, sign up, passwords, email addresses) in the site's look and
voice (docs/decisions/0027-the-account-pages.md): each field drawn as the site's forms draw
theirs (templates/_form_fields.html: a card, the label above the input, help in small muted
text, errors in ``role="alert"`` blocks), buttons as the site's, and in French and Italian
"tu", the site's words.

The tests of the French and Italian words read the catalogues of ``locale/`` with the
entries of ``accounts/their_words.py`` merged: before the merge they find allauth's "vous"."""

from __future__ import annotations

import ast
import re
import uuid
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import allauth
import django
import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.utils import translation

from accounts.models import User
from tests.test_translations import LOCALE, parse_po
from tests.web.helpers import page_text

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def client(client: Any) -> Any:
    """The test client from an address of its own: allauth's request limits (per address and
    minute) live in the shared cache, across tests and runs."""
    client.defaults["REMOTE_ADDR"] = f"2001:db8:{uuid.uuid4().hex[:4]}::{uuid.uuid4().hex[:4]}"
    return client


# -- the page as a tree ------------------------------------------------------------------------

_VOID = {"input", "br", "img", "hr", "meta", "link", "source", "wbr", "col", "area", "base"}


class Node:
    """An element of the page: its tag, attributes, children and parent."""

    def __init__(self, tag: str, attrs: dict[str, str | None], parent: Node | None) -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node | str] = []

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def walk(self) -> Iterator[Node]:
        for child in self.children:
            if isinstance(child, Node):
                yield child
                yield from child.walk()

    def all(self, tag: str, **attrs: str) -> list[Node]:
        return [
            n
            for n in self.walk()
            if n.tag == tag and all(n.attrs.get(k.rstrip("_")) == v for k, v in attrs.items())
        ]

    def one(self, tag: str, **attrs: str) -> Node:
        found = self.all(tag, **attrs)
        assert len(found) == 1, f"{len(found)} <{tag} {attrs}>"
        return found[0]

    def up(self, tag: str, cls: str | None = None) -> Node | None:
        """The nearest enclosing ``tag`` (with the class ``cls``)."""
        node = self.parent
        while node is not None and not (node.tag == tag and (cls is None or cls in node.classes)):
            node = node.parent
        return node

    def text(self) -> str:
        parts = [c if isinstance(c, str) else c.text() for c in self.children]
        return re.sub(r"\s+", " ", " ".join(parts)).strip()


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = self.here = Node("#root", {}, None)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, dict(attrs), self.here)
        self.here.children.append(node)
        if tag not in _VOID:
            self.here = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.here.children.append(Node(tag, dict(attrs), self.here))

    def handle_endtag(self, tag: str) -> None:
        node: Node | None = self.here
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.here = node.parent

    def handle_data(self, data: str) -> None:
        self.here.children.append(data)


def main_of(response: Any) -> Node:
    """The page's main area (the site's header and navigation left out)."""
    builder = _Builder()
    builder.feed(response.content.decode())
    return builder.root.one("main")


def assert_drawn_as_the_site_s(form: Node, name: str) -> Node:
    """The input ``name`` is in the form's card, in a ``.field`` with its label; the field
    (for the caller to look at its help and errors)."""
    assert {"stacked", "panel"} <= form.classes, form.attrs
    assert "novalidate" in form.attrs
    control = form.one("input", name=name)
    assert "placeholder" not in control.attrs, name  # the label says it
    field = control.up("div", "field")
    assert field is not None, f"{name} is in no .field"
    assert field.all("label", for_=control.attrs["id"] or ""), f"{name} has no label"
    return field


# -- the look ----------------------------------------------------------------------------------


def test_the_sign_up_page_draws_each_field_as_the_site_s_forms(client: Any) -> None:
    page = main_of(client.get("/accounts/signup/"))
    form = page.one("form", action="/accounts/signup/")
    for name in ("email", "display_name", "password1", "password2"):
        assert_drawn_as_the_site_s(form, name)
    rules = assert_drawn_as_the_site_s(form, "password1").one("small", id="id_password1_helptext")
    assert "muted" in rules.classes and "8 characters" in rules.text()
    name_help = assert_drawn_as_the_site_s(form, "display_name").one("small")
    assert "never your email address" in name_help.text()
    [submit] = form.all("button", type="submit")
    assert submit.classes == {"primary"} and submit.text() == "Sign Up"
    assert submit.up("div", "actions") is not None


def test_a_refused_sign_up_says_each_error_under_its_field(client: Any, ada: User) -> None:
    ada.display_name = "Ada"
    ada.save()
    answer = client.post(
        "/accounts/signup/",
        {"email": ada.email, "display_name": "Ada", "password1": "short", "password2": "short"},
    )
    assert answer.status_code == 200
    form = main_of(answer).one("form", action="/accounts/signup/")
    said = {}
    for name in ("display_name", "password1"):
        field = assert_drawn_as_the_site_s(form, name)
        assert "has-error" in field.classes
        said[name] = field.one("div", role="alert").text()
    # A taken address is not refused here: that would tell anyone it has an account (0034).
    assert "has-error" not in assert_drawn_as_the_site_s(form, "email").classes
    assert "Ada is taken" in said["display_name"]  # the display name's own check stays
    assert "too short" in said["password1"]
    assert User.objects.count() == 1


def test_the_sign_in_page_and_its_refusal(client: Any, ada: User) -> None:
    page = main_of(client.get("/accounts/login/"))
    form = page.one("form", action="/accounts/login/")
    assert_drawn_as_the_site_s(form, "login")
    password = assert_drawn_as_the_site_s(form, "password")
    forgot = password.one("small", id="id_password_helptext").one("a")
    assert forgot.attrs["href"] == "/accounts/password/reset/"
    remember = form.one("input", name="remember").up("div", "field")
    assert remember is not None  # box then label, on one line, with no colon after it
    assert remember.one("label", for_="id_remember").text() == "Remember Me"
    [submit] = form.all("button", type="submit")
    assert submit.classes == {"primary"}

    refused = main_of(client.post("/accounts/login/", {"login": ada.email, "password": "no"}))
    alert = refused.one("form", action="/accounts/login/").one("div", role="alert")
    assert "error" in alert.classes and "not correct" in alert.text()


def test_the_addresses_page_keeps_its_buttons_in_the_card(client: Any, ada: User) -> None:
    """On /accounts/email/ "Make Primary / Re-send Verification / Remove" ran into the
    "Add Email Address" heading: they are the card's row of buttons now."""
    EmailAddress.objects.create(user=ada, email="ada.two@example.org", verified=False)
    client.force_login(ada)
    page = main_of(client.get("/accounts/email/"))
    listed, added = page.all("form", action="/accounts/email/")
    assert "panel" in listed.classes and "panel" in added.classes
    for radio in listed.all("input", type="radio"):
        assert radio.up("label", "choice") is not None
    states = {
        label.text().split()[0]: [tag.text() for tag in label.walk() if "tag" in tag.classes]
        for label in listed.all("label")
    }
    assert states == {ada.email: ["Verified", "Primary"], "ada.two@example.org": ["Unverified"]}
    [row] = listed.all("div", **{"class": "actions"})
    assert [b.attrs["name"] for b in row.all("button")] == [
        "action_primary",
        "action_send",
        "action_remove",
    ]
    assert_drawn_as_the_site_s(added, "email")


def test_the_settings_page_leads_to_the_addresses_and_the_password(client: Any, ada: User) -> None:
    client.force_login(ada)
    links = main_of(client.get("/profile/")).all("a")
    hrefs = {a.attrs.get("href"): a.text() for a in links}
    assert hrefs["/accounts/email/"] == "Your email addresses"
    assert hrefs["/accounts/password/change/"] == "Change your password"


def test_too_many_requests_is_a_page_of_the_site(client: Any) -> None:
    """allauth's limits (here five password resets a minute for one address) answered a
    bare English page with no way back."""
    address = f"limit-{uuid.uuid4().hex[:8]}@example.org"
    answers = [client.post("/accounts/password/reset/", {"email": address}) for _ in range(6)]
    assert [a.status_code for a in answers[:5]] == [302] * 5
    last = answers[5]
    assert last.status_code == 429
    html = last.content.decode()
    assert '<header class="site">' in html and "Too many tries" in page_text(html)
    assert main_of(last).one("p", role="alert").text().endswith("then try again.")


# -- the words: allauth's and Django's msgids, and the voice -----------------------------------


def _their_msgids() -> list[tuple[str, str | None]]:
    """(msgid, msgid_plural) of each call in accounts/their_words.py, as makemessages reads
    them."""
    tree = ast.parse((ROOT / "accounts" / "their_words.py").read_text(encoding="utf-8"))
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            texts = [a.value for a in node.args if isinstance(a, ast.Constant)]
            assert all(isinstance(t, str) for t in texts), texts
            if node.func.id == "_":
                found.append((str(texts[0]), None))
            elif node.func.id == "ngettext_lazy":
                found.append((str(texts[0]), str(texts[1])))
    return found


def test_their_words_are_allauth_s_and_django_s_own_msgids() -> None:
    """A msgid that is not theirs exactly (a typo, an upgrade that reworded it) would leave
    their own translation, "vous" and all, on the page."""
    upstream: set[tuple[str, str | None]] = set()
    for catalogue in (
        Path(allauth.__file__).parent / "locale/fr/LC_MESSAGES/django.po",
        Path(django.__file__).parent / "conf/locale/fr/LC_MESSAGES/django.po",
        Path(django.__file__).parent / "contrib/auth/locale/fr/LC_MESSAGES/django.po",
    ):
        upstream |= {(e.msgid, e.msgid_plural) for e in parse_po(catalogue)}
    ours = _their_msgids()
    assert len(ours) > 90
    assert [m for m in ours if m not in upstream] == []


FORMAL = {
    "fr": re.compile(r"\b(vous|votre|vos|veuillez)\b|courriel", re.IGNORECASE),
    "it": re.compile(r"\b(Lei|Suo|Sua|Suoi|Sue|La preghiamo|si prega)\b"),
}


@pytest.mark.parametrize("language", ["fr", "it"])
def test_our_catalogue_says_each_of_their_words_with_tu(language: str) -> None:
    """Needs the catalogue merged: each msgid of accounts/their_words.py is translated in
    locale/, without the formal "you"."""
    entries = {e.msgid: e for e in parse_po(LOCALE / language / "LC_MESSAGES" / "django.po")}
    problems = []
    for msgid, _plural in _their_msgids():
        entry = entries.get(msgid)
        if entry is None or not all(entry.msgstr.values()):
            problems.append(f"not translated: {msgid!r}")
        elif any(FORMAL[language].search(text) for text in entry.msgstr.values()):
            problems.append(f"formal: {entry.msgstr}")
    assert problems == []


def _pages(client: Any, make_user: Callable[..., User]) -> Iterator[tuple[str, Any]]:
    """Every account page a player meets, signed out then signed in, with its refusals."""
    get, post = client.get, client.post
    yield "sign in", get("/accounts/login/")
    yield "sign in refused", post("/accounts/login/", {"login": "x@example.org", "password": "x"})
    yield "sign up", get("/accounts/signup/")
    yield (
        "sign up refused",
        post("/accounts/signup/", {"email": "nope", "password1": "123", "password2": "1234"}),
    )
    yield "password reset", get("/accounts/password/reset/")
    yield "reset sent", post("/accounts/password/reset/", {"email": "x@example.org"}, follow=True)
    yield "reset link spent", get("/accounts/password/reset/key/1-bad-key/")
    yield "inactive", get("/accounts/inactive/")
    newcomer = {"password1": "a-long-pass-9", "password2": "a-long-pass-9"}
    fresh = f"zed-{uuid.uuid4().hex[:12]}@example.org"
    signed_up = {**newcomer, "email": fresh, "display_name": f"Zed {uuid.uuid4().hex[:6]}"}
    yield "the code page", post("/accounts/signup/", signed_up, follow=True)
    yield "a wrong code", post("/accounts/confirm-email/", {"code": "AAAA-AAAA"})
    owner = make_user(f"zed-owner-{uuid.uuid4().hex[:12]}@example.org")
    taken = {**newcomer, "email": owner.email, "display_name": "Zed Other"}
    yield "a taken address", post("/accounts/signup/", taken, follow=True)
    player = make_user("zoe")
    EmailAddress.objects.create(user=player, email="zoe.two@example.org")
    client.force_login(player)
    yield "addresses", get("/accounts/email/")
    yield "address refused", post("/accounts/email/", {"action_add": "", "email": "bad"})
    yield (
        "primary refused",
        post("/accounts/email/", {"action_remove": "", "email": player.email}, follow=True),
    )
    yield "password change", get("/accounts/password/change/")
    yield (
        "password change refused",
        post(
            "/accounts/password/change/", {"oldpassword": "no", "password1": "1", "password2": "2"}
        ),
    )
    yield "signed in already", get("/accounts/password/reset/")
    yield "confirm it is you", get("/accounts/reauthenticate/")
    yield "sign out", get("/accounts/logout/")
    yield "signed out", post("/accounts/logout/", follow=True)


@pytest.mark.parametrize(
    ("language", "words"),
    [("fr", ["Adresse e-mail", "Mot de passe"]), ("it", ["Indirizzo email", "Password"])],
)
def test_the_account_pages_speak_tu(
    client: Any, make_user: Callable[..., User], language: str, words: list[str]
) -> None:
    """Needs the catalogue merged: no page says "vous" (allauth's French) or the Italian
    formal "Lei", and the fields are named with the site's words."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    mail.outbox.clear()
    seen = []
    for name, answer in _pages(client, make_user):
        assert answer.status_code == 200, name
        text = main_of(answer).text()
        seen.append(text)
        found = [m.group(0) for m in FORMAL[language].finditer(text)]
        assert not found, f"{language} {name}: {found} in {text[:300]}"
    assert all(any(w in text for text in seen) for w in words), words
    assert mail.outbox, "the reset of an unknown address sends an email"
    for message in mail.outbox:
        assert not FORMAL[language].search(f"{message.subject}\n{message.body}"), message.body
    with translation.override(language):
        assert translation.gettext("Sign In") != "Sign In"
