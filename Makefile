# `make run` serves the API on an embedded AWS emulator; `make test` runs the whole suite, `make test-fast`
# the unit and API tests only (no local stack, browser, Schemathesis, generated clients, packaging, cfn-lint).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
MOTO_PORT ?= 5000
STAMP := $(VENV)/.installed
DOCS_ASSETS := chalicelib/static/swagger-ui/VERSION
NODE_TOOLS := tools/contract/node_modules/.package-lock.json

.PHONY: run test test-fast bench lint install clean deploy

$(STAMP): requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $(STAMP)

# Swagger UI for GET /docs, fetched from the npm registry (not kept in the repository).
$(DOCS_ASSETS): scripts/docs_assets.py | $(STAMP)
	$(BIN)/python scripts/docs_assets.py

# openapi-typescript and tsc for tests/contract/test_generated_clients.py, as the lock file pins them.
$(NODE_TOOLS): tools/contract/package.json tools/contract/package-lock.json
	npm ci --prefix tools/contract --no-audit --no-fund --loglevel=error
	touch $(NODE_TOOLS)

install: $(STAMP) $(DOCS_ASSETS) $(NODE_TOOLS)

run: $(STAMP) $(DOCS_ASSETS)
	PORT=$(PORT) MOTO_PORT=$(MOTO_PORT) $(BIN)/python scripts/local_stack.py

test: $(STAMP) $(DOCS_ASSETS) $(NODE_TOOLS)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n 2

# The slow groups are marked `slow` by tests/conftest.py (SLOW_GROUPS); see pyproject.toml for the markers.
test-fast: $(STAMP) $(DOCS_ASSETS)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n 2 -m "not slow"

# The one deploy path (README, Deploy): stack, settings, chalice deploy (python3.12), gateway, smoke test.
deploy: $(STAMP) $(DOCS_ASSETS)
	@test -n "$(STAGE)" || { echo "make deploy STAGE=dev|prod"; exit 2; }
	$(BIN)/python scripts/deploy.py --stage $(STAGE)

bench: $(STAMP) $(DOCS_ASSETS)
	$(BIN)/python scripts/bench.py

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) .chalice/deployments tools/contract/node_modules
