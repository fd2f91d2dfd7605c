# `make run` serves the API on an embedded AWS emulator; `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
MOTO_PORT ?= 5000
STAMP := $(VENV)/.installed

.PHONY: run test bench lint install clean

$(STAMP): requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	PORT=$(PORT) MOTO_PORT=$(MOTO_PORT) $(BIN)/python scripts/local_stack.py

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n 2

bench: $(STAMP)
	$(BIN)/python scripts/bench.py

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) .chalice/deployments
