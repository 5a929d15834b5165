"""The deployment files are valid: the compose stack parses and names every service, and the
image's web server keeps answering while players hold event streams open."""

import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from knox.models import AuthToken

ROOT = Path(__file__).resolve().parent.parent


def _compose_available() -> bool:
    if shutil.which("docker") is None:
        return False
    probe = subprocess.run(["docker", "compose", "version"], capture_output=True, check=False)
    return probe.returncode == 0


@pytest.mark.skipif(not _compose_available(), reason="the docker compose CLI plugin is missing")
def test_the_compose_file_is_valid_and_has_every_service() -> None:
    result = subprocess.run(
        ["docker", "compose", "-f", "docker/compose.yml", "config", "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    services = json.loads(result.stdout)["services"]
    assert {"web", "worker", "beat", "db", "redis", "mailpit"} <= set(services)
    for name in ("web", "worker", "db", "redis", "mailpit"):
        assert "healthcheck" in services[name], f"{name} has no health check"


def _image_command() -> list[str]:
    """The web server's command as the image runs it (the Dockerfile's ``CMD``)."""
    lines = (ROOT / "docker" / "Dockerfile").read_text().splitlines()
    [line] = [line for line in lines if line.startswith("CMD ")]
    command: list[str] = json.loads(line.removeprefix("CMD "))
    return command


def _get(url: str, timeout: float) -> int:
    """The status of a plain GET (an error status raises, as ``urlopen`` does)."""
    with urllib.request.urlopen(url, timeout=timeout) as answer:
        return int(answer.status)


def _database_url() -> str:
    """The test database as a ``DATABASE_URL`` for a server of its own: the suite's own URL
    (its host, login and options) naming the database the tests run in."""
    return (
        urlsplit(os.environ["DATABASE_URL"])
        ._replace(path="/" + connection.settings_dict["NAME"])
        .geturl()
    )


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_web_server_answers_while_players_hold_event_streams_open() -> None:
    """The image's gunicorn, run with its own command line, answers a request while as many
    players as it has worker processes hold their event streams open (a stream lasts up to
    25 s). A sync worker is held by each open stream: with three of them, three streams
    stopped the whole site until one ended; threads (gthread) serve the streams and the
    rest."""
    user = get_user_model().objects.create_user("streams@example.org", None)
    _, token = AuthToken.objects.create(user=user, expiry=None)
    # The server takes a socket already listening (``fd://``): a port found free and let go
    # could be taken by another test's server before gunicorn binds it.
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    listener.set_inheritable(True)
    port = listener.getsockname()[1]
    command = _image_command()
    assert command[:2] == ["gunicorn", "lords.wsgi"]
    command[:1] = [sys.executable, "-m", "gunicorn"]
    command[command.index("--bind") + 1] = f"fd://{listener.fileno()}"
    workers = int(command[command.index("--workers") + 1])
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "DEBUG": "false",
        "SECURE": "false",
        "SECRET_KEY": "deployment-test-only-" + "k" * 40,
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "WARNING",
    }
    server = subprocess.Popen(
        command, cwd=ROOT, env=env, start_new_session=True, pass_fds=[listener.fileno()]
    )
    listener.close()  # (the server has its own copy)
    base = f"http://127.0.0.1:{port}"
    streams: list[http.client.HTTPConnection] = []
    try:
        deadline = time.monotonic() + 30
        while True:
            assert server.poll() is None, "gunicorn stopped"
            assert time.monotonic() < deadline, "gunicorn did not start"
            try:
                if _get(f"{base}/api/v1/game-types/", timeout=2) == 200:
                    break
            except OSError:
                pass
            time.sleep(0.2)
        for _ in range(workers):
            stream = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            stream.request(
                "GET",
                "/api/v1/events/?seconds=8",
                headers={"Authorization": f"Token {token}", "Accept": "text/event-stream"},
            )
            assert stream.getresponse().status == 200  # (its first line is sent at once)
            streams.append(stream)
        assert _get(f"{base}/api/v1/game-types/", timeout=4) == 200
    finally:
        for stream in streams:
            stream.close()
        os.killpg(server.pid, signal.SIGKILL)  # (a test server: its streams are not waited for)
        server.wait(timeout=30)
