"""Settings of the championship application, read from the environment.

See ``docs/configuration.md`` for every variable.
"""

import os
from datetime import timedelta
from pathlib import Path

from django.utils.translation import gettext_lazy as _

from config import env
from core import country_names, lan

BASE_DIR = Path(__file__).resolve().parent.parent
ENV = os.environ

DEBUG = env.env_bool(ENV, "DEBUG", False)
# What `make run` writes for manage.py (DEBUG on, a key of its own): a server must not have it.
DEVELOPMENT_FILE = BASE_DIR / env.DEVELOPMENT_FILE
SECRET_KEY = env.secret_key(ENV, DEBUG)
# Earlier keys, newest first: links made with them (staff, entrants) keep working after a change.
SECRET_KEY_FALLBACKS = env.env_list(ENV, "SECRET_KEY_FALLBACKS", [])
ALLOWED_HOSTS = env.allowed_hosts(ENV, DEBUG, lan.lan_address)
CSRF_TRUSTED_ORIGINS = env.env_list(ENV, "CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "core.admin_apps.ChampionshipAdminConfig",  # django.contrib.admin, its own site
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "template_partials",
    "django_countries",
    "axes",
    "core",
    "championship",
    "registration",
    "judging",
    "results",
    "payments",
    # Above the apps: the organiser's control room and the interchange format.
    "control",
    "interchange",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Unchanged live-results polls are answered here, before sessions and the rest.
    "results.middleware.UnchangedPollMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # Norwegian browsers (no, nn, no-NO) get bokmål rather than English.
    "core.middleware.NorwegianMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Lets a mail queued deep in a service link back to the address the request came in at.
    "core.site_url.CurrentRequestMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "championship.middleware.ChampionshipMiddleware",
    # After the championship's language is active, so that a 429 speaks it.
    "core.throttle.ThrottleMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "config.context_processors.championship",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {"default": env.database_config(ENV, BASE_DIR)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CACHES = {"default": env.cache_config(ENV)}
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    # Refuses logins after repeated failures (django-axes), then the usual check.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Login is rate-limited per user name and address: a venue's judges share one
# address, so one forgotten password must not lock out the others.
AXES_FAILURE_LIMIT = env.env_int(ENV, "LOGIN_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = timedelta(minutes=env.env_int(ENV, "LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# A failed login is recorded under its username cut to the column's length: a
# stranger's 300-character "username" is refused like any other, never a 500.
AXES_USERNAME_CALLABLE = "core.throttle.axes_username"
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False
# The client's address: behind this many proxies, read from X-Forwarded-For
# (core/client_ip.py); with none, the connection's own. Lock-outs, the
# throttles and DRF all count clients by it.
TRUSTED_PROXY_COUNT = env.trusted_proxy_count(ENV)
AXES_CLIENT_IP_CALLABLE = "core.client_ip.client_ip"

# Public POSTs counted per client in the shared cache (core/throttle.py):
# generous enough for a registration rush from one venue's network.
THROTTLE_ENABLED = env.env_bool(ENV, "THROTTLE_ENABLED", True)
THROTTLE_RATES = {
    "registration": env.env_rates(ENV, "THROTTLE_REGISTRATION", ["30/m", "300/h"]),
    # The form's live check posts at each changed field.
    "registration-check": env.env_rates(ENV, "THROTTLE_REGISTRATION_CHECK", ["120/m", "1200/h"]),
    "password-reset": env.env_rates(ENV, "THROTTLE_PASSWORD_RESET", ["5/h"]),
    "entry-manage": env.env_rates(ENV, "THROTTLE_ENTRY_MANAGE", ["30/m", "300/h"]),
    # Opening a link and pressing its button count one each: about 30 sign-ins a minute.
    "sign-in": env.env_rates(ENV, "THROTTLE_SIGN_IN", ["60/m"]),
    # Asking for an organiser account (the form and the API together): a person asks once.
    "organiser-request": env.env_rates(ENV, "THROTTLE_ORGANISER_REQUEST", ["5/h"]),
}
# The views counted, by URL name, and the group of limits each counts against.
THROTTLE_VIEWS = {
    "registration:register": "registration",
    "api:entry-register": "registration",
    "registration:check": "registration-check",
    "password_reset": "password-reset",
    "results:entry_page": "entry-manage",
    "registration:withdraw": "entry-manage",
    "registration:accept": "entry-manage",
    "registration:judge_note": "entry-manage",
    "api:entry-own": "entry-manage",
    "api:entry-accept": "entry-manage",
    "api:entry-withdraw": "entry-manage",
    "sign_in": "sign-in",
    "organisers:request": "organiser-request",
    "api:organiser-requests": "organiser-request",
    # Asking for an organiser's sign-in link mails an address, as a password reset does.
    "organisers:link": "password-reset",
    "organisers:sign_in": "sign-in",
}
# With the cache down, let requests through rather than refuse every one.
RATELIMIT_FAIL_OPEN = True

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("nb", _("Norwegian Bokmål")),
    ("sv", _("Swedish")),
    ("da", _("Danish")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates in each language's own way (core/formats/), named in templates.
FORMAT_MODULE_PATH = "core.formats"
# Country names django-countries leaves in English in nb, sv or da: our catalogues say them.
COUNTRIES_OVERRIDE = country_names.OVERRIDE
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "core.static_storage.StaticFilesStorage"
        )
    },
}

