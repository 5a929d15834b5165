"""Users made before addresses had to be verified to open private games, by the server itself
(``createsuperuser``, the demo seed: no allauth ``EmailAddress`` at all), keep their
invitations: their address is recorded as verified, as ``create_user`` now does. Users who
signed up through allauth already have their record (verified or not) and are left alone."""

from django.db import migrations


def verify_server_made_addresses(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    EmailAddress = apps.get_model("account", "EmailAddress")
    unrecorded = User.objects.exclude(email="").exclude(
        pk__in=EmailAddress.objects.values("user_id")
    )
    EmailAddress.objects.bulk_create(
        EmailAddress(user=user, email=user.email, verified=True, primary=True)
        for user in unrecorded.iterator()
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_user_away_until"),
        ("account", "0009_emailaddress_unique_primary_email"),
    ]

    operations = [migrations.RunPython(verify_server_made_addresses, migrations.RunPython.noop)]
