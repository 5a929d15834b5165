"""The pages Django answers itself outside the API: an unknown address (404), a form refused
by the CSRF check (403) and a crash (500) are pages of the site, in the reader's language
(``<html lang>`` and words), with the site's navigation and a main landmark. Found by an
accessibility review (WCAG 3.1.1): the CSRF page of a French reader said ``lang="en"``, with
neither; an unknown address was Django's bare English "Not Found". Under ``/api/`` the
answers stay the API's JSON.

The crash comes from a view of this module's own (it is the URLconf of the tests that ask
for it, with the site's handlers)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory
from django.urls import path
from django.utils import translation

from accounts.models import User
from lords import urls as site_urls
from lords.api import errors
from tests.web.helpers import page_text

pytestmark = pytest.mark.django_db


def _boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug")


def _forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied("the code's own words")


urlpatterns = [
    path("boom/", _boom),
    path("api/boom/", _boom),
    path("forbidden/", _forbidden),
    *site_urls.urlpatterns,
]
handler400 = site_urls.handler400
handler403 = site_urls.handler403
handler404 = site_urls.handler404
handler500 = site_urls.handler500


def _said(language: str, *msgids: str) -> list[str]:
    """The sentences as the reader's catalog says them."""
    with translation.override(language):
        return [translation.gettext(m) for m in msgids]


def _a_page_of_the_site(html: str, language: str, link: str = "My games") -> str:
    """The page's language, navigation (with ``link``) and main landmark; its main text."""
    assert re.search(rf'<html lang="{language}">', html), html[:200]
    nav = re.search(r'<nav aria-label="([^"]+)">(.*?)</nav>', html, re.S)
    assert nav and nav.group(1) == _said(language, "Site")[0]
    assert _said(language, link)[0] in page_text(nav.group(2))
    main = re.search(r'<main id="main">(.*?)</main>', html, re.S)
    assert main
    return page_text(main.group(1))


@pytest.fixture
def french(make_user: Any) -> User:
    user = make_user("amelie")
    user.language = "fr"
    user.save(update_fields=["language"])
    return user


def test_an_unknown_address_is_a_page_of_the_site_in_the_readers_language(
    french: User, client: Client
) -> None:
    client.force_login(french)
    answer = client.get("/nope/")
    assert answer.status_code == 404
    html = answer.content.decode()
    main = _a_page_of_the_site(html, "fr")
    title, there_is_none = _said("fr", "Page not found", "There is no page at %(path)s.")
    assert f"<title>{title} · Lords</title>" in html
    assert title in main and there_is_none % {"path": "/nope/"} in main
    assert "Mes parties" in page_text(html) and "Aller au contenu" in page_text(html)
    assert "Not Found" not in html and "The requested resource" not in html


def test_a_signed_out_reader_gets_it_in_their_browsers_language(client: Client) -> None:
    html = client.get("/nope/", headers={"accept-language": "it"}).content.decode()
    main = _a_page_of_the_site(html, "it", link="Sign in")
    assert _said("it", "Page not found")[0] in main


@pytest.mark.parametrize("cookie", [True, False])
def test_a_form_refused_by_the_csrf_check_is_a_page_of_the_site(french: User, cookie: bool) -> None:
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(french)
    if cookie:
        browser.get("/leagues/new/")  # (the page sets the cookie; the form's token is left out)
    answer = browser.post("/leagues/new/", {"name": "Tuesday Club", "game_type": "vegas"})
    assert answer.status_code == 403
    html = answer.content.decode()
    main = _a_page_of_the_site(html, "fr")
    assert _said("fr", "Form not accepted")[0] in main
    cookies = _said(
        "fr",
        "Your browser did not send the cookie this site gives with its forms: allow cookies "
        "for this site, then reload the page and send the form again.",
    )[0]
    assert (page_text(cookies) in main) is not cookie  # (French spaces squeezed as the page's)
    assert "CSRF verification failed" not in html and "Forbidden" not in html


def test_a_crash_is_a_page_of_the_site_in_the_readers_language(french: User, settings: Any) -> None:
    settings.ROOT_URLCONF = __name__
    browser = Client(raise_request_exception=False)
    browser.force_login(french)
    answer = browser.get("/boom/")
    assert answer.status_code == 500
    main = _a_page_of_the_site(answer.content.decode(), "fr")
    assert "Quelque chose s'est mal passé de notre côté. Réessaie plus tard." in main
    assert _said("fr", "Server error")[0] in main


def test_the_crash_page_needs_no_database_and_no_user(
    django_assert_num_queries: Any,
) -> None:
    """Django draws it with no context; it must not reach for the database either (the
    crash may be the database's): the menu is links that need no one signed in."""
    request = RequestFactory().get("/games/1/")
    with translation.override("fr"), django_assert_num_queries(0):
        answer = errors.server_error(request)
    html = answer.content.decode()
    main = _a_page_of_the_site(html, "fr")
    assert "Réessaie plus tard." in main
    assert _said("fr", "Sign in")[0] not in html  # (it cannot know who reads)


def test_the_api_still_answers_in_json(french: User, settings: Any) -> None:
    settings.ROOT_URLCONF = __name__
    browser = Client(enforce_csrf_checks=True, raise_request_exception=False)
    browser.force_login(french)
    for method, address, status, code in (
        ("get", "/api/nope/", 404, "not_found"),
        ("get", "/api/boom/", 500, "server_error"),
        ("post", "/api/boom/", 403, "permission_denied"),
    ):
        answer = getattr(browser, method)(address)
        assert answer.status_code == status, address
        assert answer["Content-Type"] == "application/json"
        assert answer.json()["error"]["code"] == code


def test_a_refusal_and_a_bad_request_are_pages_of_the_site(french: User, settings: Any) -> None:
    """Django's own English pages answered a PermissionDenied (403) and a request it could
    not read (400) outside the API."""
    settings.ROOT_URLCONF = __name__
    browser = Client(raise_request_exception=False)
    browser.force_login(french)
    answer = browser.get("/forbidden/")
    assert answer.status_code == 403
    main = _a_page_of_the_site(answer.content.decode(), "fr")
    assert _said("fr", "Not allowed")[0] in main and "the code's own words" not in main
    request = RequestFactory().get("/games/1/")
    with translation.override("fr"):
        bad = errors.bad_request(request, ValueError("unreadable"))
    assert bad.status_code == 400
    main = _a_page_of_the_site(bad.content.decode(), "fr")
    assert _said("fr", "Request not understood")[0] in main
