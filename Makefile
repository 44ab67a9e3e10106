# Harbormaster: the two commands a new user needs are `make demo` and `make test`.
# Both create .venv with Python 3.11 if it is missing and (re)install the
# project whenever pyproject.toml changes.

PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed

HOST ?= 127.0.0.1
PORT ?= 8000

# `make test` talks to this machine's PostgreSQL and Redis; override either,
# or empty both (`make test DATABASE_URL= REDIS_URL=`) for the embedded
# SQLite / in-memory mode (Celery eager in the test process).
DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/harbormaster
REDIS_URL ?= redis://127.0.0.1:6379/1
PYTEST_WORKERS ?= auto
# The real-browser tests save their screenshots (every board, the lobby, whole
# games played by clicks) here, one folder per test module.
HM_ARTEFACTS ?= $(CURDIR)/artefacts

.PHONY: demo test lint format install

install: $(INSTALLED)

$(PY):
	$(PYTHON) -m venv $(VENV)

# The bot SDK is its own distribution (sdk/python); the server uses it too.
$(INSTALLED): pyproject.toml sdk/python/pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -e ./sdk/python -e '.[dev]'
	touch $(INSTALLED)

# The demo runs on the embedded defaults unless DATABASE_URL/REDIS_URL are in
# your environment: the values above are passed only to the tests.
# demo_serve runs uvicorn (harbormaster.asgi:application, --forwarded-allow-ips "$TRUSTED_PROXIES")
# and the example bots in one process, so the bots answer while the site serves.
demo: $(INSTALLED)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py demo_setup --url http://$(HOST):$(PORT)
	$(PY) manage.py demo_serve --host $(HOST) --port $(PORT)

test: $(INSTALLED)
	$(VENV)/bin/lint-imports
	DATABASE_URL='$(DATABASE_URL)' REDIS_URL='$(REDIS_URL)' HM_ARTEFACTS='$(HM_ARTEFACTS)' \
		$(PY) -m pytest -n $(PYTEST_WORKERS)

lint: $(INSTALLED)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: $(INSTALLED)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .
