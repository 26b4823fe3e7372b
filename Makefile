# onespec — `make help` lists the targets. Everything runs inside .venv, created on first use
# (and refreshed when pyproject.toml or constraints.txt change) from nothing but python3.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.DEFAULT_GOAL := all
# The peer programs the tests run against (Nova, Glance, Heat, Sahara, heat-agents, TripleO's
# templates), pinned in tests/peers/; under .peers/ unless ONESPEC_PEERS_DIR says elsewhere
# (`make clean` removes .peers/ only: a shared ONESPEC_PEERS_DIR stays).

DOCS_OUT := doc/build/html
SPHINX   := $(BIN)/sphinx-build -n -W --keep-going -j auto -b html doc/source $(DOCS_OUT)

.PHONY: all help venv system peers cloud outputs runtime metadefs schemas docs docs-check test test-fast check lint typecheck bench serve clean

help: ## List every target
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml constraints.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --constraint constraints.txt --editable '.[all]'
	@touch $(STAMP)

venv: $(STAMP) ## Create .venv and install onespec with every extra

# The system programs the tests run for real: Graphviz (the documentation), Node.js (its regular
# expressions check the JSON Schemas), PostgreSQL and OpenSSH's server (throwaway instances of
# their own). As root with apt, the missing ones are installed; otherwise one message names them.
system: ## Install the system programs the tests need, when missing (root and apt), or name them
	@missing=""; \
	command -v dot >/dev/null || missing="$$missing graphviz"; \
	command -v node >/dev/null || missing="$$missing nodejs"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null \
	  || missing="$$missing postgresql"; \
	test -x /usr/sbin/sshd || command -v sshd >/dev/null || missing="$$missing openssh-server"; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "Installing the system packages the tests need:$$missing"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -qq && apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	else \
	  echo "The tests need these system packages:$$missing." >&2; \
	  echo "Install them, then run make test again: sudo apt-get install$$missing" >&2; \
	  exit 2; \
	fi

peers: $(STAMP) ## Provide the peer programs the tests run against (first time: 1.8 GB, ~6 minutes)
	$(BIN)/python -m tests.peers provide

# Real nova-api 34.0.0 (with onespec's server filter, and stock) and glance-api 33.0.0 (with
# onespec's image filter) from the peers, on loopback, SQLite, no Keystone (tests/cloud/).
cloud: $(STAMP) peers ## Run a cloud in a box with onespec's filters until Ctrl-C; prints its clouds.yaml
	@$(BIN)/python -m tests.cloud

all: outputs ## Build every output and the documentation
	@if command -v dot >/dev/null; then $(MAKE) --no-print-directory docs; else \
	  echo "Skipped the documentation: it needs Graphviz's dot (apt-get install graphviz)."; fi

outputs: $(STAMP) ## Generate the runtime tables, the Glance metadefs and the JSON Schemas
	$(BIN)/onespec generate all
	@echo "Outputs: src/onespec/validators_runtime/_generated/, outputs/glance-metadefs/, outputs/schemas/"

docs: $(STAMP) ## Build the HTML documentation with Sphinx (needs Graphviz's dot)
	@command -v dot >/dev/null || { echo "make docs needs Graphviz's dot: apt-get install graphviz" >&2; exit 2; }
	$(SPHINX)
	@echo "HTML documentation: $(DOCS_OUT)/index.html"

docs-check: docs ## Build the docs, screenshot key pages in headless Chromium (doc/build/screenshots/), fail on what runs past its box
	$(BIN)/python doc/tools/screenshots.py

runtime: $(STAMP) ## Generate the runtime's tables (extra specs, plugin labels, API, components, template capabilities, images, flavor rules)
	$(BIN)/onespec generate runtime
	$(BIN)/onespec generate plugin-labels
	$(BIN)/onespec generate api
	$(BIN)/onespec generate components
	$(BIN)/onespec generate template-capabilities
	$(BIN)/onespec generate images
	$(BIN)/onespec generate flavor-rules

metadefs: $(STAMP) ## Generate the Glance metadata definitions (outputs/glance-metadefs/)
	$(BIN)/onespec generate metadefs

schemas: $(STAMP) ## Generate the JSON Schemas (outputs/schemas/)
	$(BIN)/onespec generate schemas

# The tests run on every core (pytest-xdist), a whole module to a worker, so that what a module
# builds once for its tests (a Sphinx project, a server) is built once. Compiled bytecode, pytest's
# rewritten test modules among it, is kept under .venv/pycache even where PYTHONDONTWRITEBYTECODE
# is set: compiling every module again costs half of the collection, and of each `onespec` process
# the tests start. Each target prints its wall time; PYTEST_WORKERS=0 runs in one process, and
# PYTEST_ARGS adds pytest's own options (-x, -k NAME, --durations=20, a path).
PYTEST_WORKERS ?= auto
PYTEST_ARGS ?=
PYTEST := PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(CURDIR)/$(VENV)/pycache \
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile $(PYTEST_ARGS)
timed = start=$$(date +%s); status=0; $(1) || status=$$?; \
	echo "$@: $$(( $$(date +%s) - start )) s wall"; exit $$status

test: $(STAMP) system peers ## Run the whole test suite (provides the system programs and the peers first)
	@$(call timed,$(PYTEST))

# The loop draws fewer generated examples than CI (the `fast` hypothesis profile: 100 a property,
# derandomised; 15 requests an API operation): every test runs, and `make test` draws them all.
test-fast: $(STAMP) system ## The contributor's loop: every test but the peers, install and slow ones
	@$(call timed,ONESPEC_HYPOTHESIS=$${ONESPEC_HYPOTHESIS:-fast} \
	  ONESPEC_SCHEMATHESIS_EXAMPLES=$${ONESPEC_SCHEMATHESIS_EXAMPLES:-15} \
	  $(PYTEST) -m "not peers and not install and not slow")

lint: $(STAMP) ## ruff: lint and formatting
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP) ## mypy: the types of src/onespec ([tool.mypy] in pyproject.toml)
	$(BIN)/mypy

check: $(STAMP) system lint typecheck ## Fail on drift of any generated file; lint; type-check; build the docs with -n -W
	$(BIN)/onespec generate all --check
	$(MAKE) --no-print-directory docs

bench: $(STAMP) ## Run the benchmarks and print each figure
	$(BIN)/python -m benchmarks

serve: $(STAMP) ## Create or upgrade the database, then run the API on 127.0.0.1:8386
	$(BIN)/onespec db upgrade
	$(BIN)/onespec serve

clean: ## Remove .venv, .peers, the built documentation and caches (never a shared ONESPEC_PEERS_DIR)
	rm -rf $(VENV) .peers doc/build .pytest_cache .ruff_cache .mypy_cache .hypothesis build *.egg-info
