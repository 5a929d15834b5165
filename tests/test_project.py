"""The project boots: settings, the custom user, the deploy checks."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from accounts.models import User


@pytest.mark.django_db
def test_it_logs_users_in_by_email() -> None:
    user = User.objects.create_user("Ada@Example.org", "a-long-password")
    assert user.email == "ada@example.org"
    assert user.name == f"Player {user.pk}"  # (made without a name: decision 0030)
    assert user.check_password("a-long-password")


def test_production_settings_pass_the_deploy_check() -> None:
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECURE": "true",
        "SECRET_KEY": "a-production-secret-key-that-is-long-and-varied-0123456789-ABCDEFG",
        "ALLOWED_HOSTS": "lords.example.org",
        "SITE_URL": "https://lords.example.org",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_settings_refuse_to_start_without_a_secret_key() -> None:
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    env["DEBUG"] = "false"
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], env=env, capture_output=True, text=True, check=False
    )
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_the_embedded_run_migrates_on_sqlite_and_seeds_a_game(tmp_path: Path) -> None:
    """`make run` migrates a fresh SQLite file and seeds the demo games: every migration
    must run there too (a PostgreSQL-only statement in one once broke it)."""
    env = {
        **os.environ,
        "DEBUG": "true",
        "DATABASE_URL": f"sqlite:///{tmp_path}/embedded.sqlite3",
        "REDIS_URL": "",
        "CELERY_TASK_ALWAYS_EAGER": "true",
    }
    for command in (["migrate", "--noinput"], ["seed_demo"]):
        result = subprocess.run(
            [sys.executable, "manage.py", *command],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr
    assert "ada@example.org" in result.stdout


@pytest.mark.django_db
def test_every_model_change_has_its_migration() -> None:
    """A field's words are in its migration too: a verbose name changed without one (the
    season's "cycles", decision 0036) left the next ``makemigrations`` to write it, in
    whatever change came next."""
    from django.core.management import call_command

    try:
        call_command("makemigrations", "--check", "--dry-run", verbosity=0)
    except SystemExit as missing:  # --check exits 1 when a migration is missing
        pytest.fail(f"a model change has no migration (makemigrations --check: {missing})")
