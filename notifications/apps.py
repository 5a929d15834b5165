from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from anymail.signals import inbound

        from games.services.hooks import moves_committed
        from notifications.receivers import notify_players, receive_inbound

        moves_committed.connect(notify_players, dispatch_uid="notifications.notify_players")
        inbound.connect(receive_inbound, dispatch_uid="notifications.receive_inbound")
