#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server on a loopback port for the store tests and
# benchmarks, and prints ONLY its connection URL on stdout (everything else goes to
# stderr). Idempotent: a second run finds the running server and prints the same URL.
#
#   CROSSTABLE_TEST_PG_URL="$(bash scripts/postgres.sh)"
#
# `bash scripts/postgres.sh stop` stops it again (scripts/test.sh does, when it started it).
# PostgreSQL itself comes from scripts/system-packages.sh. Runs the server
# as a non-root user (the "postgres" system user when started as root). The server
# keeps PostgreSQL's default durability (fsync on, synchronous_commit on): it is the
# server the benchmarks measure too.
# Settings (environment): CROSSTABLE_PG_PORT (54329), CROSSTABLE_PG_DIR
# (/tmp/crosstable-pg), CROSSTABLE_PG_DB (crosstable_test).
set -euo pipefail

PORT="${CROSSTABLE_PG_PORT:-54329}"
BASE="${CROSSTABLE_PG_DIR:-/tmp/crosstable-pg}"
DB="${CROSSTABLE_PG_DB:-crosstable_test}"
DATA="$BASE/data"
LOG="$BASE/server.log"

say() { echo "postgres.sh: $*" >&2; }

find_bindir() {
  local dir
  if command -v pg_config >/dev/null 2>&1; then
    dir="$(pg_config --bindir 2>/dev/null || true)"
    if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then
      echo "$dir"
      return 0
    fi
  fi
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
      echo "$dir"
      return 0
    fi
  done
  return 1
}

BINDIR="$(find_bindir || true)"
if [ -z "$BINDIR" ]; then
  say "PostgreSQL is not installed: run scripts/system-packages.sh (as root) first"
  exit 1
fi

# The server never runs as root: as root, use (or create) the "postgres" system user.
if [ "$(id -u)" -eq 0 ]; then
  RUN_AS=postgres
  if ! id "$RUN_AS" >/dev/null 2>&1; then
    useradd --system --home-dir "$BASE" --shell /bin/sh "$RUN_AS" >&2
  fi
  run() { runuser -u "$RUN_AS" -- "$@"; }
else
  RUN_AS="$(id -un)"
  run() { "$@"; }
fi

if [ "${1:-}" = "stop" ]; then
  if [ -s "$DATA/PG_VERSION" ] && run "$BINDIR/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
    say "stopping the server on 127.0.0.1:$PORT"
    run "$BINDIR/pg_ctl" -D "$DATA" -w -t 60 -m fast stop >&2
  fi
  exit 0
fi
if [ "${1:-}" = "running" ]; then
  [ -s "$DATA/PG_VERSION" ] && run "$BINDIR/pg_ctl" -D "$DATA" status >/dev/null 2>&1
  exit $?
fi

mkdir -p "$BASE"
if [ "$(id -u)" -eq 0 ]; then
  chown "$RUN_AS" "$BASE"
fi

if [ ! -s "$DATA/PG_VERSION" ]; then
  say "creating a cluster in $DATA"
  run "$BINDIR/initdb" -D "$DATA" -U "$RUN_AS" --auth=trust --encoding=UTF8 \
    --locale=C.UTF-8 >&2 2>&1 || run "$BINDIR/initdb" -D "$DATA" -U "$RUN_AS" \
    --auth=trust --encoding=UTF8 --locale=C >&2 2>&1
fi

if ! run "$BINDIR/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
  say "starting the server on 127.0.0.1:$PORT"
  run "$BINDIR/pg_ctl" -D "$DATA" -l "$LOG" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -c port=$PORT -c unix_socket_directories=$BASE -c max_connections=200" \
    start >&2
fi

# Wait until it accepts connections, then make the database (once).
for _ in $(seq 1 60); do
  if run "$BINDIR/pg_isready" -q -h 127.0.0.1 -p "$PORT"; then
    break
  fi
  sleep 0.5
done
if ! run "$BINDIR/psql" -h 127.0.0.1 -p "$PORT" -U "$RUN_AS" -d postgres -tAc \
  "SELECT 1 FROM pg_database WHERE datname = '$DB'" | grep -q 1; then
  run "$BINDIR/createdb" -h 127.0.0.1 -p "$PORT" -U "$RUN_AS" "$DB" >&2
fi

echo "postgresql://$RUN_AS@127.0.0.1:$PORT/$DB"
