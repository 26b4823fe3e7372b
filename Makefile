# onespec — `make help` lists the targets. Everything runs inside .venv, created on first use
# (and refreshed when pyproject.toml or constraints.txt change) from nothing but python3.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.DEFAULT_GOAL := all
.PHONY: all help venv runtime test check lint bench clean

help: ## List every target
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml constraints.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --constraint constraints.txt --editable '.[all]'
	@touch $(STAMP)

venv: $(STAMP) ## Create .venv and install onespec with every extra

all: runtime ## Build every output
	@echo "Outputs are up to date: validators_runtime/_generated/extra_specs.py"

runtime: $(STAMP) ## Generate the runtime lookup tables from the definitions
	$(BIN)/onespec generate runtime

test: $(STAMP) ## Run the test suite
	$(BIN)/python -m pytest

lint: $(STAMP) ## ruff: lint and formatting
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

check: $(STAMP) lint ## Regenerate every output in memory and fail on any drift; lint
	$(BIN)/onespec generate all --check

bench: $(STAMP) ## Run the benchmarks and print each figure
	$(BIN)/python -m benchmarks

clean: ## Remove .venv and caches
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis build *.egg-info
