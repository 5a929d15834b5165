"""Settings for the Lords turn server, all from the environment with checked, typed values.

Embedded defaults (SQLite, no Redis, an on-disk Celery broker, mail to the console) let
``make run`` work on a fresh machine; production sets ``DATABASE_URL``, ``REDIS_URL``,
``SECRET_KEY``, ``ALLOWED_HOSTS``, ``SITE_URL`` and the email settings. A bad value fails
loudly at start (django-environ raises ``ImproperlyConfigured``).
"""

import os
from datetime import timedelta
from pathlib import Path

import environ
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

VAR_DIR.mkdir(exist_ok=True)  # the embedded SQLite file, on-disk broker and outbox live here

env = environ.Env()
if (BASE_DIR / ".env").is_file():
    environ.Env.read_env(BASE_DIR / ".env")

DEBUG = env.bool("DEBUG", default=False)
# A development key is only ever used with DEBUG on; production must set its own.
SECRET_KEY = (
    env.str("SECRET_KEY", default="dev-only-insecure-key-do-not-use-in-production-0123456789")
    if DEBUG
    else env.str("SECRET_KEY")
)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
SITE_URL = env.url("SITE_URL", default="http://localhost:8000").geturl().rstrip("/")
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[SITE_URL])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "allauth",
    "allauth.account",
    "axes",
    "accounts",
    "games",
    "notifications",
    "leagues",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # After WhiteNoise: the pages get the policies, the static files they load need none.
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserPreferencesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # Last: turns a sign-in refused by the lockout into the 429 page (accounts/lockout.py).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "lords.urls"
WSGI_APPLICATION = "lords.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'lords.sqlite3'}"),
}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded run (``make run``): SQLite takes one writer at a time. A transaction
    # begun DEFERRED reads, then fails at once with "database is locked" when it comes to
    # write while another writes (two clients moving at once gave a 500: decision 0039);
    # begun IMMEDIATE it takes the write lock first and waits up to ``timeout`` seconds for
    # it (Django's docs, "SQLite notes": transactions behavior, "database is locked").
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20}
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's, with timestamps parsed by psycopg's C loader (lords/postgresql/base.py).
    DATABASES["default"]["ENGINE"] = "lords.postgresql"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Celery: Redis in production; with no REDIS_URL an on-disk broker, so the embedded run
