"""Settings for the test suite: the application's own, with a fixed secret and fast hashing."""

import os

os.environ.setdefault("SECRET_KEY", "test-secret-key-only-for-the-test-suite-0123456789abcdef")

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"  # noqa: F405
SECURE_SSL_REDIRECT = False
# Static files come from the finders in tests; nothing is collected.
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# The test client logs in without a request, which django-axes refuses; the
# rate-limit test turns it back on.
AUTHENTICATION_BACKENDS = ["django.contrib.auth.backends.ModelBackend"]

# Tests post many times from one address; the throttle tests turn the limits on.
THROTTLE_ENABLED = False

# Each test process keeps its own cache: a shared Redis would let parallel test
# processes (each with its own database, hence the same ids) read each other's
# cached standings, and one process's cache.clear() empty the others'. Redis
# itself is exercised by the tests that configure it on purpose and by
# tests/deployment.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "tests",
    }
}

# Most tests read the mail a request sends right after it (capturing the commit's
# callbacks), as a site with OUTBOX_SEND_AFTER_COMMIT on sends it. The tests of the
# default, where only the outbox's sender sends, turn it off
# (tests/championship/test_outbox_off_the_request.py).
OUTBOX_SEND_AFTER_COMMIT = True
