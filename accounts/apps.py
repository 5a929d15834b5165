from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Players"  # not "Accounts": allauth's app (addresses) is called so too

    def ready(self) -> None:
        from allauth.account.signals import user_signed_up

        from accounts.receivers import language_from_the_browser

        user_signed_up.connect(language_from_the_browser, dispatch_uid="accounts.language")
