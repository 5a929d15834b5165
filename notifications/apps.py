from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from anymail.signals import inbound

        from games.services.hooks import moves_committed, table_changed
        from notifications.receivers import notify_players, receive_inbound, tell_table

        moves_committed.connect(notify_players, dispatch_uid="notifications.notify_players")
        table_changed.connect(tell_table, dispatch_uid="notifications.tell_table")
        inbound.connect(receive_inbound, dispatch_uid="notifications.receive_inbound")

        from accounts.api import PROFILE_PARTS
        from notifications.profile_api import part

        PROFILE_PARTS["email_choices"] = part()  # (issue 13: the email choices in /me/)

        from games.api.webhooks import URL_CHECKS
        from notifications.outbound import refusal

        if refusal not in URL_CHECKS:
            URL_CHECKS.append(refusal)  # (a hook no delivery could send is not made)

        from games.services.clock import QUIET_HOURS
        from games.services.rows import PLAYER_ROWS
        from notifications.choices import quiet_hours_of
        from notifications.models import EmailPreference

        QUIET_HOURS["email_choices"] = quiet_hours_of  # (issue 13: no deadline in them)
        PLAYER_ROWS.append(EmailPreference)  # read with the game (issue 15: one round trip)

        from notifications.outbound import kick

        moves_committed.connect(kick, dispatch_uid="notifications.kick_webhooks")

        from celery.signals import task_postrun, task_prerun

        # One SMTP connection for all the emails of a task (a drain run sends hundreds).
        task_prerun.connect(_keep_mail_open, dispatch_uid="notifications.mail_open")
        task_postrun.connect(_close_mail, dispatch_uid="notifications.mail_close")


def _keep_mail_open(**kwargs: object) -> None:
    from notifications import mailer

    mailer.begin()


def _close_mail(**kwargs: object) -> None:
    from notifications import mailer

    mailer.end()