# needs no external service and the web server, worker and beat still talk to each other.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL or "filesystem://")
if CELERY_BROKER_URL == "filesystem://":
    _broker_dir = VAR_DIR / "celery-broker"
    _broker_dir.mkdir(exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir),
        "data_folder_out": str(_broker_dir),
        "processed_folder": str(VAR_DIR / "celery-processed"),
        "control_folder": str(VAR_DIR / "celery-control"),
        "store_processed": False,
    }
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
# A task is acknowledged after it ran, and a task whose worker process was killed goes back
# to the queue (Redis redelivers an unacknowledged one after the visibility timeout): every
# task is idempotent, so running one twice is harmless and losing one is not. The real
# guarantee is in the database: leased outbox and email rows (docs/decisions/0012).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Two worker processes per core (Celery's default is one): an email spends about 40 % of its
# wall time waiting for PostgreSQL and the SMTP server, which other processes fill. On two
# cores, 4 processes delivered a backlog at 216 emails/s (median of 8 runs), 3 at 212 (7),
# 2 at 185 (10), at the same CPU per email (docs/decisions/0020-worker-processes.md). The
# cores this process may run on, not the host's (a container pinned to some of them);
# ``celery worker --concurrency N`` still wins (``make run`` uses one). Each process holds a
# database connection and about 100 MB: set WORKER_CONCURRENCY on a large host.
_CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
CELERY_WORKER_CONCURRENCY = env.int("WORKER_CONCURRENCY", default=2 * (_CORES or 1))
CELERY_TIMEZONE = "UTC"
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="celery")
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 600}
# The outbox of committed moves is drained this often; a claim (of an announcement, or of an
# email being sent) lapses after its lease, and a later run takes it again.
ANNOUNCE_EVERY_SECONDS = env.float("ANNOUNCE_EVERY_SECONDS", default=2.0)
ANNOUNCEMENT_LEASE_SECONDS = env.float("ANNOUNCEMENT_LEASE_SECONDS", default=300.0)
# An announcement a receiver keeps failing on is tried again at each lapse of its lease, then
# given up (kept, shown in the admin) this long after it was written, as emails are.
ANNOUNCEMENT_GIVE_UP_HOURS = env.float("ANNOUNCEMENT_GIVE_UP_HOURS", default=12.0)
NOTIFICATIONS_LEASE_SECONDS = env.float("NOTIFICATIONS_LEASE_SECONDS", default=300.0)
NOTIFICATIONS_RESEND_EVERY_SECONDS = env.float("NOTIFICATIONS_RESEND_EVERY_SECONDS", default=30.0)
# Periodic work (Celery beat): every task is idempotent, so a late or doubled tick is harmless;
# the frequent ones expire rather than pile up behind a busy worker.
# The players' events (the stream's and the webhooks') are kept this long, then pruned daily.
PLAYER_EVENTS_KEEP_DAYS = env.int("PLAYER_EVENTS_KEEP_DAYS", default=30)
WEBHOOKS_ALLOW_PRIVATE = env.bool("WEBHOOKS_ALLOW_PRIVATE", default=False)
"""Players' webhooks may go to loopback, private and link-local addresses (a receiver on
this machine, for testing; a private deployment): notifications/outbound.py."""
CELERY_BEAT_SCHEDULE = {
    "announce-moves": {
        "task": "games.tasks.announce_moves",
        "schedule": ANNOUNCE_EVERY_SECONDS,
        "options": {"expires": ANNOUNCE_EVERY_SECONDS * 5},
    },
    "sweep-deadlines": {"task": "games.tasks.sweep_deadlines", "schedule": 60.0},
    "send-reminders": {"task": "notifications.tasks.send_reminders", "schedule": 300.0},
    # Each player's digest at their hour: every hour on the hour (a missed tick catches up).
    "send-digests": {
        "task": "notifications.tasks.send_digests",
        "schedule": crontab(minute="0"),
        "options": {"expires": 3000},
    },
    "send-league-mail": {"task": "leagues.tasks.send_league_mail", "schedule": 60.0},
    "deliver-webhooks": {"task": "notifications.tasks.deliver_webhooks", "schedule": 30.0},
    "prune-player-events": {
        "task": "games.tasks.prune_player_events",
        "schedule": crontab(hour="4", minute="17"),
        "options": {"expires": 3600},
    },
    "remove-unconfirmed-accounts": {
        "task": "accounts.tasks.remove_unconfirmed",
        "schedule": crontab(hour="4", minute="41"),
        "options": {"expires": 3600},
    },
    "send-due-email": {
        "task": "notifications.tasks.send_due",
        "schedule": NOTIFICATIONS_RESEND_EVERY_SECONDS,
        "options": {"expires": NOTIFICATIONS_RESEND_EVERY_SECONDS * 2},
    },
}

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    # First: refuses every password check while the account or address is locked out.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.signup.SignupDetails"  # (the display name)
ACCOUNT_USER_MODEL_USERNAME_FIELD = None
# An address is confirmed before its account signs in, by a code mailed to it and typed on the
# next page (the browser keeps the sign-up's ?next=); a sign-up with a taken address looks
# the same and mails its owner instead (docs/decisions/0034-a-sign-up-tells-nothing.md).
ACCOUNT_EMAIL_VERIFICATION = env.str("ACCOUNT_EMAIL_VERIFICATION", default="mandatory")
# (allauth's codes need "mandatory": set otherwise, a development setting, the email is a link;
# a sign-up then tells whether an address has an account, as before decision 0034)
ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED = ACCOUNT_EMAIL_VERIFICATION == "mandatory"
ACCOUNT_EMAIL_VERIFICATION_SUPPORTS_RESEND = ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"  # (a sign-up's ?next= outlives its code)
# Sign-in lockout (docs/decisions/0007, accounts/lockout.py): one policy for every door that
# checks a password (web sign-in, HTTP Basic at /api/v1/tokens/, the admin). After
# SIGN_IN_FAILURE_LIMIT failures within SIGN_IN_LOCKOUT_MINUTES for one account, or from one
# address, every sign-in of it answers 429 (Retry-After) until that long after the last one.
SIGN_IN_FAILURE_LIMIT = env.int("SIGN_IN_FAILURE_LIMIT", default=10)
SIGN_IN_LOCKOUT_MINUTES = env.int("SIGN_IN_LOCKOUT_MINUTES", default=15)
if SIGN_IN_FAILURE_LIMIT < 1 or SIGN_IN_LOCKOUT_MINUTES < 1:
    raise ImproperlyConfigured("SIGN_IN_FAILURE_LIMIT and SIGN_IN_LOCKOUT_MINUTES are >= 1")
AXES_FAILURE_LIMIT = SIGN_IN_FAILURE_LIMIT
AXES_COOLOFF_TIME = timedelta(minutes=SIGN_IN_LOCKOUT_MINUTES)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]  # each counted on its own
AXES_USERNAME_CALLABLE = "accounts.lockout.account_of"
AXES_HANDLER = "accounts.lockout.LockoutHandler"  # axes' database handler, NUL-safe
AXES_LOCKOUT_CALLABLE = "accounts.lockout.locked_out_response"
AXES_RESET_ON_SUCCESS = False  # a sign-in to one's own account must not clear an address
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # a fixed lock, an honest Retry-After
AXES_DISABLE_ACCESS_LOG = True  # failures only: no log of every successful sign-in
# allauth's own failed-login limit is off: axes is the one policy (its other limits stay).
ACCOUNT_RATE_LIMITS = {"login_failed": None}
LOGIN_REDIRECT_URL = "/"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français"), ("it", "Italiano")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=str(VAR_DIR / "static"))
Path(STATIC_ROOT).mkdir(parents=True, exist_ok=True)
# WhiteNoise also serves straight from the apps' static folders, so the admin and the API
# docs have their assets even where ``collectstatic`` has not run (tests, benchmarks).
WHITENOISE_USE_FINDERS = True

EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
# An SMTP conversation gives up after this many seconds (well inside the email lease).
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=60)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Lords <turns@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Turn mail (notifications/): replies go to play+<signed token>@NOTIFICATIONS_REPLY_DOMAIN;
# a reminder goes out this many hours before a deadline (at most half the game's turn time).
NOTIFICATIONS_REPLY_DOMAIN = env.str(
    "NOTIFICATIONS_REPLY_DOMAIN", default=DEFAULT_FROM_EMAIL.rstrip(">").rpartition("@")[2]
).lower()
NOTIFICATIONS_REMIND_BEFORE_HOURS = env.float("NOTIFICATIONS_REMIND_BEFORE_HOURS", default=12.0)
# The inbound webhook (/anymail/<provider>/inbound/, e.g. Postmark's): "user:password" the
# provider sends as HTTP basic auth. Unset: the webhook refuses every post (docs/decisions/0005).
ANYMAIL = {"WEBHOOK_SECRET": env.str("ANYMAIL_WEBHOOK_SECRET", default="")}

# Limits of what a request may carry (docs/api.md): a larger body (files aside) is refused,
# by the API with 413; a JSON body nested deeper is refused by the API with 400
# (lords/api/parsers.py). Django's default size.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=2_621_440)
# The inbound mail webhook's own limit (notifications/webhooks.py): a 25 MB email (what the
# large mail providers accept), its attachments in base64 in the provider's JSON.
INBOUND_WEBHOOK_MAX_MEMORY_SIZE = env.int("INBOUND_WEBHOOK_MAX_MEMORY_SIZE", default=36_000_000)
API_MAX_JSON_DEPTH = env.int("API_MAX_JSON_DEPTH", default=32)
# A refused CSRF check answers the API's JSON error under /api/, Django's page elsewhere.
CSRF_FAILURE_VIEW = "lords.api.errors.csrf_failure"
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "lords.api.auth.TokenAuthentication",
        "lords.api.auth.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "lords.api.errors.exception_handler",
    # JSON only, whatever the Accept or ?format= (docs/decisions/0025; the schema and its
    # pages under /api/schema/ and /api/docs/ have their own renderers).
    "DEFAULT_RENDERER_CLASSES": [
        "lords.api.renderers.JSONRenderer",  # DRF's, saying engines' Texts in the language
    ],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "lords.api.renderers.ContentNegotiation",
    # JSON only (docs/decisions/0025): a form lost or mangled fields holding JSON; 415 else.
    "DEFAULT_PARSER_CLASSES": ["lords.api.parsers.JSONParser"],  # DRF's, with the depth limit
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # DRF's rules, one Redis round trip each (lords/api/throttling.py).
    "DEFAULT_THROTTLE_CLASSES": [
        "lords.api.throttling.AnonRateThrottle",
        "lords.api.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("THROTTLE_ANON", default="60/min"),
        "user": env.str("THROTTLE_USER", default="600/min"),
    },
}
# Creating a token checks a password (HTTP Basic): a stricter limit per address, on top.
THROTTLE_TOKEN_CREATE = env.str("THROTTLE_TOKEN_CREATE", default="30/min")
REST_KNOX = {"TOKEN_TTL": None, "AUTO_REFRESH": False}
SPECTACULAR_SETTINGS = {
    "TITLE": "Lords turn server API",
    "DESCRIPTION": "Play Lords of Vegas and Vegas at your own pace: read games, submit moves.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Serve Swagger UI from the package, not a CDN: the docs page works offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # No "validator" badge: it is an image from a third party (the CSP would block it).
    "SWAGGER_UI_SETTINGS": {"validatorUrl": None},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",  # (the default)
        "lords.api.schema.common_answers",
    ],
}

# Production hardening: on unless DEBUG (``manage.py check --deploy`` has no warnings).
SECURE = env.bool("SECURE", default=not DEBUG)
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=SECURE)
SESSION_COOKIE_SECURE = SECURE
CSRF_COOKIE_SECURE = SECURE
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000 if SECURE else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE
SECURE_HSTS_PRELOAD = SECURE
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp) and Permissions-Policy (django-permissions-policy),
# docs/decisions/0010. Nothing loads but our own files; no inline script or style (a page's
# look is in a stylesheet, its behaviour in a static script: templates keep no <script>,
# <style>, style="" or on...=""); no framing, no plugins, no <base>; forms post only here.
# The API docs add data: images (Swagger UI's icons) in lords/urls.py.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'none'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'none'"],
        "object-src": ["'none'"],
    },
}
# Powerful browser features the site does not use, denied to it and to anything it embeds.
PERMISSIONS_POLICY: dict[str, tuple[str, ...]] = dict.fromkeys(
    [
        "accelerometer",
        "autoplay",
        "browsing-topics",
        "camera",
        "display-capture",
        "encrypted-media",
        "fullscreen",
        "geolocation",
        "gyroscope",
        "hid",
        "idle-detection",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "picture-in-picture",
        "publickey-credentials-get",
        "screen-wake-lock",
        "serial",
        "usb",
        "xr-spatial-tracking",
    ],
    (),
)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
