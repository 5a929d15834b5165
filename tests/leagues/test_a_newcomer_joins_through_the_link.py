"""A newcomer invited to a league by address follows the emailed link, signs up from there,
types the code mailed to them, and is back on the invitation, one button from joining
(docs/decisions/0028 and 0034)."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from accounts.models import User
from leagues import manage
from leagues.models import League
from tests.web.signing_up import sign_up

pytestmark = pytest.mark.django_db


def test_a_newcomer_signs_up_through_the_link_and_joins(
    league: League, ada: User, django_capture_on_commit_callbacks: Any
) -> None:
    email = f"newcomer-{uuid.uuid4().hex[:12]}@example.org"
    with django_capture_on_commit_callbacks(execute=True):
        manage.invite(league=league, by=ada, email=email)
    (invitation,) = [m for m in mail.outbox if email in m.to]
    link = re.search(r"https?://\S+?(/leagues/invitations/[\w-]+/)", str(invitation.body))
    assert link is not None, invitation.body
    visitor = Client()
    asked = visitor.get(link.group(1))  # signed out: the sign-in page, which leads to sign up
    sign_in_page = visitor.get(asked["Location"]).content.decode()
    signup = re.search(r'href="(/accounts/signup/\?next=[^"]+)"', sign_in_page)
    assert signup is not None, sign_in_page
    then = signup.group(1).split("next=", 1)[1].replace("%2F", "/")
    assert then == link.group(1)

    assert sign_up(visitor, email, then=then)["Location"] == link.group(1)
    page = visitor.get(link.group(1)).content.decode()
    assert "Join the league" in page
    visitor.post(link.group(1))
    assert league.memberships.filter(user__email=email).exists()
