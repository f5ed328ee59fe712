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

# Runtime dependencies only; then the search index is built once (a few seconds, with a message),
# so the first search, page or MCP call does not pay for it.
$(VENV)/.installed-runtime: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	$(BIN)/kubegap incidents index
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

# The suite in two steps: everything but the wall-clock-bounded tests on $(TEST_WORKERS) workers
# (pytest-xdist; most tests wait on servers and subprocesses, so more workers than cores pays), then
# those few alone. While developing: `$(BIN)/pytest -n 4 -m "not slow"` (README, "Tests").
TEST_WORKERS ?= 4
# Both steps always run (a failure in the first still shows the second's), and either fails the target.
test: test-deps lint
	status=0; \
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile -m "not serial" || status=$$?; \
	$(BIN)/pytest -m serial || status=$$?; \
	exit $$status
