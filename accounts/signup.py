"""What the sign-up page asks besides the email address and the password
(``ACCOUNT_SIGNUP_FORM_CLASS``: allauth adds these fields to its form and calls
:meth:`SignupDetails.signup` once the account exists)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.rules import MAX_NAME_LENGTH, NAME_REQUIRED, check_display_name, lost_the_name


def display_name_field() -> forms.CharField:
    """The display name as every form asks for it (sign-up, the profile): no
    ``max_length``, :func:`accounts.rules.check_display_name` says it, as the API does."""
    return forms.CharField(
        label=_("Display name"),
        help_text=_("What other players see of you (never your email address)."),
        error_messages={"required": NAME_REQUIRED},
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )


def cleaned_display_name(value: str | None, user: Any = None) -> str:
    """:func:`accounts.rules.check_display_name` with its refusal as a form's."""
    try:
        return check_display_name(value or "", user=user)
    except ValidationError as exc:
        raise forms.ValidationError(exc.messages) from exc


class SignupDetails(forms.Form):
    """The display name: what other players see, chosen at sign-up (an account without one
    was shown as its email address's part before the @)."""

    display_name = display_name_field()

    def clean_display_name(self) -> str:
        return cleaned_display_name(self.cleaned_data.get("display_name"))

    def signup(self, request: HttpRequest, user: Any) -> None:
        """The account exists by now: a name another sign-up took since the check (the
        same name at the same moment) cannot refuse the form any more, so the newcomer gets
        the name numbered, as the migration that made names unique numbered them, and is
        told (the profile page changes it)."""
        chosen = self.cleaned_data["display_name"]
        for name in numbered(chosen):
            try:
                with transaction.atomic():
                    user.display_name = name
                    user.save(update_fields=["display_name"])
            except IntegrityError as exc:
                if not lost_the_name(exc):
                    raise
                continue
            if name != chosen:
                messages.warning(request, name_changed(chosen, name))
            return


def numbered(name: str) -> Iterator[str]:
    """``name``, then ``name 2``, ``name 3``... each cut to fit ``MAX_NAME_LENGTH``."""
    yield name
    for n in itertools.count(2):
        suffix = f" {n}"
        yield name[: MAX_NAME_LENGTH - len(suffix)] + suffix


def name_changed(chosen: str, name: str) -> str:
    return gettext(
        "Someone took the name %(chosen)s a moment before you: you are %(name)s. You can "
        "choose another name in your settings."
    ) % {"chosen": chosen, "name": name}
