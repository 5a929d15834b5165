from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.db.models import QuerySet
from django.http import HttpRequest

from accounts import deletion
from accounts.addresses import record_verified
from accounts.models import User
from accounts.signup import cleaned_display_name


def _staff_named(value: str | None, user: Any = None) -> str:
    """The display name staff type: the players' own rules (no address, not "Player 12",
    nobody else's), or empty (the account is then "Player 12": decision 0030)."""
    return cleaned_display_name(value, user) if (value or "").strip() else ""


class AddUserForm(AdminUserCreationForm):
    def clean_display_name(self) -> str:
        return _staff_named(self.cleaned_data.get("display_name"))


class ChangeUserForm(UserChangeForm):
    def clean_display_name(self) -> str:
        return _staff_named(self.cleaned_data.get("display_name"), self.instance)


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    add_form = AddUserForm
    form = ChangeUserForm
    ordering = ("email",)
    list_display = ("email", "display_name", "away_until", "is_staff", "date_joined")
    search_fields = ("email", "display_name")
    fieldsets = (
        (None, {"fields": ("email", "password")}),
        ("Profile", {"fields": ("display_name", "time_zone", "language", "away_until")}),
        ("Permissions", {"fields": ("is_active", "is_staff", "is_superuser", "groups")}),
        ("Dates", {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = (
        (
            None,
            {"classes": ("wide",), "fields": ("email", "display_name", "password1", "password2")},
        ),
    )
    actions = ("delete_accounts",)

    def save_model(self, request: HttpRequest, obj: User, form: Any, change: bool) -> None:
        """An account staff add has its address recorded verified, as every account the
        server makes (``create_user``): staff vouch for it (review of decision 0034: it was
        asked for a code at its first sign-in, and refused an API token until then)."""
        super().save_model(request, obj, form, change)
        if not change:
            record_verified(obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """No plain delete: it would either fail (seats protect the row) or, for someone
        without games, skip the anonymising; staff use the action below, which does what
        the player's own "delete my account" does (docs/decisions/0011-your-data.md)."""
        return False

    @admin.action(description="Delete account (anonymise)", permissions=["change"])
    def delete_accounts(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        """``accounts.deletion.delete_account`` for each selected user."""
        done = 0
        for user in queryset:
            if user.pk == getattr(request.user, "pk", None):
                self.message_user(
                    request, "You cannot delete your own account here.", messages.ERROR
                )
                continue
            deletion.delete_account(user=user)
            done += 1
        self.message_user(request, f"{done} account(s) deleted (anonymised).", messages.SUCCESS)
