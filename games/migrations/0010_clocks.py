# Clocks (fixed or a time bank, the weekend pause, the players' pause) and the calendar
# feed: docs/decisions/0018-clocks-and-channels.md.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_game_tools"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="bank_cap_hours",
            field=models.PositiveIntegerField(
                default=168, help_text="The increment never takes a bank beyond this."
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="bank_hours",
            field=models.PositiveIntegerField(
                default=72, help_text="Each player's bank at the start."
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="clock",
            field=models.CharField(
                choices=[("fixed", "fixed time per turn"), ("bank", "time bank")],
                default="fixed",
                max_length=8,
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="clock_started_at",
            field=models.DateTimeField(
                blank=True,
                help_text="When the current wait's clock started (later than now: a vacation "
                "wait).",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="increment_hours",
            field=models.PositiveIntegerField(
                default=24, help_text="Added to a player's bank for each turn they finish."
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="pause_votes",
            field=models.JSONField(
                blank=True, default=list, help_text="Seat orders whose players voted to pause."
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="weekend_pause",
            field=models.BooleanField(
                default=False, help_text="The clock stops over each player's weekend (their zone)."
            ),
        ),
        migrations.AddField(
            model_name="seat",
            name="bank_left",
            field=models.DurationField(
                blank=True,
                help_text="The player's time bank (bank clock; empty: untouched).",
                null=True,
            ),
        ),
        migrations.CreateModel(
            name="CalendarFeed",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("token", models.CharField(max_length=64, unique=True)),
                ("created_at", models.DateTimeField(auto_now=True)),
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="calendar_feed",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="Webhook",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("url", models.URLField(max_length=500)),
                ("secret", models.CharField(max_length=100)),
                ("active", models.BooleanField(default=True)),
                ("last_event", models.BigIntegerField(default=0)),
                ("failures", models.PositiveSmallIntegerField(default=0)),
                ("retry_at", models.DateTimeField(blank=True, null=True)),
                ("last_error", models.CharField(blank=True, max_length=300)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="PlayerEvent",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("kind", models.CharField(max_length=16)),
                ("key", models.CharField(max_length=100)),
                ("data", models.JSONField(default=dict)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="games.game",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["id"],
                "indexes": [models.Index(fields=["user", "id"], name="player_event_user_id")],
                "constraints": [
                    models.UniqueConstraint(fields=("user", "key"), name="player_event_once")
                ],
            },
        ),
    ]
