# The two set-up commands of the README: `make demo` and `make test`.
# Both create .venv with nothing but python3 and make on the machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SEED ?= 2026

.PHONY: demo example test lint typecheck native pytest pytest-reference interpreters browser wheel-smoke bench bench-compare bench-long docs clean golden native-sanitize

# The core rule, property and golden tests: run a second time on the pure-Python
# reference (BOHMISCH_WATTEN_NATIVE=0) and on every interpreter the package claims.
CORE_TESTS := tests/test_cards.py tests/test_deal.py tests/test_dealing.py \
	tests/test_exchange.py tests/test_play.py tests/test_scoring.py tests/test_phases.py \
	tests/test_state.py tests/test_state_machine.py tests/test_legal_iff_accepted.py \
	tests/test_golden.py tests/test_perft.py tests/test_pack36.py tests/test_views.py \
	tests/test_seats.py tests/test_rules_object.py tests/test_long_games.py
NATIVE_SOURCES := $(wildcard src/native/*.c src/native/*.h) setup.py

# Every install takes its exact versions from constraints.txt (pyproject.toml states
# the supported ranges; CI tests this one pick of them).
PIP_INSTALL = $(BIN)/python -m pip install --quiet -c constraints.txt

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamp files: reinstall only when pyproject.toml or constraints.txt changes.
$(VENV)/.run-installed: pyproject.toml constraints.txt | $(BIN)/python
	$(PIP_INSTALL) -e .
	touch $@ $(VENV)/.native-built

# The extras whose code the tests exercise: the arena's --plot and its Ray backend,
# the OpenSpiel, PettingZoo and Gymnasium adapters, the trained PolicyBot (PyTorch) and
# the server's PostgreSQL storage.
$(VENV)/.dev-installed: pyproject.toml constraints.txt | $(BIN)/python
	BOHMISCH_WATTEN_REQUIRE_NATIVE=1 $(PIP_INSTALL) -e '.[dev,plot,ray,openspiel,pettingzoo,gymnasium,train,postgres]'
	touch $@ $(VENV)/.run-installed $(VENV)/.native-built

$(VENV)/.docs-installed: pyproject.toml constraints.txt | $(BIN)/python
	$(PIP_INSTALL) -e '.[docs,pettingzoo,gymnasium]'
	touch $@ $(VENV)/.run-installed $(VENV)/.native-built

demo: $(VENV)/.run-installed
	$(BIN)/python -m bohmisch_watten --seed $(SEED)

# One script of examples/ with the project's interpreter (the system python3 does not
# have the package): make example NAME=greedy_bot ARGS="50 7"
NAME ?= random_game
ARGS ?=
example: $(VENV)/.run-installed
	$(BIN)/python examples/$(NAME).py $(ARGS)

test: lint typecheck pytest pytest-reference native-sanitize interpreters browser wheel-smoke

# The compiled core, rebuilt in place whenever its C sources change (the editable install
# built it once; here a compile error fails instead of falling back to Python).
$(VENV)/.native-built: $(NATIVE_SOURCES) | $(VENV)/.run-installed
	BOHMISCH_WATTEN_REQUIRE_NATIVE=1 $(PIP_INSTALL) --no-deps -e .
	touch $@

native: $(VENV)/.native-built

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(VENV)/.dev-installed
	$(BIN)/mypy --strict src

pytest: $(VENV)/.dev-installed $(VENV)/.native-built
	$(BIN)/pytest --ignore=tests/browser --cov --cov-branch --cov-report=term --cov-fail-under=95

pytest-reference: $(VENV)/.dev-installed
	BOHMISCH_WATTEN_NATIVE=0 $(BIN)/pytest -q -p no:cacheprovider $(CORE_TESTS)

# Python 3.12 and 3.13 beside the dev venv's 3.11: each builds the package with its own
# compiled core and runs the core tests against the installed package, and the compiled
# batch and solver against the Python ones (the heuristic's sums differ from 3.12 on).
interpreters: $(VENV)/.dev-installed
	$(BIN)/python .ci/interpreters.py $(CORE_TESTS) tests/test_native_batch.py \
		tests/test_native_solver.py

# The web table in a real browser: Debian's Chromium (/usr/lib/chromium/chromium; .ci/run
# installs it) driven by Playwright, in a pytest run of its own (sync Playwright and
# asyncio tests do not mix in one process).  Screenshots land in test-artifacts/.
# The accessibility audit (tests/browser/test_accessibility.py) injects axe-core, the exact
# version of tests/browser/package-lock.json, installed there by npm (.ci/run installs npm).
browser: $(VENV)/.dev-installed tests/browser/node_modules/.package-lock.json
	$(BIN)/pytest tests/browser -p no:cacheprovider

tests/browser/node_modules/.package-lock.json: tests/browser/package.json tests/browser/package-lock.json
	cd tests/browser && npm ci --no-audit --no-fund --loglevel=error

# The package as a user gets it: build the sdist and the wheel, twine check them, install
# the wheel (not editable) into fresh venvs -- no extras, then each extra alone -- and run
# the commands, the README's examples and each extra's entry point there.
wheel-smoke: $(VENV)/.dev-installed
	$(BIN)/python .ci/wheel_smoke.py

# The compiled core under AddressSanitizer and UndefinedBehaviorSanitizer: built with
# BOHMISCH_WATTEN_SANITIZE=1 into a temporary tree (the in-place build stays as it is),
# then the lockstep test against it, with fewer decisions (LOCKSTEP_DECISIONS).  libasan
# must be the first library loaded, hence LD_PRELOAD; PYTHONMALLOC=malloc lets ASan see
# every allocation; CPython's own leaks at exit are not ours (detect_leaks=0).
SANITIZE_DECISIONS ?= 60000
native-sanitize: $(VENV)/.dev-installed
	@dir=$$(mktemp -d) && trap 'rm -rf "$$dir"' EXIT && \
	mkdir -p "$$dir/lib" && cp -r src/bohmisch_watten "$$dir/lib/" && \
	rm -f "$$dir"/lib/bohmisch_watten/*.so && \
	BOHMISCH_WATTEN_SANITIZE=1 $(BIN)/python setup.py -q build_ext \
		--build-lib "$$dir/lib" --build-temp "$$dir/tmp" && \
	export LD_PRELOAD="$$(gcc -print-file-name=libasan.so)" ASAN_OPTIONS=detect_leaks=0 \
		PYTHONMALLOC=malloc PYTHONPATH="$$dir/lib" LOCKSTEP_DECISIONS=$(SANITIZE_DECISIONS) && \
	$(BIN)/python -c "import bohmisch_watten._native as n; print('sanitized core:', n.__file__)" && \
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/test_native_lockstep.py tests/test_native_batch.py \
		tests/test_native_solver.py

# Rewrite the golden playthroughs in tests/golden/ after an intended change (see its README).
golden: $(VENV)/.run-installed
	$(BIN)/python tests/golden/regenerate.py

# The documentation site: HTML with every warning an error, then every example on the
# pages and in the docstrings run by the doctest builder.  -E: always a fresh read, so
# a warning in a page that did not change still fails the build.
docs: $(VENV)/.docs-installed
	$(BIN)/sphinx-build -E -W --keep-going -q -b html -d docs/_build/doctrees docs docs/_build/html
	$(BIN)/sphinx-build -E -W --keep-going -b doctest -d docs/_build/doctrees docs docs/_build/doctest

bench: $(VENV)/.run-installed
	$(BIN)/python benchmarks/playout.py

# Side by side with OpenSpiel's C++ Hearts in the same process (installs open_spiel).
$(VENV)/.openspiel-installed: | $(BIN)/python
	$(PIP_INSTALL) open-spiel
	touch $@

bench-compare: $(VENV)/.run-installed $(VENV)/.openspiel-installed
	$(BIN)/python benchmarks/playout.py --compare

bench-long: $(VENV)/.run-installed
	$(BIN)/python benchmarks/long_game.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis .coverage docs/_build \
		tests/browser/node_modules
