#!/usr/bin/env python
"""Run administrative tasks for the championship application."""

import os
import sys
from pathlib import Path


def main():
    from config import env

    # The development settings `make run` writes (DEBUG on, a secret key of its own), so that
    # a command run by hand in this checkout works as the README and the demo print it. The
    # environment wins; gunicorn (config.wsgi) never reads them (docs/configuration.md).
    development_file = Path(__file__).resolve().parent / env.DEVELOPMENT_FILE
    os.environ.update(env.development_settings(os.environ, development_file))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
