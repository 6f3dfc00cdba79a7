# Two commands: `make run` (set up and start the server) and `make test` (set up and test).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint format setup browser clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/cardroom serve

# Headless Chromium for the browser tests, from Debian's packages (never a downloaded build).
browser:
	@test -x /usr/bin/chromium || { \
	  echo "installing Debian's chromium and chromium-driver"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; }

# PostgreSQL and Redis for the tests: the machine's when they answer, else throwaway ones
# (scripts/test-services; CARDROOM_TEST_SERVICES=throwaway forces those).
test: $(STAMP) browser
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	scripts/test-services $(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache
