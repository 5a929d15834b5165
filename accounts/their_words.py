# ruff: noqa: RUF001 (Django's msgids write "can't" with a typographic apostrophe, U+2019)
"""The words allauth and Django show a player on the account pages, so that our catalogue
(``locale/``) says them in the site's voice: "tu" in French and Italian, "e-mail" as the site
writes it, our names for things (docs/decisions/0027-the-account-pages.md).

Why this module exists: Django looks a message up in ``LOCALE_PATHS`` before the apps'
catalogues, so an entry of ours re-translates one of allauth's or Django's; but
``makemessages`` keeps only the messages it finds in our source, and would drop those
entries. Here it finds them. Nothing calls these at run time (``gettext_noop`` returns its
text, ``ngettext_lazy`` without a number is never evaluated): allauth and Django translate
their own words, and find ours first.

Each text is the exact msgid allauth 65 or Django 5.2 uses (their ``.po`` files), grouped by
the page that shows it; a msgid they change on an upgrade no longer matches, and their own
translation shows again: ``tests/web/test_the_account_pages.py`` checks that every one is
still theirs, and that the pages say no "vous".
"""

from django.utils.translation import gettext_noop as _
from django.utils.translation import ngettext_lazy

# Signing in (account/login.html, allauth's LoginForm and its refusals)
SIGNING_IN = (
    _("Sign In"),
    _("If you have not created an account yet, then please %(link)ssign up%(end_link)s first."),
    _("Email"),
    _("Password"),
    _("Forgot your password?"),
    _("Remember Me"),
    _("The email address and/or password you specified are not correct."),
    _("This account is currently inactive."),
    _("Too many failed login attempts. Try again later."),
    _("Successfully signed in as %(name)s."),
    _("You are already logged in as %(user_display)s."),
)

# Signing up (account/signup.html, signup_closed.html, allauth's SignupForm)
SIGNING_UP = (
    _("Signup"),
    _("Sign Up"),
    _("Already have an account? Then please %(link)ssign in%(end_link)s."),
    _("Password (again)"),
    _("A user is already registered with this email address."),
    _("You must type the same password each time."),
    _("Sign Up Closed"),
    _("We are sorry, but the sign up is currently closed."),
)

# Signing out (account/logout.html)
SIGNING_OUT = (
    _("Sign Out"),
    _("Are you sure you want to sign out?"),
    _("You have signed out."),
)

# A forgotten password (account/password_reset*.html, password_reset_from_key*.html)
A_FORGOTTEN_PASSWORD = (
    _("Password Reset"),
    _(
        "Forgotten your password? Enter your email address below, and we'll send "
        "you an email allowing you to reset it.",
    ),
    _("Reset My Password"),
    _("Please contact us if you have any trouble resetting your password."),
    _(
        "We have sent you an email. If you have not received it please check "
        "your spam folder. Otherwise contact us if you do not receive it in a "
        "few minutes.",
    ),
    _("Bad Token"),
    _(
        "The password reset link was invalid, possibly because it has already "
        'been used.  Please request a <a href="%(passwd_reset_url)s">new '
        "password reset</a>.",
    ),
    _("The password reset token was invalid."),
    _("Your password is now changed."),
    _("Cancel"),
)

# Changing or setting a password (account/password_change.html, password_set.html)
A_NEW_PASSWORD = (
    _("Change Password"),
    _("Current Password"),
    _("New Password"),
    _("New Password (again)"),
    _("Please type your current password."),
    _("Password successfully changed."),
    _("Set Password"),
    _("Password successfully set."),
)

# The email addresses (account/email.html and its messages)
EMAIL_ADDRESSES = (
    _("Email Addresses"),
    _("The following email addresses are associated with your account:"),
    _("Verified"),
    _("Unverified"),
    _("Primary"),
    _("Make Primary"),
    _("Re-send Verification"),
    _("Remove"),
    _("Add Email Address"),
    _("Add Email"),
    _("Do you really want to remove the selected email address?"),
    _("Warning:"),
    _(
        "You currently do not have any email address set up. You should really "
        "add an email address so you can receive notifications, reset your "
        "password, etc.",
    ),
    _("This email address is already associated with this account."),
    _("You cannot remove your primary email address."),
    _("You cannot add more than %d email addresses."),
    _("Your primary email address must be verified."),
    _("Be patient, you are sending too many requests."),
    _("Confirmation email sent to %(email)s."),
    _("Removed email address %(email)s."),
    _("Primary email address set."),
    _("You cannot remove your primary email address (%(email)s)."),
)

