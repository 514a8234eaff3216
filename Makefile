# make run  — set everything up and serve the demo championship at http://127.0.0.1:8000
# make test — set everything up and run every test (lint, format, migrations, pytest)

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# Run tests in parallel: one worker per core (override with PYTEST_WORKERS=1).
PYTEST_WORKERS ?= auto

.PHONY: run test install lint format messages clean bench

$(STAMP): pyproject.toml
	$(PYTHON) -c 'import sys; assert sys.version_info[:2] == (3, 11), "Python 3.11 is needed"'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	DEBUG=true DATABASE_URL= $(BIN)/python manage.py migrate --noinput
	DEBUG=true DATABASE_URL= $(BIN)/python manage.py demo
	DEBUG=true DATABASE_URL= $(BIN)/python manage.py runserver $(HOST):$(PORT)

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	# Against the SQLite default: the check needs no server, and CI's database is for the tests.
	DEBUG=true DATABASE_URL= $(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/pytest -n $(PYTEST_WORKERS) -m "not serial"
	# Tests that start servers or a database cluster of their own run apart.
	$(BIN)/pytest -m serial

# make bench — gunicorn + PostgreSQL + Redis under wrk; see docs/performance.md
bench: $(STAMP)
	$(BIN)/python bench/run.py $(BENCH_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

messages: $(STAMP)
	DEBUG=true $(BIN)/python manage.py makemessages --no-obsolete -l nb -l sv -l da --ignore=.venv --ignore=tests
	DEBUG=true $(BIN)/python manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
