# graphwalk-neo4j — everything a fresh machine needs goes through these targets.
SHELL := /bin/bash
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
PYTEST_ARGS ?=
# Neo4j release: the pinned LTS (neo4j/pom.xml's default) lives in neo4j/, any other in neo4j/<version>/ (docs/neo4j.md).
# A 5.x release takes APOC of its own number; the calendar line (2025+) has no APOC Core jar on Maven Central, so it
# takes the newest 5.26 one plus the neo4j-graph-algo jar its node functions need (APOC_VERSION= overrides).
NEO4J_PINNED := 5.26.5
NEO4J_VERSION ?= $(or $(GW_NEO4J_VERSION),$(NEO4J_PINNED))
export GW_NEO4J_VERSION := $(NEO4J_VERSION)
NEO4J_DIR := $(if $(filter $(NEO4J_PINNED),$(NEO4J_VERSION)),neo4j,neo4j/$(NEO4J_VERSION))
ifneq ($(filter 5.%,$(NEO4J_VERSION)),)
APOC_VERSION ?= $(NEO4J_VERSION)
NEO4J_MVN_FLAGS := -Dapoc.version=$(APOC_VERSION)
else
APOC_VERSION ?= $(NEO4J_PINNED)
NEO4J_MVN_FLAGS := -Dapoc.version=$(APOC_VERSION) -Dgraphalgo.version=$(APOC_VERSION)
endif
NEO4J_STAMP := $(NEO4J_DIR)/dist/.fetched

.PHONY: setup setup-base venv venv-base neo4j-fetch neo4j-up neo4j-down neo4j-status neo4j-logs test test-unit test-hostile lint onnx bench bench-load demo eval general-model serve clean

setup: venv neo4j-up  ## virtualenv + every extra and the test tools + Neo4j artifacts + Neo4j started (NEO4J_VERSION=2026.09.0: that line)

setup-base: venv-base neo4j-up  ## what `make demo` needs: the base install (walk, search, embed, ingest files, serve)

venv: $(BIN)/.installed

venv-base: $(BIN)/.installed-base

$(BIN)/.installed: pyproject.toml
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip "setuptools>=77" wheel
	$(BIN)/pip install -q -e '.[dev]'
	@touch $@ $(BIN)/.installed-base

$(BIN)/.installed-base: pyproject.toml
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip "setuptools>=77" wheel
	$(BIN)/pip install -q -e .
	@touch $@

neo4j-fetch: $(NEO4J_STAMP)

$(NEO4J_STAMP): neo4j/pom.xml
	mvn -B -q -f neo4j/pom.xml package -Dneo4j.version=$(NEO4J_VERSION) $(NEO4J_MVN_FLAGS) -Ddist.dir=$(abspath $(NEO4J_DIR))/dist
	@touch $@

neo4j-up: neo4j-fetch  ## idempotent; returns once Bolt and HTTP answer a query
	$(PY) -m graphwalk_neo4j.localserver up

neo4j-down:
	$(PY) -m graphwalk_neo4j.localserver down

neo4j-status:
	$(PY) -m graphwalk_neo4j.localserver status

neo4j-logs:
	$(PY) -m graphwalk_neo4j.localserver logs

test: setup  ## the whole suite against the real local Neo4j
	$(BIN)/pytest -q $(PYTEST_ARGS)

test-unit: venv
	$(BIN)/pytest -q tests/unit $(PYTEST_ARGS)

test-hostile: setup  ## the standing hostile probe alone (tests/hostile/, also part of `make test`)
	$(BIN)/pytest -q -m hostile $(PYTEST_ARGS)

lint: venv  ## ruff (rules + format), import contracts, mypy: what CI and pre-commit run
	$(BIN)/ruff check graphwalk_neo4j tests bench scripts
	$(BIN)/ruff format --check graphwalk_neo4j tests bench scripts
	$(BIN)/lint-imports
	$(BIN)/mypy graphwalk_neo4j tests

onnx: venv-base  ## export the packaged MiniLM to ONNX now, float and int8 (the embedders do it on first use otherwise)
	$(BIN)/python -m graphwalk_neo4j.embed.onnx export
	$(BIN)/python -m graphwalk_neo4j.embed.onnx export --int8

bench: setup  ## SCALE=100k,1m[,5m] adds the cost curves (own Neo4j on 7691, minutes to hours)
	$(BIN)/python -m bench.run
	$(if $(SCALE),$(BIN)/python -m bench.scale --scale $(SCALE))

bench-load: setup  ## MetaQA three ways (ours, neo4j-admin import, neo4j-graphrag); point GW_NEO4J_URI at your own Neo4j
	$(BIN)/python -m bench.loadpath

demo: setup-base  ## the README's first command (the base install is enough)
	$(BIN)/python -m graphwalk_neo4j.demo

serve: setup  ## the HTTP + MCP service on 127.0.0.1:8765 (docs/service.md); HOST=/PORT= override
	$(BIN)/gw-neo4j serve $(if $(HOST),--host $(HOST)) $(if $(PORT),--port $(PORT))

general-model: setup  ## rebuild graphwalk_neo4j/data/models/general (--model general) from three dev graphs, ~4 min
	GW=$(BIN)/gw-neo4j scripts/build_general_model.sh

eval: setup
	$(BIN)/gw-neo4j eval metaqa --data ../shared/datasets/metaqa --split dev --hops 1,2,3 --n 1000 --system all

clean:
	rm -rf $(VENV) neo4j/target build *.egg-info
