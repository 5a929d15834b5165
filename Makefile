# The two commands of the README: `make run` (set up + play, embedded defaults) and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint setup clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

setup: $(STAMP)

# Everything needed to play on one machine: SQLite, an on-disk Celery broker, mail to the console.
run: $(STAMP)
	DEBUG=true $(PY) manage.py migrate --noinput
	DEBUG=true $(PY) manage.py seed_demo
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" DEBUG=true honcho -f Procfile.dev start

# The whole suite against PostgreSQL and Redis (DATABASE_URL / REDIS_URL, default: the local ones).
test: $(STAMP)
	$(PY) -m pytest -n 2 --dist loadfile

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	DEBUG=true $(VENV)/bin/mypy .
	$(VENV)/bin/lint-imports

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache .hypothesis
