from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Leagues"

    def ready(self) -> None:
        """The game emails name a season game's league and season (``notifications.framing``:
        the notifications import nothing of the leagues)."""
        from leagues import present
        from notifications import framing

        framing.register(present.game_frame)
