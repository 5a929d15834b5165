"""Fixtures of the web tests: the real SMTP server of the notification tests."""

from tests.notifications.conftest import smtp  # noqa: F401 (a fixture, used by name)
