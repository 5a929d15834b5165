from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from games.services.hooks import moves_committed
        from notifications.receivers import enqueue_notices

        moves_committed.connect(enqueue_notices, dispatch_uid="notifications.enqueue_notices")
