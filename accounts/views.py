"""The web door of the account: ``/profile/``, the signed-in player's settings.
POST/redirect/GET; a refused form is shown again with its errors and nothing is saved."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.forms import ProfileForm
from accounts.models import User
from notifications import services as notifications


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)
    zone = user.zone
    with timezone.override(zone):  # away_until is typed and shown in the user's zone
        if request.method != "POST":
            pref = notifications.preference(user)
            initial = {"turn_emails": pref.turn_emails, "reminders": pref.reminders}
            form = ProfileForm(instance=user, initial=initial)
            return render(request, "accounts/profile.html", {"form": form, "zone": zone})
        form = ProfileForm(request.POST, instance=user)
        if not form.is_valid():
            user.refresh_from_db()  # the page's header shows what is saved, not what was typed
            context = {"form": form, "zone": zone}
            return render(request, "accounts/profile.html", context, status=400)
        with transaction.atomic():
            saved = form.save()
            notifications.set_preferences(user=saved, **form.email_choices())
    with translation.override(saved.language):  # the next page speaks the new language
        messages.success(request, _("Your settings are saved."))
    return redirect("accounts:profile")