globals().update(env.email_config(ENV))
# Seconds an SMTP connection may take: a mail server that hangs holds the outbox's sender
# that long per mail (mail that fails waits in the outbox, championship/outbox.py).
EMAIL_TIMEOUT = 10
# Off: requests only queue mail, and ``send_mail_outbox`` sends it, so a mail server that
# hangs never holds up a request. On: the request also sends its mail once it commits.
OUTBOX_SEND_AFTER_COMMIT = env.env_bool(ENV, "OUTBOX_SEND_AFTER_COMMIT", False)
# The site's address for QR codes and links in e-mails; unset, each request's own.
SITE_URL = env.site_url(ENV)
SERVER_EMAIL = DEFAULT_FROM_EMAIL  # noqa: F821 - set by email_config just above

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "api.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_PARSER_CLASSES": ["api.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Any DRF throttle counts the same client as core/client_ip.py.
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Speed-puzzling championship API",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # The documentation's assets are served from static files, not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # A category's kind and a capture's kind are both "kind": each enum keeps a name of its own.
    "ENUM_NAME_OVERRIDES": {
        "CategoryKindEnum": "championship.models.Category.Kind",
        "StatementLineStatusEnum": "payments.models.StatementLine.Status",
        # An entry's status, in its holder's view and in the organiser's list.
        "EntryStatusEnum": ["confirmed", "waitlisted", "offered", "withdrawn"],
    },
}

# Behind a proxy that terminates TLS (see docs/deploy.md).
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
if not DEBUG:
    SECURE_SSL_REDIRECT = env.env_bool(ENV, "SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^health/$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.env_int(ENV, "SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.env_bool(ENV, "SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env.env_bool(ENV, "SECURE_HSTS_PRELOAD", True)
    if not SECURE_HSTS_PRELOAD:
        # Turned off on purpose by the deployment: do not warn about it.
        SILENCED_SYSTEM_CHECKS = ["security.W021"]
SECURE_CONTENT_TYPE_NOSNIFF = True
# Content-Security-Policy: everything from the site itself, nothing inline but data.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        # The service worker that keeps the judges' table pages offline (/t/sw.js).
        "worker-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": ENV.get("LOG_LEVEL", "INFO")},
    # A refused request (403, 400) is one warning line, without a traceback.
    "filters": {"refusal": {"()": "config.log.RefusalWithoutTraceback"}},
    "loggers": {"django.request": {"filters": ["refusal"]}},
}
