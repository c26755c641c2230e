# ttr_lab: the two entry points of the README.
#   make lab   set up .venv and open JupyterLab on the first notebook
#   make test  set up .venv (and Chromium where possible) and run every test
#   make worksheets  the teachers' worksheets (docs/teachers) as HTML, and PDF with Chromium
#   make notebooks   run every lesson and student copy again and store their outputs (after a change)
#   make lite        the kit in a browser, offline: a JupyterLite site in build/lite/
#   make lite-serve  serve it (127.0.0.1:8000; LITE_HOST=0.0.0.0 for the classroom's network)
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
NB     := notebooks/01-learn-the-rules.ipynb
# more options for `jupyter lab` in make lab, e.g. make lab LAB_ARGS="--port=9999 --no-browser"
LAB_ARGS ?=

.PHONY: lab test check setup setup-test browser bench clean worksheets app notebooks lite lite-serve kernel

# what every lesson needs: [lab] (boards, widgets, JupyterLab) and [sim] (pandas, tqdm and dask,
# for lessons 06 and 07)
$(VENV)/.lab-installed: pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[lab,sim]"
	touch $@

$(VENV)/.test-installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $@ $(VENV)/.lab-installed $(VENV)/.app-installed

$(VENV)/.app-installed: pyproject.toml $(VENV)/.lab-installed
	$(PY) -m pip install --quiet -e ".[app]"
	touch $@

setup: $(VENV)/.lab-installed
setup-test: $(VENV)/.test-installed

