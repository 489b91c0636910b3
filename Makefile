# Stepwise: `make run` serves the dashboard, `make test` runs the tests, `make lint` checks the code.
# Each installs into .venv first, from the lock files (so a fresh clone installs what passed today): `run` only
# the runtime (requirements.lock), the others the dev tools as well (requirements-dev.lock). The ranges in
# requirements*.txt are the source; `make lock` resolves them again into the lock files.
# One system package besides Python: bubblewrap (`apt-get install bubblewrap`), the deep-research coder's sandbox. Without
# it the coder refuses to run code (and its tests are skipped); `run` and `test` say so.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP_VERSION := 26.3
RUNTIME := $(VENV)/.installed-runtime
DEV := $(VENV)/.installed-dev
PORT ?= 8501
LOCK_OPTIONS := --quiet --universal --python-version 3.11

.PHONY: install install-dev run test lint bench lock clean guard-model guard-eval

SANDBOX_NOTE = command -v bwrap >/dev/null || echo "note: bubblewrap is not installed (apt-get install bubblewrap): the \
deep-research coder will refuse to run code, and its sandbox tests are skipped"

$(RUNTIME): requirements.lock pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet "pip==$(PIP_VERSION)"
	$(PY) -m pip install --quiet -r requirements.lock
	$(PY) -m pip install --quiet --no-deps -e .
	@touch $(RUNTIME)

$(DEV): $(RUNTIME) requirements-dev.lock
	$(PY) -m pip install --quiet -r requirements-dev.lock
	@touch $(DEV)

install: $(RUNTIME)

install-dev: $(DEV)

run: install
	@$(SANDBOX_NOTE)
	$(PY) -m streamlit run dashboard/app.py --server.port $(PORT)

test: install-dev
	@$(SANDBOX_NOTE)
	$(PY) -m pytest

lint: install-dev
	$(PY) -m ruff check pipelines dashboard tests

bench: install-dev
	@for bench in tests/bench/bench_*.py; do echo "== $$bench"; \
		$(PY) -m tests.bench.$$(basename $$bench .py) || exit 1; done

# The learned injection model in assets/guardrails (the check asks it where the rules found part of an attack's
# evidence): fit it again from assets/guardrails/corpora after a corpus changes (same inputs, same bytes; a test says
# when it is stale); and measure the input check on every labelled corpus (with leave-one-source-out and latency).
guard-model: install-dev
	$(PY) -m pipelines.core.guardrails.train_model

guard-eval: install-dev
	$(PY) -m pipelines.core.guardrails.evaluate --loso --latency

# Resolve requirements*.txt again (newest versions in their ranges) into the lock files, then install them.
lock: install-dev
	$(VENV)/bin/uv pip compile $(LOCK_OPTIONS) requirements.txt -o requirements.lock
	$(VENV)/bin/uv pip compile $(LOCK_OPTIONS) requirements-dev.txt -c requirements.lock -o requirements-dev.lock
	$(PY) -m pip install --quiet -r requirements-dev.lock

clean:
	rm -rf $(VENV) .pytest_cache test-output *.egg-info
