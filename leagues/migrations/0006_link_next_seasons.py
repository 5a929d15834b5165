"""Seasons opened by "open the next season" before 0005 have no ``previous``: their finished
season showed the button again and opened another (found by review of decision 0036). Each
season without one, in the order they were opened, is linked to the season of its league
that finished last before it was opened and has no next season yet: the one whose button
opened it (or, opened by hand then, the league's next season all the same). A season opened
while another still ran is linked to none of those running (found by a second review: the
oldest finished season took the newest)."""

from typing import Any

from django.db import migrations


def link_next_seasons(apps: Any, schema_editor: Any) -> None:
    Season = apps.get_model("leagues", "Season")
    unlinked = Season.objects.filter(previous__isnull=True).order_by("created_at", "number")
    for season in unlinked:
        before = (
            Season.objects.filter(
                league_id=season.league_id,
                status="finished",
                finished_at__lte=season.created_at,
                number__lt=season.number,
                following__isnull=True,
            )
            .order_by("-finished_at", "-number")
            .first()
        )
        if before is not None:
            season.previous = before
            season.save(update_fields=["previous"])


class Migration(migrations.Migration):
    dependencies = [("leagues", "0005_next_season_and_removal")]

    operations = [migrations.RunPython(link_next_seasons, migrations.RunPython.noop)]