# the compiled playout kernel (ttr_lab/bots/kernel/, issue 23): pip's editable install builds it in place
# when a C compiler is found (without one the install still succeeds and every playout runs in
# Python, with identical results: ttr_lab.analysis.kernel_info() says which); built again when its
# sources change.  HAVE_CC: whether the interpreter's C compiler is here (then make test requires
# the kernel: TTR_LAB_REQUIRE_KERNEL=1 fails tests/test_kernel.py if it was not built)
KERNEL_SRC := $(wildcard ttr_lab/bots/kernel/*.c ttr_lab/bots/kernel/*.h)
HAVE_CC := $(shell $(PYTHON) -c "import shutil, sysconfig; print(1 if shutil.which((sysconfig.get_config_var('CC') or 'cc').split()[0]) else 0)" 2>/dev/null || echo 0)
$(VENV)/.kernel-built: $(KERNEL_SRC) setup.py $(VENV)/.lab-installed
	$(PY) -m pip install --quiet --no-deps -e .
	touch $@
kernel: $(VENV)/.kernel-built

# the classroom app: the play widget as a web page without code cells (Voila), served on
# 127.0.0.1 only, behind a fresh token; the [app] extra brings voila.  apps/jupyter holds its
# Voila settings (voila.py: nothing fetched from outside, a page's kernel stops when the page
# closes or reloads) and its page template.
#   APP_CULL_IDLE  a kernel whose page vanished without closing (a browser killed) stops after
#                  this many seconds idle with no page connected (default 600, checked every
#                  APP_CULL_EVERY = 60 s); an open page keeps its game: make app APP_CULL_IDLE=1800
#   APP_KEY        the key game numbers are hashed with (TTR_LAB_APP_KEY): a fresh one at each
#                  start, printed for the teacher; set it to give a class the same deals again
#   APP_FILES      the one folder the scorer tab saves to and loads from (TTR_LAB_FILES)
APP_PORT ?= 8866
APP_CULL_IDLE ?=
APP_CULL_EVERY ?=
APP_KEY ?=
APP_FILES ?= $(CURDIR)/ttr_lab_files
APP_JUPYTER := $(CURDIR)/apps/jupyter
app: $(VENV)/.app-installed
	@TOKEN=$$($(PY) -c "import secrets; print(secrets.token_hex(16))"); \
	KEY="$(APP_KEY)"; [ -n "$$KEY" ] || KEY=$$($(PY) -c "import secrets; print(secrets.token_hex(16))"); \
	echo "The app: http://127.0.0.1:$(APP_PORT)/?token=$$TOKEN"; \
	echo "Game numbers key (make app APP_KEY=... gives the same deals again): $$KEY"; \
	echo "Score sheets folder: $(APP_FILES)"; \
	TTR_LAB_APP_KEY="$$KEY" TTR_LAB_FILES="$(APP_FILES)" \
	JUPYTER_CONFIG_PATH="$(APP_JUPYTER)$${JUPYTER_CONFIG_PATH:+:$$JUPYTER_CONFIG_PATH}" \
	JUPYTER_PATH="$(APP_JUPYTER)$${JUPYTER_PATH:+:$$JUPYTER_PATH}" \
	exec $(VENV)/bin/voila apps/play.ipynb --no-browser --Voila.ip=127.0.0.1 --port=$(APP_PORT) --token=$$TOKEN \
	  $(if $(APP_CULL_IDLE),--MappingKernelManager.cull_idle_timeout=$(APP_CULL_IDLE)) \
	  $(if $(APP_CULL_EVERY),--MappingKernelManager.cull_interval=$(APP_CULL_EVERY))

# JupyterLab's settings for make lab, in the venv's share/jupyter/lab/settings/overrides.json:
# binder/postBuild's (the "official Jupyter news?" pop-up off, as on Binder), and autosave off, so
# running a lesson writes nothing into the repository (JupyterLab saved a lesson two minutes after
# it ran, with new widget ids and outputs, and after opening it under another Python version, which
# rewrites its language_info); File > Save (Ctrl+S) still saves
LAB_OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.json
$(LAB_OVERRIDES): binder/postBuild Makefile $(VENV)/.lab-installed
	NB_PYTHON_PREFIX="$(abspath $(VENV))" bash binder/postBuild
	$(PY) -c 'import json, os, sys; p = sys.argv[1]; s = json.load(open(p)); \
	  s["@jupyterlab/docmanager-extension:plugin"] = {"autosave": False}; \
	  open(p + ".tmp", "w").write(json.dumps(s, indent=2) + "\n"); os.replace(p + ".tmp", p)' $@

# the file browser at the repository root (README.md, maps/), notebook 01 open in front: the
# address printed and opened is /lab/tree/notebooks/01-learn-the-rules.ipynb?token=...;
# --allow-root only when run as root (containers, CI machines)
lab: setup kernel $(LAB_OVERRIDES)
	$(VENV)/bin/jupyter lab $$( [ "$$(id -u)" = 0 ] && echo --allow-root ) --ServerApp.root_dir=. \
	  --LabApp.default_url=/lab/tree/$(NB) $(LAB_ARGS)

# run every lesson and student copy top to bottom and store the outputs (tools/run_notebooks.py;
# no widget state, so a notebook stays small; make test's nbval compares against these outputs)
notebooks: setup
	$(PY) tools/run_notebooks.py

# docs/teachers/*-worksheet.md -> build/worksheets/*.html (nbconvert's Markdown), and *.pdf when
# Chromium is installed (make browser installs Debian's; without it, HTML only: print it from a browser)
worksheets: setup
	$(PY) tools/make_worksheets.py --out build/worksheets docs/teachers/*-worksheet.md

# Debian's Chromium for the real-browser test (never `playwright install`).
APT := $(shell [ "$$(id -u)" = 0 ] && echo apt-get || { command -v sudo >/dev/null 2>&1 && echo "sudo apt-get"; })
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ -n "$(APT)" ]; then \
	    for try in 1 2; do $(APT) update -qq && $(APT) install -y -qq chromium >/dev/null && break; sleep 10; done; \
	  fi; \
	  command -v chromium >/dev/null 2>&1 || echo "chromium not installed: the browser tests will be skipped"; }

# the gates CI runs before the tests: lint, format, types, import layers
check: setup-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

test: check browser kernel lite
	TTR_LAB_REQUIRE_KERNEL=$(HAVE_CC) $(PY) -m pytest -p no:cacheprovider -q --runslow tests ttr_lab benchmarks/tests \
	  --nbval notebooks --nbval-sanitize-with notebooks/nbval-sanitize.cfg
	# the analysis again on the pure-Python playouts (as without a compiler): the same answers
	TTR_LAB_KERNEL=0 $(PY) -m pytest -p no:cacheprovider -q tests/test_kernel.py tests/test_advisor.py \
	  tests/test_odds.py tests/test_review.py tests/test_playout.py

# The kit in a browser, offline (JupyterLite, Python in WebAssembly): tools/build_lite.py builds a
# static site into build/lite/ from lite/ (its config, pins and wheels list), the pyodide npm
# package and wheels from PyPI, all kept in build/lite-cache/ so a second build needs no network.
# It needs no .venv: it makes its own in build/lite-cache/venv.  Any static web server can serve
# build/lite; make lite-serve is one (standard library, tools/serve_lite.py), on 127.0.0.1 unless
#   LITE_HOST  the address to listen on: 0.0.0.0 lets the classroom's machines in
#   LITE_PORT  the port (default 8000): make lite-serve LITE_HOST=0.0.0.0 LITE_PORT=8000
LITE_HOST ?= 127.0.0.1
LITE_PORT ?= 8000
lite:
	$(PYTHON) tools/build_lite.py

lite-serve:
	@[ -f build/lite/jupyter-lite.json ] || $(MAKE) lite
	$(PYTHON) tools/serve_lite.py --host $(LITE_HOST) --port $(LITE_PORT)

bench: setup
	$(PY) benchmarks/bench_engine.py
	$(PY) benchmarks/bench_memory.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
