# The two quick-start commands: `make run` and `make test`. .ci/run calls `make test`.
# `make run` installs only what kubegap needs to run; the test and lint tools come with `make test`
# (or `make setup`, for a developer's checkout).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test setup lint test-deps docs

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# Runtime dependencies only.
$(VENV)/.installed-runtime: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

# Runtime plus the test, lint and packaging tools (the `dev` extra).
$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed-runtime

setup: $(VENV)/.installed-dev

run: $(VENV)/.installed-runtime
	$(BIN)/kubegap serve

test-deps: setup
	bash scripts/test-deps

lint: setup
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

test: test-deps lint
	$(BIN)/pytest
