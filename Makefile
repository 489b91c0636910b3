# Stepwise: `make run` serves the dashboard, `make test` runs the tests, `make lint` checks the code.
# Each installs into .venv first: `run` only the runtime (requirements.txt), the others the dev tools as well.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
RUNTIME := $(VENV)/.installed-runtime
DEV := $(VENV)/.installed-dev
PORT ?= 8501

.PHONY: install install-dev run test lint bench clean

$(RUNTIME): requirements.txt pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet --no-deps -e .
	@touch $(RUNTIME)

$(DEV): $(RUNTIME) requirements-dev.txt
	$(PY) -m pip install --quiet -r requirements-dev.txt
	@touch $(DEV)

install: $(RUNTIME)

install-dev: $(DEV)

run: install
	$(PY) -m streamlit run dashboard/app.py --server.port $(PORT)

test: install-dev
	$(PY) -m pytest

lint: install-dev
	$(PY) -m ruff check pipelines dashboard tests

bench: install-dev
	@for bench in tests/bench/bench_*.py; do echo "== $$bench"; \
		$(PY) -m tests.bench.$$(basename $$bench .py) || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache test-output *.egg-info
