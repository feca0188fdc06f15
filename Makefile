# The two commands a newcomer needs: `make run` and `make test`. See README.md.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000

# make test talks to real Postgres and Redis at their default local addresses.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/bookly
TEST_REDIS_URL ?= redis://127.0.0.1:6379/15
# make bench uses its own database and Redis db (the database is created if missing).
BENCH_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/bookly_bench
BENCH_REDIS_URL ?= redis://127.0.0.1:6379/5
BENCH_ARGS ?=
# make eval measures the guardrails on their own database and Redis db (the database is created if missing).
EVAL_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/bookly_eval
EVAL_REDIS_URL ?= redis://127.0.0.1:6379/14

.PHONY: install run test chaos lint format bench eval clean

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -r requirements.txt
	touch $@

install: $(VENV)/.installed

run: install
	PORT=$(PORT) ./scripts/run.sh

test: install
	./scripts/ensure_chromium.sh
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(PY) scripts/check_services.py
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) BOOKLY_LLM=offline ANTHROPIC_API_KEY= \
		$(PY) manage.py makemigrations --check --dry-run
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) BOOKLY_LLM=offline ANTHROPIC_API_KEY= \
		$(PY) -m pytest $(PYTEST_ARGS)

# The fault suite (tests/chaos, README "Reliability"): starts its own Postgres cluster and Redis
# on free ports (needs redis-server, initdb and pg_ctl), breaks them under load; about 6 minutes.
chaos: install
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) BOOKLY_LLM=offline ANTHROPIC_API_KEY= \
		$(PY) -m pytest tests/chaos -m chaos -s $(PYTEST_ARGS)

bench: install
	mkdir -p artifacts
	BENCH_DATABASE_URL=$(BENCH_DATABASE_URL) BENCH_REDIS_URL=$(BENCH_REDIS_URL) \
		$(PY) -m bench.run --private-redis --json artifacts/bench.json $(BENCH_ARGS)

eval: install
	mkdir -p artifacts
	EVAL_DATABASE_URL=$(EVAL_DATABASE_URL) EVAL_REDIS_URL=$(EVAL_REDIS_URL) $(PY) -m evals.run

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

clean:
	rm -rf var artifacts
