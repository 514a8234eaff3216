"""The production settings of a deployment test's gunicorn, with its own static root.

Everything comes from ``config.settings`` and the environment, as in
production; only the static files are collected into a directory of the test run
(``DEPLOYMENT_STATIC_ROOT``) rather than the project's ``staticfiles/``.
"""

import os

from config.settings import *  # noqa: F403

STATIC_ROOT = os.environ["DEPLOYMENT_STATIC_ROOT"]
