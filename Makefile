# make run  — install what running needs and serve the demo at http://127.0.0.1:8000, with the
#             site's workers beside the server; Ctrl-C stops them all
#             (HOST=0.0.0.0 lets phones on the same network in; FRESH=1 rebuilds the demo)
# make test — install the test tools too and run every test (lint, format, migrations, pytest)
# make test-deep — the generated and exhaustive tests again, in full (CI runs it after make test)
# make test-python PYTHON=python3.12 — the tests but the browser's and the servers', on another
#             Python that pyproject.toml admits (CI runs it with Ubuntu 24.04's 3.12)

# The distribution's Python where it is one pyproject.toml admits and can make a venv: Debian
# and Ubuntu build theirs with profile-guided and link-time optimisation, and the tests run
# about 15% faster on it than on a Python built without (pyenv's default build). Otherwise
# the first python3.11, then python3, on PATH.
PYTHON ?= $(shell for p in /usr/bin/python3 $$(command -v python3.11) $$(command -v python3); do \
	"$$p" -c 'import sys, ensurepip; assert (3, 11) <= sys.version_info[:2] <= (3, 13)' \
	2>/dev/null && { echo "$$p"; break; }; done)
VENV := .venv
BIN := $(VENV)/bin
# Two installs: what running needs, and that plus the test tools (Playwright, OpenCV …).
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
# Quiet: no progress, no notice of a newer pip, no warnings about index locations.
PIP := $(BIN)/python -m pip install --quiet --quiet --disable-pip-version-check --no-input
HOST ?= 127.0.0.1
PORT ?= 8000
# Run tests in parallel: one worker more than cores, as the browser tests spend part of their
# time waiting on a page (override with PYTEST_WORKERS=1). A worker that runs out of tests
# takes some of another's (worksteal): pytest-django puts the slow browser and concurrency
# tests last, and the default scheduler had handed them to one worker in big chunks.
PYTEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || sysctl -n hw.ncpu) + 1 )))
# Python keeps the tests' compiled, assert-rewritten modules for the next run and for every
# worker and subprocess, even where the environment sets PYTHONDONTWRITEBYTECODE.
PYTEST := PYTHONDONTWRITEBYTECODE= $(BIN)/pytest

.PHONY: run test test-deep test-python install lint format messages clean bench

$(BIN)/python:
	@$(PYTHON) -c 'import sys; assert (3, 11) <= sys.version_info[:2] <= (3, 13), "Python 3.11 to 3.13 is needed"'
	$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	@echo "Installing what running needs into $(VENV) (once) …"
	@$(PIP) -e .
	@touch $(RUN_STAMP)

# The dev install holds the runtime one: `make run` after `make test` installs nothing.
$(DEV_STAMP): pyproject.toml | $(BIN)/python
	@echo "Installing the application and its test tools into $(VENV) (once) …"
	@$(PIP) -e '.[dev]'
	@touch $(RUN_STAMP) $(DEV_STAMP)

install: $(DEV_STAMP)

# The development settings of this checkout, made once: DEBUG on and a secret key of its own.
# manage.py reads them, so the commands the README and the demo print work as printed
# (config/env.py, docs/configuration.md).
DEVELOPMENT_FILE := development.env
$(DEVELOPMENT_FILE): | $(RUN_STAMP)
	@$(BIN)/python -c 'from config.env import development_file_write as w; w("$@")'

# What `make run` runs with: SQLite in the project (a DATABASE_URL of the shell is not used),
# and every line of output at once.
RUN_ENV := DEBUG=true DATABASE_URL= PYTHONUNBUFFERED=1

# The demo's summary (addresses, passwords) is the last thing printed before the server starts.
# Then honcho runs Procfile.dev: the server and the site's three workers beside it, the
# outbox's (requests only queue e-mail, the worker sends it, to this console without
# EMAIL_HOST), the registration deadlines' (offers and payment deadlines lapse) and the
# imports' (a large CSV import is imported by it while its page shows the progress). Each
# line is prefixed with its process's name; Ctrl-C (or SIGTERM to make) stops them all.
run: $(RUN_STAMP) $(DEVELOPMENT_FILE)
	@$(RUN_ENV) $(BIN)/python manage.py migrate --noinput --verbosity 0
	@$(RUN_ENV) $(BIN)/python manage.py demo $(if $(FRESH),,--keep) --address $(HOST):$(PORT)
	@exec env $(RUN_ENV) HOST=$(HOST) PATH="$(CURDIR)/$(BIN):$$PATH" \
		$(BIN)/honcho start -f Procfile.dev -p $(PORT)

test: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	# The layers (pyproject.toml, docs/architecture.md): no import runs upward.
	$(BIN)/lint-imports
	# Against the SQLite default: the check needs no server, and CI's database is for the tests.
	DEBUG=true DATABASE_URL= $(BIN)/python manage.py makemigrations --check --dry-run
	$(PYTEST) -n $(PYTEST_WORKERS) --dist worksteal -m "not serial"
	# Tests that start servers or a database cluster of their own run apart (those that
	# install the site onto the machine itself only where asked: .ci/run).
	$(PYTEST) -m "serial and not installs"

# The tests marked deep (Hypothesis's, schemathesis's, the hostile-input sweep) with their full
# numbers of examples and every hostile value at every URL; make test runs them quick
# (tests/depth.py).
test-deep: $(DEV_STAMP)
	TEST_DEPTH=deep $(PYTEST) -n $(PYTEST_WORKERS) --dist worksteal -m "deep and not serial"

# The application on another Python (a server's distribution has its own: Debian 12 3.11,
# Ubuntu 24.04 3.12, Debian 13 3.13), in a virtual environment of its own inside $(VENV).
OTHER_VENV = $(VENV)/other/$(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])')
test-python:
	@$(PYTHON) -c 'import sys; assert (3, 11) <= sys.version_info[:2] <= (3, 13), "Python 3.11 to 3.13 is needed"'
	@[ -x $(OTHER_VENV)/bin/python ] || $(PYTHON) -m venv $(OTHER_VENV)
	@echo "Installing the application and its test tools into $(OTHER_VENV) …"
	@$(OTHER_VENV)/bin/python -m pip install --quiet --quiet --disable-pip-version-check --no-input -e '.[dev]'
	PYTHONDONTWRITEBYTECODE= $(OTHER_VENV)/bin/pytest -n $(PYTEST_WORKERS) --dist worksteal -m "not serial and not browser"

# make bench — gunicorn + PostgreSQL + Redis under wrk; see docs/performance.md
bench: $(DEV_STAMP)
	$(BIN)/python bench/run.py $(BENCH_ARGS)

lint: $(DEV_STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

messages: $(RUN_STAMP)
	DEBUG=true $(BIN)/python manage.py makemessages --no-obsolete -l nb -l sv -l da --ignore=.venv --ignore=tests
	DEBUG=true $(BIN)/python manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
