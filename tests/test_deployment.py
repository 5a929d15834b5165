"""The deployment files are valid: the compose stack parses and names every service."""

import json
import shutil
import subprocess

import pytest


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
