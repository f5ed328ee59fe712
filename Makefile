# The two quick-start commands: `make run` and `make test`. .ci/run calls `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test setup lint test-deps docs

$(BIN)/kubegap: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

setup: $(BIN)/kubegap

run: setup
	$(BIN)/kubegap serve

test-deps: setup
	bash scripts/test-deps

lint: setup
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

test: test-deps lint
	$(BIN)/pytest
