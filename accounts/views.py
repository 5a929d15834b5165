"""The web door of the account: ``/profile/``, the signed-in player's settings, and the
person's data: ``/profile/data/`` (download it) and ``/profile/delete/`` (delete the account,
after a confirmation page asking for the password). POST/redirect/GET; a refused form is
shown again with its errors and nothing is saved."""

from __future__ import annotations

import json
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts import data, deletion
from accounts.forms import DeleteAccountForm, ProfileForm, email_initial
from accounts.middleware import LANGUAGES
from accounts.models import User
from accounts.rules import lost_the_name, name_taken
from notifications import services as notifications


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)
    zone = user.zone
    with timezone.override(zone):  # away_until is typed and shown in the user's zone
        muted = notifications.muted_games(user)
        if request.method != "POST":
            pref = notifications.preference(user)
            initial = email_initial(pref, [g.pk for g in muted])
            form = ProfileForm(instance=user, initial=initial)
            context = {"form": form, "zone": zone, "muted": muted}
            return render(request, "accounts/profile.html", context)
        form = ProfileForm(request.POST, instance=user)
        saved = _saved(form) if form.is_valid() else None
        if saved is None:
            user.refresh_from_db()  # the page's header shows what is saved, not what was typed
            context = {"form": form, "zone": zone, "muted": muted}
            return render(request, "accounts/profile.html", context, status=400)
    with translation.override(saved.language):  # the next page speaks the new language
        messages.success(request, _("Your settings are saved."))
    return redirect("accounts:profile")


def _saved(form: ProfileForm) -> User | None:
    """The valid form saved, or None with the refusal on the form: a name another person
    took between the form's check and the save (two people choosing it at once)."""
    try:
        with transaction.atomic():
            saved: User = form.save()
            notifications.set_preferences(user=saved, **form.email_choices())
    except IntegrityError as exc:
        if not lost_the_name(exc):
            raise
        form.add_error("display_name", name_taken(form.cleaned_data["display_name"]))
        return None
    return saved


def _me(request: HttpRequest) -> User:
    """The signed-in user (``login_required`` let only them through)."""
    assert isinstance(request.user, User)
    return request.user


@login_required
@require_http_methods(["GET", "HEAD"])
def download_data(request: HttpRequest) -> HttpResponse:
    """Everything kept about the player, as a JSON file to save (``accounts.data``)."""
    user = _me(request)
    body = json.dumps(data.personal_data(user=user), indent=2, ensure_ascii=False)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{data.filename(user)}"'
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def delete_account(request: HttpRequest) -> HttpResponse:
    """The confirmation page (what happens, and the password); its POST deletes the
    account (``accounts.deletion``), signs the player out and says it is done."""
    user = _me(request)
    form = DeleteAccountForm(request.POST or None, user=user, request=request)
    context = {"form": form, "games": deletion.games_affected(user=user)}
    if request.method != "POST":
        return render(request, "accounts/delete.html", context)
    if not form.is_valid():
        return render(request, "accounts/delete.html", context, status=400)
    # The language the player was reading in (their saved one, or the language cookie's,
    # which wins over it): the deletion resets the saved one.
    language = getattr(request, "LANGUAGE_CODE", "") or user.language
    deletion.delete_account(user=user)
    logout(request)
    return redirect(f"{reverse('accounts:deleted')}?{urlencode({'language': language})}")


@require_http_methods(["GET", "HEAD"])
def deleted(request: HttpRequest) -> HttpResponse:
    """Where a deleted account lands, signed out: it is done, and what stays. In the
    language the player had (``?language=``, set by :func:`delete_account`): the session is
    over, so the browser's language would speak instead (found by QA)."""
    language = request.GET.get("language", "")
    if language in LANGUAGES:
        translation.activate(language)  # (as for a signed-in player: the whole answer)
        request.LANGUAGE_CODE = language
    return render(request, "accounts/deleted.html")