# Confirming an address (email_confirm.html, verification_sent.html, verified_email_required)
CONFIRMING_AN_ADDRESS = (
    _("Confirm Email Address"),
    _(
        'Please confirm that <a href="mailto:%(email)s">%(email)s</a> is an '
        "email address for user %(user_display)s.",
    ),
    _("Confirm"),
    _("You have confirmed %(email)s."),
    _("Unable to confirm %(email)s because it is already confirmed by a different account."),
    _(
        "This email confirmation link expired or is invalid. Please <a "
        'href="%(email_url)s">issue a new email confirmation request</a>.',
    ),
    _("Verify Your Email Address"),
    _(
        "We have sent an email to you for verification. Follow the link provided "
        "to finalize the signup process. If you do not see the verification "
        "email in your main inbox, check your spam folder. Please contact us if "
        "you do not receive the verification email within a few minutes.",
    ),
    _(
        "This part of the site requires us to verify that\n"
        "you are who you claim to be. For this purpose, we require that you\n"
        "verify ownership of your email address. ",
    ),
    _(
        "We have sent an email to you for\n"
        "verification. Please click on the link inside that email. If you do not "
        "see the verification email in your main inbox, check your spam folder. "
        "Otherwise\n"
        "contact us if you do not receive it within a few minutes.",
    ),
    _(
        '<strong>Note:</strong> you can still <a href="%(email_url)s">change '
        "your email address</a>.",
    ),
)

# Typing the code mailed at sign-up, or at a sign-in with an unconfirmed address
# (account/confirm_email_verification_code.html, its form, messages and email: decision 0034)
TYPING_THE_CODE = (
    _("Email Verification"),
    _("Enter Email Verification Code"),
    _("We've sent a code to %(recipient)s. The code expires shortly, so please enter it soon."),
    _("Code"),
    _("Request new code"),
    _("Incorrect code."),
    _(
        "Your email verification code is listed below. Please enter it in your open "
        "browser window.",
    ),
)

# Confirming it is you, and an inactive account (account/reauthenticate.html, account_inactive.html)
CONFIRMING_IT_IS_YOU = (
    _("Confirm Access"),
    _("Please reauthenticate to safeguard your account."),
    _("Enter your password:"),
    _("Incorrect password."),
    _("Account Inactive"),
    _("This account is inactive."),
)

# allauth's emails (account/email/): confirming an address, a forgotten password, a taken address
THEIR_EMAILS = (
    _("Hello from %(site_name)s!"),
    _("Thank you for using %(site_name)s!\n%(site_domain)s"),
    _("Please Confirm Your Email Address"),
    _(
        "You're receiving this email because user %(user_display)s has given "
        "your email address to register an account on %(site_domain)s.",
    ),
    _("To confirm this is correct, go to %(activate_url)s"),
    _("Password Reset Email"),
    _(
        "You're receiving this email because you or someone else has requested a "
        "password reset for your user account.\n"
        "It can be safely ignored if you did not request a password reset. Click "
        "the link below to reset your password.",
    ),
    _("Unknown Account"),
    _(
        "You are receiving this email because you, or someone else, tried to "
        "access an account with email %(email)s. However, we do not have any "
        "record of such an account in our database.",
    ),
    _("This mail can be safely ignored if you did not initiate this action."),
    _("If it was you, you can sign up for an account using the link below."),
    _("Account Already Exists"),
    _(
        "You are receiving this email because you or someone else tried to "
        "signup for an\n"
        "account using email address:\n"
        "\n"
        "%(email)s\n"
        "\n"
        "However, an account using that email address already exists.  In case "
        "you have\n"
        "forgotten about this, please use the password forgotten procedure to "
        "recover\n"
        "your account:\n"
        "\n"
        "%(password_reset_url)s",
    ),
)

# Django's words on those pages: a form's refusals and the password rules (AUTH_PASSWORD_VALIDATORS)
DJANGOS_WORDS = (
    _("This field is required."),
    _("Enter a valid email address."),
    _("Your password can’t be too similar to your other personal information."),
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
    ),
    _("Your password can’t be a commonly used password."),
    _("Your password can’t be entirely numeric."),
    _("The password is too similar to the %(verbose_name)s."),
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
    ),
    _("This password is too common."),
    _("This password is entirely numeric."),
)

EVERY_PAGE = (
    *SIGNING_IN,
    *SIGNING_UP,
    *SIGNING_OUT,
    *A_FORGOTTEN_PASSWORD,
    *A_NEW_PASSWORD,
    *EMAIL_ADDRESSES,
    *CONFIRMING_AN_ADDRESS,
    *TYPING_THE_CODE,
    *CONFIRMING_IT_IS_YOU,
    *THEIR_EMAILS,
    *DJANGOS_WORDS,
)
