"""Every page answers with a strict Content-Security-Policy and a Permissions-Policy that
denies what the site does not use (docs/decisions/0010); in a real browser the pages run
under that policy without a single violation: the move form submits, the API docs render.

The policies are written out here, directive by directive, so a loosened policy (an
``'unsafe-inline'``, a third-party host) fails a test instead of slipping through."""

from __future__ import annotations

from typing import Any

import pytest

from leagues import services as leagues
from tests.web.helpers import actor
from tests.web.test_in_a_browser import SHOTS, _first_legal, _missing, _sign_in
from tests.web.test_in_a_browser import page as page  # the shared browser fixture

SITE_POLICY = {
    "default-src": {"'none'"},
    "script-src": {"'self'"},
    "style-src": {"'self'"},
    "img-src": {"'self'"},
    "connect-src": {"'self'"},
    "form-action": {"'self'"},
    "frame-ancestors": {"'none'"},
    "base-uri": {"'none'"},
    "object-src": {"'none'"},
}
# Swagger UI's stylesheet draws its icons as data: images; nothing else differs.
DOCS_POLICY = {**SITE_POLICY, "img-src": {"'self'", "data:"}}

DENIED_FEATURES = {
    "accelerometer",
    "autoplay",
    "browsing-topics",
    "camera",
    "display-capture",
    "encrypted-media",
    "fullscreen",
    "geolocation",
    "gyroscope",
    "hid",
    "idle-detection",
    "magnetometer",
    "microphone",
    "midi",
    "payment",
    "picture-in-picture",
    "publickey-credentials-get",
    "screen-wake-lock",
    "serial",
    "usb",
    "xr-spatial-tracking",
}


def csp_of(response: Any) -> dict[str, set[str]]:
    """The Content-Security-Policy header as directive -> sources (the order is free)."""
    header = response.headers.get("Content-Security-Policy")
    assert header, "no Content-Security-Policy header"
    directives = {}
    for part in header.split(";"):
        name, *sources = part.split()
        assert name not in directives, f"{name} twice in {header!r}"
        directives[name] = set(sources)
    return directives


def permissions_of(response: Any) -> dict[str, str]:
    """The Permissions-Policy header as feature -> allow list."""
    header = response.headers.get("Permissions-Policy")
    assert header, "no Permissions-Policy header"
    return dict(item.strip().split("=", 1) for item in header.split(","))


@pytest.fixture
def pages(ada: Any, bob: Any, make_game: Any) -> dict[str, tuple[str, Any]]:
    """Every kind of page: its address and who opens it (None: nobody signed in)."""
    lords = make_game(ada, bob, game_type="lords-of-vegas")
    vegas = make_game(ada, bob, game_type="vegas")
    league = leagues.create_league(creator=ada, name="Vegas Nights", game_type="vegas")
    ada.is_staff = ada.is_superuser = True
    ada.save()
    return {
        "home": ("/", None),
        "sign in": ("/accounts/login/", None),
        "sign up": ("/accounts/signup/", None),
        "admin login": ("/admin/login/", None),
        "unsubscribe (bad link)": ("/notifications/unsubscribe/not-a-token/", None),
        "API docs": ("/api/docs/", None),
        "lobby": ("/games/", ada),
        "Lords of Vegas board": (f"/games/{lords.pk}/", actor(lords)),
        "Vegas board": (f"/games/{vegas.pk}/", actor(vegas)),
        "settings": ("/profile/", ada),
        "leagues": ("/leagues/", ada),
        "a league": (f"/leagues/{league.slug}/", ada),
        "admin": ("/admin/", ada),
    }


KINDS = [
    "home",
    "sign in",
    "sign up",
    "admin login",
    "unsubscribe (bad link)",
    "API docs",
    "lobby",
    "Lords of Vegas board",
    "Vegas board",
    "settings",
    "leagues",
    "a league",
    "admin",
]


@pytest.mark.django_db
@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_page_answers_with_both_policies(
    client: Any, pages: dict[str, tuple[str, Any]], kind: str
) -> None:
    address, user = pages[kind]
    if user is not None:
        client.force_login(user)
    response = client.get(address)
    assert response.status_code in (200, 400), (kind, response.status_code)
    assert response["Content-Type"].startswith("text/html")
    assert csp_of(response) == (DOCS_POLICY if kind == "API docs" else SITE_POLICY)
    assert permissions_of(response) == dict.fromkeys(DENIED_FEATURES, "()")


@pytest.mark.django_db
def test_a_refused_post_carries_them_too(client: Any, ada: Any, bob: Any, make_game: Any) -> None:
    """An error page drawn by the form (a refused move) is a page like the others."""
    game = make_game(ada, bob, game_type="vegas")
    client.force_login(actor(game))
    response = client.post(f"/games/{game.pk}/", {"text": "no such command"})
    assert response.status_code in (200, 400, 409)
    assert csp_of(response) == SITE_POLICY
    assert "Permissions-Policy" in response


# The browser: every violation the page reports, through the DOM event and the console.
_LISTEN = """
document.addEventListener("securitypolicyviolation", (e) => {
  window.reportViolation(`${location.pathname}: ${e.violatedDirective} ${e.blockedURI}`);
});
"""


@pytest.mark.slow
@pytest.mark.skipif(bool(_missing), reason=f"NO BROWSER TESTS: {_missing}")
def test_the_board_and_the_api_docs_run_without_a_violation(
    transactional_db: Any,
    live_server: Any,
    page: Any,
    make_game: Any,
    make_user: Any,
) -> None:
    game = make_game(make_user("ada"), make_user("bob"), game_type="lords-of-vegas")
    player = actor(game)
    command = _first_legal(game, player)
    base = live_server.url
    violations: list[str] = []

    def report(violation: str) -> None:
        violations.append(violation)

    page.context.expose_function("reportViolation", report)
    page.context.add_init_script(_LISTEN)
    page.on(
        "console",
        lambda message: (
            violations.append(f"console: {message.text}")
            if "Content Security Policy" in message.text or "Permissions-Policy" in message.text
            else None
        ),
    )
    sent: list[dict[str, str]] = []

    _sign_in(page, base, player)
    sent.append(page.goto(f"{base}/games/{game.pk}/").all_headers())
    page.fill("#id_text", command)
    page.click("#move-form button.primary")
    page.wait_for_selector(".message.success")
    assert command in page.inner_text("#log")
    assert page.eval_on_selector("header.site", "e => getComputedStyle(e).display") == "flex"

    sent.append(page.goto(f"{base}/api/docs/").all_headers())
    page.wait_for_selector(".swagger-ui .opblock-summary-path")  # the operations are drawn
    assert "Lords turn server API" in page.inner_text(".swagger-ui .info .title")
    page.click("#operations-game_types-game_types_list .opblock-summary-control")
    page.click(".try-out__btn")
    page.click(".execute")  # Swagger UI fetches the endpoint (connect-src) with the session
    status = page.wait_for_selector(".live-responses-table .response .response-col_status")
    assert status.inner_text().strip() == "200"
    page.screenshot(path=str(SHOTS / "api-docs.png"), full_page=False)

    page.goto(f"{base}/admin/")
    page.wait_for_selector("#site-name")

    assert not violations, "\n".join(violations)
    for headers in sent:  # the policies the browser ran under
        assert "'unsafe-inline'" not in headers["content-security-policy"]
        assert "camera=()" in headers["permissions-policy"]
