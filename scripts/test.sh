#!/usr/bin/env bash
# Installs everything the test suite needs and runs all of it: lint, format, types, tests.
# Usage: bash scripts/test.sh [extra pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e '.[dev,postgres,web]'
# A real PostgreSQL server on loopback for the store tests (installs it with apt-get if missing).
if [ -x scripts/postgres.sh ]; then
  CROSSTABLE_TEST_PG_URL="$(bash scripts/postgres.sh)"
  export CROSSTABLE_TEST_PG_URL
fi
# Debian's Chromium for the page tests (Playwright drives it through executable_path).
if [ -x scripts/chromium.sh ]; then
  CROSSTABLE_CHROMIUM="$(bash scripts/chromium.sh)"
  export CROSSTABLE_CHROMIUM
fi
[ -x scripts/nginx.sh ] && bash scripts/nginx.sh >/dev/null  # nginx + nchan: tests/test_push_deploy.py
[ -x scripts/redis.sh ] && bash scripts/redis.sh >/dev/null  # Redis for two nginx: tests/test_push_redis.py
python3 -m ruff check .
python3 -m ruff format --check .
python3 -m mypy crosstable/core
python3 -m mypy crosstable
# In parallel (pytest-xdist): one worker per core, each with its own PostgreSQL database
# (tests/conftest.py); a file's tests stay together on one worker, in order, so that its
# module fixtures (a served web app, a browser) are built once. `-n 0` runs it serially.
python3 -m pytest -q -n auto --dist loadfile --durations=20 "$@"
