#!/usr/bin/env bash
# Runs the whole suite: lint, format, types, tests. Installs the Python packages (pip);
# the system's packages (PostgreSQL, Chromium, nginx + nchan, redis-server) come from
# scripts/system-packages.sh, and a missing one is named. Every server the run starts is
# stopped at the end (the PostgreSQL server only if this run started it; nginx and redis
# are started and stopped by the tests themselves).
# Usage: bash scripts/test.sh [extra pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e '.[dev,postgres,web]'
# A real PostgreSQL server on loopback for the store tests.
if ! bash scripts/postgres.sh running 2>/dev/null; then
  trap 'bash scripts/postgres.sh stop' EXIT
fi
CROSSTABLE_TEST_PG_URL="$(bash scripts/postgres.sh)"
export CROSSTABLE_TEST_PG_URL
# Debian's Chromium for the page tests (Playwright drives it through executable_path).
CROSSTABLE_CHROMIUM="$(bash scripts/chromium.sh)"
export CROSSTABLE_CHROMIUM
bash scripts/nginx.sh >/dev/null  # nginx + nchan: tests/test_push_deploy.py
bash scripts/redis.sh >/dev/null  # Redis for two nginx: tests/test_push_redis.py
# Compiled modules, and pytest's rewritten test modules, are kept between the processes of
# a run (each worker, and every server or command a test starts, would compile them again)
# and between runs, outside the working tree; Python checks each against its source.
export PYTHONPYCACHEPREFIX="${PYTHONPYCACHEPREFIX:-${TMPDIR:-/tmp}/crosstable-pycache-$(id -u)}"
unset PYTHONDONTWRITEBYTECODE
# Meanwhile, on the core the checks below leave idle, every test file is collected once, so
# that the compiled package and pytest's rewritten test modules are in that cache before the
# workers start: each worker collects every file (30 s from a cold cache, 12 s warm, on the
# test machine). Only a cache is made here: the run below reports anything wrong.
python3 -m pytest -q --collect-only -p no:xdist -p no:cacheprovider >/dev/null 2>&1 &
collecting=$!
python3 -m ruff check .
python3 -m ruff format --check .
python3 -m mypy crosstable/core
python3 -m mypy crosstable
wait "$collecting" || true
# In parallel (pytest-xdist): one worker per core, each with its own PostgreSQL database
# (tests/conftest.py); a file's tests stay together on one worker, in order, so that its
# module fixtures (a served web app, a browser) are built once. The files are handed out
# slowest first (tests/durations.json, in the order tests/conftest.py gives them; xdist's
# own reordering by number of tests is off), so that the workers finish together.
# `CROSSTABLE_RECORD_DURATIONS=tests/durations.json bash scripts/test.sh` records a run's
# figures for the next runs. `-n 0` runs it serially.
python3 -m pytest -q -n auto --dist loadfile --no-loadscope-reorder --durations=20 "$@"
