"""What the sign-up page asks besides the email address and the password
(``ACCOUNT_SIGNUP_FORM_CLASS``: allauth adds these fields to its form and calls
:meth:`SignupDetails.signup` once the account exists)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts.rules import NAME_REQUIRED, check_display_name


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
        user.display_name = self.cleaned_data["display_name"]
        user.save(update_fields=["display_name"])
