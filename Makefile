# Two commands: `make run` (set up and start the server) and `make test` (set up and test).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCK := requirements.lock

# Python keeps the bytecode of what it imports (__pycache__, ignored by git) even where the
# environment says not to (PYTHONDONTWRITEBYTECODE, which some containers set): without it,
# every process the suite starts (its workers, servers, commands, bot programs) compiles the
# package anew, and pytest rewrites every test file's asserts anew in each worker (collecting
# the suite: 9.2 CPU-s without the caches, 4.1 with them).
export PYTHONDONTWRITEBYTECODE :=

.PHONY: bundle run test test-fast lint format setup lock browser node nginx clean compiled pure refresh-compiled

# The versions in requirements.lock: the tested set, within pyproject.toml's ranges.
$(STAMP): pyproject.toml $(LOCK)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --constraint $(LOCK) --upgrade pip
	$(BIN)/python -m pip install --quiet --constraint $(LOCK) -e '.[dev]'
	touch $(STAMP)

# Optional (issue 16): Skip's and Skyjo's engines and their bots' search (greedy, planner,
# expert; Skyjo's counter and search) compiled by mypyc, in place (an extension beside each
# .py, imported first while its source is unchanged: cardroom/build.py); any of their sources
# changed makes setup and test build it again. About 40 s of CPU; pure Python, with a note, when gcc, Python's headers
# or mypyc are missing. setup, run and CI try it; test only refreshes a build already there;
# `make pure` removes it.
COMPILED := src/cardroom/compiled-sources.txt
COMPILED_FROM := $(wildcard src/cardroom/build.py src/cardroom/games/*.py \
	src/cardroom/games/skip/*.py src/cardroom/bots/greedy.py \
	src/cardroom/bots/planner.py src/cardroom/bots/expert.py \
	src/cardroom/games/skyjo/*.py src/cardroom/bots/skyjo/*.py)

$(COMPILED): $(STAMP) $(COMPILED_FROM)
	@scripts/build-compiled $(BIN)/python

compiled: $(STAMP)
	scripts/build-compiled $(BIN)/python

pure:
	scripts/build-compiled --remove

refresh-compiled: $(STAMP)
	@if [ -f $(COMPILED) ]; then $(MAKE) --no-print-directory $(COMPILED); fi

setup: $(STAMP) $(COMPILED)

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

# `make run PORT=8080 HOST=0.0.0.0`: where to listen (unset: CARDROOM_PORT and CARDROOM_HOST,
# else 127.0.0.1:8000; server/settings.py).
run: $(STAMP) $(COMPILED)
	$(BIN)/cardroom serve $(if $(HOST),--host '$(HOST)') $(if $(PORT),--port '$(PORT)')

# Headless Chromium for the browser tests, from Debian's packages (never a downloaded build):
# the tests drive chromium-headless-shell (a quarter less CPU than the full browser for the same
# pages, tests/web/conftest.py), the first-load bench the full chromium.
browser:
	@test -x /usr/bin/chromium -a -x /usr/bin/chromium-headless-shell || { \
	  echo "installing Debian's chromium, chromium-headless-shell and chromium-driver"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    chromium chromium-headless-shell chromium-driver >/dev/null; }

# nginx for tests/server/test_nginx.py (docs/deploy.md), and openssl for its certificate, from
# Debian's packages. A service the package starts (on port 80, under systemd) is stopped and
# disabled: the test runs nginx of its own.
nginx:
	@test -x /usr/sbin/nginx || { \
	  echo "installing Debian's nginx"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null; \
	  if [ -d /run/systemd/system ]; then systemctl disable --now nginx >/dev/null 2>&1 || true; fi; }
	@command -v openssl >/dev/null || { \
	  echo "installing Debian's openssl"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssl >/dev/null; }

# Node, for the JavaScript example bot (examples/skip_bot.js), from Debian's packages.
node:
	@command -v node >/dev/null || { \
	  echo "installing Debian's nodejs"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs >/dev/null; }

# The web client's bundles, one per page (src/cardroom/server/bundle.py), kept in the repository:
# run after editing a module (the suite fails while a bundle is stale; the server serves the
# modules themselves until it is made again). esbuild from npm, pinned by package-lock.json.
bundle: $(STAMP) node
	npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	$(BIN)/python -m cardroom.server.bundle --write

# The whole suite on one worker more than the cores (pytest-xdist; WORKERS=1 for one worker): a
# worker spends part of its time waiting for servers and browsers, which the extra worker fills
# (2 cores, idle, 1,673 tests: 3 workers 8 min 17 s; 4 workers 9 min 42 s; 2 workers were at 64%
# after 8 min). Each worker with its
# own ports, databases, Redis prefixes and browser (tests/resources.py). PostgreSQL and Redis:
# the machine's when they answer, else throwaway ones (scripts/test-services;
# CARDROOM_TEST_SERVICES=throwaway forces those).
WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
PYTEST := $(BIN)/python -m pytest -q -n $(WORKERS) --dist worksteal --durations=15

test: $(STAMP) browser node nginx refresh-compiled lint
	scripts/test-services $(PYTEST)

# The inner loop, in well under a minute: the engines, the bots' legality, the table master in
# process, the keeper and the pairing; no servers, browsers, databases or external programs.
FAST := tests/engine tests/bots tests/tables tests/keeper tests/matchmaking/test_pairing.py

test-fast: $(STAMP)
	$(PYTEST) -m 'not slow and not browser and not postgres' $(FAST)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy src/cardroom
	$(BIN)/lint-imports

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean: pure
	rm -rf $(VENV) var .pytest_cache .ruff_cache .mypy_cache
