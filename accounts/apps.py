from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Players"  # not "Accounts": allauth's app (addresses) is called so too

    def ready(self) -> None:
        from allauth.account.signals import user_logged_in, user_signed_up

        from accounts.adapter import forget_the_way, keep_the_way
        from accounts.receivers import language_from_the_browser

        user_signed_up.connect(language_from_the_browser, dispatch_uid="accounts.language")
        user_signed_up.connect(keep_the_way, dispatch_uid="accounts.keep_the_way")
        user_logged_in.connect(forget_the_way, dispatch_uid="accounts.forget_the_way")
