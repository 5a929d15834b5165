# Game tools (pause, resume) and the rated flag (docs/decisions/0014-league-admins.md).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0008_announcement_changes'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='paused_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='game',
            name='paused_left',
            field=models.DurationField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='game',
            name='rated',
            field=models.BooleanField(default=True, help_text="Its result counts towards the players' ratings."),
        ),
    ]
