# `make run` serves the API on an embedded AWS emulator; `make test` runs the whole suite, `make test-fast`
# the unit and API tests only (no local stack, browser, Schemathesis, generated clients, packaging, cfn-lint).
#
# `make run` installs requirements-run.txt only; test, lint, bench and deploy install requirements-dev.txt.
# Packages go in with uv when it can be installed into the venv (USE_UV=0: plain pip throughout).
PYTHON ?= python3
SUPPORTED_PYTHONS := 3.11 3.12 3.13
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
MOTO_PORT ?= 5000
USE_UV ?= 1
UV_VERSION := 0.13.9
MADE := $(VENV)/.made
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
DOCS_ASSETS := chalicelib/static/swagger-ui/VERSION
NODE_TOOLS := tools/contract/node_modules/.package-lock.json
PYTEST := $(BIN)/python -m pytest -n 2 -rs

# The venv is remade when its interpreter's version differs from $(PYTHON)'s (another PYTHON=, or an
# upgraded python3); a .venv without a working interpreter counts as different.
PYTHON_VERSION := $(shell $(PYTHON) -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])' 2>/dev/null)
VENV_VERSION := $(shell $(BIN)/python -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])' 2>/dev/null)
ifneq ($(PYTHON_VERSION),$(VENV_VERSION))
MADE_PREREQUISITES := remake-venv
endif
PYTHON_FOUND := $(if $(PYTHON_VERSION),is Python $(PYTHON_VERSION),was not found)

# uv when the venv has it, pip otherwise or when uv fails.
INSTALL = install() { \
	if [ -x $(BIN)/uv ] && $(BIN)/uv pip install --python $(BIN)/python --quiet "$$@"; then return 0; fi; \
	$(BIN)/python -m pip install --quiet --disable-pip-version-check "$$@"; }; install

.PHONY: run test test-fast test-iam bench lint install clean deploy remake-venv inbound-sms
remake-venv:

# Refuses an unsupported $(PYTHON) before touching .venv. A venv of another version is removed and made anew
# by scripts/make_venv.py (one of the same version, made by hand or by an older Makefile, is kept as it is).
$(MADE): $(MADE_PREREQUISITES)
	@$(PYTHON) -c 'import sys; sys.exit("%d.%d" % sys.version_info[:2] not in "$(SUPPORTED_PYTHONS)".split())' \
		2>/dev/null || { \
		echo "make: $(PYTHON) $(PYTHON_FOUND); supported: Python $(SUPPORTED_PYTHONS)." >&2; \
		echo "make: nothing was installed; choose one, e.g. make $(or $(MAKECMDGOALS),run) PYTHON=python3.12" >&2; \
		exit 2; }
	@if [ "$(VENV_VERSION)" != "$(PYTHON_VERSION)" ]; then \
		if [ -e $(VENV) ]; then echo "make: .venv is not Python $(PYTHON_VERSION): making it anew"; fi; \
		echo "make: making .venv with $(PYTHON) (Python $(PYTHON_VERSION))"; \
		$(PYTHON) scripts/make_venv.py $(VENV) $(if $(filter 1,$(USE_UV)),--uv $(UV_VERSION),--no-uv) || exit 1; \
	fi
	touch $@

$(RUN_STAMP): requirements.txt requirements-run.txt $(MADE)
	$(INSTALL) -r requirements-run.txt
	touch $@

$(DEV_STAMP): requirements-dev.txt $(RUN_STAMP)
	$(INSTALL) -r requirements-dev.txt
	touch $@

# Swagger UI for GET /docs, vendored in third_party/swagger-ui/ (docs/local-run.md says why); no network, no Node.
$(DOCS_ASSETS): scripts/docs_assets.py $(wildcard third_party/swagger-ui/*) | $(MADE)
	$(BIN)/python scripts/docs_assets.py

# openapi-typescript, openapi-fetch and tsc as the lock file pins them: tests/contract/test_generated_clients.py, docs/api.md "Quickest start".
$(NODE_TOOLS): tools/contract/package.json tools/contract/package-lock.json
	npm ci --prefix tools/contract --no-audit --no-fund --loglevel=error
	touch $(NODE_TOOLS)

install: $(DEV_STAMP) $(DOCS_ASSETS) $(NODE_TOOLS)

run: $(RUN_STAMP) $(DOCS_ASSETS)
	PORT=$(PORT) MOTO_PORT=$(MOTO_PORT) $(BIN)/python scripts/local_stack.py

# A text to the service as a person would send it (two-way SMS), with `make run` going: FROM=+1... TEXT=STOP
inbound-sms: $(RUN_STAMP)
	$(BIN)/python scripts/inbound_sms.py --from "$(FROM)" --text "$(TEXT)" --moto-port $(MOTO_PORT)

# -rs: every skipped test is listed with its reason at the end.
test: $(DEV_STAMP) $(DOCS_ASSETS) $(NODE_TOOLS)
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache
	$(PYTEST)

# The slow groups are marked `slow` by tests/conftest.py (SLOW_GROUPS); see pyproject.toml for the markers.
test-fast: $(DEV_STAMP) $(DOCS_ASSETS)
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache
	$(PYTEST) -m "not slow"

# Every function of the stack under its own deployed policy (.chalice/policy-<stage>-<fn>.json), marker `iam`:
# tests/utils/iam.py says how; part of `make test` too.
test-iam: $(DEV_STAMP) $(DOCS_ASSETS)
	$(BIN)/python -m pytest -p no:xdist -rs -m iam

# The one deploy path (docs/deploy.md): stack, settings, chalice deploy (python3.12), gateway, smoke test.
deploy: $(DEV_STAMP) $(DOCS_ASSETS)
	@test -n "$(STAGE)" || { echo "make deploy STAGE=dev|prod"; exit 2; }
	$(BIN)/python scripts/deploy.py --stage $(STAGE)

bench: $(DEV_STAMP) $(DOCS_ASSETS)
	$(BIN)/python scripts/bench.py

# The app's imports under an emulated aarch64 CPython: ARM64_ROOTFS=<arm64 tree> (scripts/arm64_imports.py).
arm64-imports: $(DEV_STAMP)
	$(BIN)/python scripts/arm64_imports.py --rootfs "$(ARM64_ROOTFS)"

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache

clean:
	rm -rf $(VENV) .chalice/deployments tools/contract/node_modules chalicelib/static/swagger-ui
