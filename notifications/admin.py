from django.contrib import admin

from notifications.models import EmailPreference, GameMute, Notification


@admin.register(EmailPreference)
class EmailPreferenceAdmin(admin.ModelAdmin):
    list_display = ["user", "turn_emails", "digest", "reminders", "unsubscribed_at", "updated_at"]
    list_filter = ["turn_emails", "digest", "reminders"]
    search_fields = ["user__email", "user__display_name"]
    raw_id_fields = ["user"]


@admin.register(GameMute)
class GameMuteAdmin(admin.ModelAdmin):
    list_display = ["user", "game", "created_at"]
    search_fields = ["user__email"]
    raw_id_fields = ["user", "game"]


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    """The record of what was sent: read-only (a row is the claim that stops a resend)."""

    list_display = ["created_at", "kind", "key", "game", "user", "status", "attempts"]
    list_filter = ["kind", "status"]
    search_fields = ["user__email", "message_id"]
    readonly_fields = [f.name for f in Notification._meta.fields]

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False
