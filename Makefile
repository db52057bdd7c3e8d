# The two set-up commands of the README: `make demo` and `make test`.
# Both create .venv with nothing but python3 and make on the machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SEED ?= 2026

.PHONY: demo test lint typecheck pytest bench docs clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamp files: reinstall only when pyproject.toml changes.
$(VENV)/.run-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.run-installed

$(VENV)/.docs-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[docs]'
	touch $@

demo: $(VENV)/.run-installed
	$(BIN)/python -m bohmisch_watten --seed $(SEED)

test: lint typecheck pytest

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(VENV)/.dev-installed
	$(BIN)/mypy --strict src

pytest: $(VENV)/.dev-installed
	$(BIN)/pytest --cov --cov-branch --cov-report=term

bench: $(VENV)/.run-installed
	$(BIN)/python benchmarks/playout.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis .coverage docs/_build
