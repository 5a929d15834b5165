"""The people of the talk written so far (a migration of its own: PostgreSQL refuses to make
0017's indexes on a table with rows changed in the same transaction)."""

from django.db import migrations
from django.db.models import OuterRef, Subquery


def people_of_the_time(apps, schema_editor):
    """The messages and notes written so far: by the seats' players of now (who held a
    seat before a replacement was not recorded)."""
    ChatMessage = apps.get_model("games", "ChatMessage")
    PlayerNote = apps.get_model("games", "PlayerNote")
    Seat = apps.get_model("games", "Seat")
    holder = Seat.objects.filter(pk=OuterRef("author_id")).values("user_id")[:1]
    ChatMessage.objects.update(author_user_id=Subquery(holder))
    recipient = Seat.objects.filter(pk=OuterRef("to_id")).values("user_id")[:1]
    ChatMessage.objects.filter(to__isnull=False).update(to_user_id=Subquery(recipient))
    owner = Seat.objects.filter(pk=OuterRef("seat_id")).values("user_id")[:1]
    PlayerNote.objects.update(user_id=Subquery(owner))


class Migration(migrations.Migration):
    dependencies = [("games", "0017_talk_keeps_its_people")]

    operations = [migrations.RunPython(people_of_the_time, migrations.RunPython.noop)]
