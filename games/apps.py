from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        """What the engines say (:class:`games.engines.text.Text`) is rendered through
        Django's catalogs, in the language active where it is shown."""
        from django.utils import formats, translation

        from games.engines.text import install_translator
        from lords.elision import fit

        def number(value: int) -> str:
            return formats.number_format(value, force_grouping=True)

        install_translator(translation.gettext, translation.ngettext, number, fit)

        from allauth.account.signals import email_confirmed

        from games.web.signup import claim_once_confirmed

        email_confirmed.connect(claim_once_confirmed, dispatch_uid="games.claim_invitation")

        from games.events import record_moves, record_table
        from games.services.hooks import moves_committed, table_changed

        moves_committed.connect(record_moves, dispatch_uid="games.player_events")
        table_changed.connect(record_table, dispatch_uid="games.player_table_events")
