"""Dates as each language writes them (``lords.dates.when``, used by every page and email)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.utils import timezone, translation

from lords.dates import when

TUESDAY = datetime(2026, 11, 24, 9, 5, tzinfo=UTC)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "Tue 24 Nov, 09:05"),
        ("fr", "mar. 24 nov., 09:05"),
        ("it", "mar 24 nov, 09:05"),
    ],
)
def test_a_day_is_written_as_its_language_writes_it_mid_sentence(
    language: str, expected: str
) -> None:
    with translation.override(language), timezone.override("UTC"):
        assert when(TUESDAY) == expected


def test_every_day_of_the_week_has_its_own_abbreviation_in_italian() -> None:
    with translation.override("it"), timezone.override("UTC"):
        days = [when(datetime(2026, 11, 23 + n, tzinfo=UTC), "day").split()[0] for n in range(7)]
    assert days == ["lun", "mar", "mer", "gio", "ven", "sab", "dom"]
