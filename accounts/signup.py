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


class SignupDetails(forms.Form):
    """The display name: what other players see, chosen at sign-up (an account without one
    was shown as its email address's part before the @)."""

    display_name = forms.CharField(
        label=_("Display name"),
        help_text=_("What other players see of you (never your email address)."),
        error_messages={"required": NAME_REQUIRED},
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )

    def clean_display_name(self) -> str:
        try:
            return check_display_name(self.cleaned_data.get("display_name") or "")
        except ValidationError as exc:
            raise forms.ValidationError(exc.messages) from exc

    def signup(self, request: HttpRequest, user: Any) -> None:
        user.display_name = self.cleaned_data["display_name"]
        user.save(update_fields=["display_name"])
