"""The people of the talk written so far (a migration of its own: PostgreSQL refuses to make
0017's indexes on a table with rows changed in the same transaction)."""

from django.db import migrations
from django.db.models import OuterRef, Subquery

_UNKNOWN = object()


def people_of_the_time(apps, schema_editor):
    """Each message and note written so far is given to the person who held its seat when
    it was written: the seat's player of now, or, before a replacement, the player the
    replacement's log entry names (``before_user``; an entry too old to name one leaves
    the person unknown, never the newcomer)."""
    ChatMessage = apps.get_model("games", "ChatMessage")
    PlayerNote = apps.get_model("games", "PlayerNote")
    Seat = apps.get_model("games", "Seat")
    Move = apps.get_model("games", "Move")
    holder = Seat.objects.filter(pk=OuterRef("author_id")).values("user_id")[:1]
    ChatMessage.objects.update(author_user_id=Subquery(holder))
    recipient = Seat.objects.filter(pk=OuterRef("to_id")).values("user_id")[:1]
    ChatMessage.objects.filter(to__isnull=False).update(to_user_id=Subquery(recipient))
    owner = Seat.objects.filter(pk=OuterRef("seat_id")).values("user_id")[:1]
    PlayerNote.objects.update(user_id=Subquery(owner))

    handed: dict[int, list[tuple[object, object]]] = {}  # seat -> (when, whom it took from)
    replaced = Move.objects.filter(seat__isnull=False, command__isnull=True, source="system")
    for move in replaced.order_by("seq").only("seat_id", "events", "created_at"):
        for event in move.events or []:
            if event.get("type") == "tool" and event.get("tool") == "replace":
                handed.setdefault(move.seat_id, []).append(
                    (move.created_at, event.get("before_user", _UNKNOWN))
                )

    def held_by(seat_id, moment, now):
        for when, before in handed.get(seat_id, []):
            if moment < when:
                return None if before is _UNKNOWN else before
        return now

    seats = {s.pk: s.user_id for s in Seat.objects.filter(pk__in=list(handed))}
    # (``update``, not ``save``: a note's ``updated_at`` stays when it was written)
    for m in ChatMessage.objects.filter(author_id__in=list(handed)):
        person = held_by(m.author_id, m.created_at, seats[m.author_id])
        ChatMessage.objects.filter(pk=m.pk).update(author_user_id=person)
    for m in ChatMessage.objects.filter(to_id__in=list(handed)):
        person = held_by(m.to_id, m.created_at, seats[m.to_id])
        ChatMessage.objects.filter(pk=m.pk).update(to_user_id=person)
    for note in PlayerNote.objects.filter(seat_id__in=list(handed)):
        person = held_by(note.seat_id, note.updated_at, seats[note.seat_id])
        PlayerNote.objects.filter(pk=note.pk).update(user_id=person)


class Migration(migrations.Migration):
    dependencies = [("games", "0017_talk_keeps_its_people")]

    operations = [migrations.RunPython(people_of_the_time, migrations.RunPython.noop)]
