"""An account whose address is never confirmed goes after a week (decision 0034, after
review): it could not sign in, yet it held its display name and a stranger's address."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client

from accounts.models import User
from accounts.unconfirmed import remove_unconfirmed
from tests.web.signing_up import fill_in, sign_up

pytestmark = pytest.mark.django_db

START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def _fresh(name: str) -> str:
    return f"{name}-{uuid.uuid4().hex[:12]}@example.org"


def test_a_week_on_the_account_never_confirmed_goes_and_its_name_is_free(
    make_user: Any,
) -> None:
    squatter, newcomer = _fresh("squat"), _fresh("newcomer")
    with time_machine.travel(START, tick=False) as clock:
        assert fill_in(Client(), squatter, name="Famous").status_code == 302  # no code typed
        sign_up(Client(), newcomer, name="Newcomer")  # confirmed
        older = make_user("older")  # made by the server: verified, never signed in
        clock.shift(timedelta(days=6))
        assert remove_unconfirmed() == 0  # (still within its week)
        clock.shift(timedelta(days=2))
        assert remove_unconfirmed() == 1
        assert not User.objects.filter(email=squatter).exists()
        assert (
            User.objects.filter(email=newcomer).exists()
            and User.objects.filter(pk=older.pk).exists()
        )
        assert remove_unconfirmed() == 0  # (idempotent)
        # The name is anyone's again, the address its owner's to sign up with.
        sign_up(Client(), squatter, name="Famous")
        assert User.objects.get(email=squatter).display_name == "Famous"


def test_an_account_that_signed_in_once_is_kept_even_unconfirmed(make_user: Any) -> None:
    """Accounts older than mandatory verification signed in without a code: used, kept."""
    with time_machine.travel(START, tick=False) as clock:
        old = make_user("legacy")
        old.emailaddress_set.update(verified=False)
        User.objects.filter(pk=old.pk).update(last_login=START)
        clock.shift(timedelta(days=30))
        assert remove_unconfirmed() == 0
        assert User.objects.filter(pk=old.pk).exists()


def test_beat_runs_it_daily(settings: Any) -> None:
    from lords.celery import app

    app.loader.import_default_modules()
    (entry,) = [
        e
        for e in settings.CELERY_BEAT_SCHEDULE.values()
        if e["task"] == "accounts.tasks.remove_unconfirmed"
    ]
    assert entry["task"] in app.tasks
