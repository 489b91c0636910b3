# Stepwise: `make run` serves the dashboard, `make test` runs the tests. Both install into .venv first.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-requirements
PORT ?= 8501
export PYTHONPATH := $(CURDIR)

.PHONY: install run test bench clean

$(STAMP): requirements.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	@touch $(STAMP)

install: $(STAMP)

run: install
	$(PY) -m streamlit run dashboard/app.py --server.port $(PORT)

test: install
	$(PY) -m pytest

bench: install
	@for bench in tests/bench/bench_*.py; do echo "== $$bench"; $(PY) $$bench || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache test-output
