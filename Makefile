# Two commands: `make run` (set up and start the server) and `make test` (set up and test).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCK := requirements.lock

.PHONY: run test lint format setup lock browser node clean

# The versions in requirements.lock: the tested set, within pyproject.toml's ranges.
$(STAMP): pyproject.toml $(LOCK)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --constraint $(LOCK) --upgrade pip
	$(BIN)/python -m pip install --quiet --constraint $(LOCK) -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

# A fresh .venv with the newest versions pyproject.toml allows, written to requirements.lock:
# run `make test` on it, then commit the lock.
lock:
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	{ echo "# The tested versions (pip constraints), from make lock on $$($(BIN)/python -V)"; \
	  $(BIN)/python -m pip freeze --all --exclude-editable; } > $(LOCK).tmp
	mv $(LOCK).tmp $(LOCK)
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/cardroom serve

# Headless Chromium for the browser tests, from Debian's packages (never a downloaded build).
browser:
	@test -x /usr/bin/chromium || { \
	  echo "installing Debian's chromium and chromium-driver"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; }

# Node, for the JavaScript example bot (examples/skip_bot.js), from Debian's packages.
node:
	@command -v node >/dev/null || { \
	  echo "installing Debian's nodejs"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs >/dev/null; }

# PostgreSQL and Redis for the tests: the machine's when they answer, else throwaway ones
# (scripts/test-services; CARDROOM_TEST_SERVICES=throwaway forces those).
test: $(STAMP) browser node
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
