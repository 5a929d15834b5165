from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from anymail.signals import inbound

        from games.services.hooks import moves_committed
        from notifications.receivers import enqueue_notices, receive_inbound

        moves_committed.connect(enqueue_notices, dispatch_uid="notifications.enqueue_notices")
        inbound.connect(receive_inbound, dispatch_uid="notifications.receive_inbound")
