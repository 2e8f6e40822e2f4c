#!/usr/bin/env bash
# Redis for the several-nginx test (tests/test_push_redis.py: two nginx/nchan sharing one
# Redis, docs/deploy.md "Several machines"): prints ONLY the path of redis-server
# (scripts/system-packages.sh installs it). The test runs redis-server itself, as the
# current user, on a free loopback port in a temporary directory without persistence,
# and stops it: nothing is started here.
set -euo pipefail
find_redis() {
  command -v redis-server 2>/dev/null || { [ -x /usr/bin/redis-server ] && echo /usr/bin/redis-server; }
}
if [ -n "$(find_redis || true)" ]; then
  find_redis
  exit 0
fi
echo "redis.sh: redis-server missing: run scripts/system-packages.sh (as root) first" >&2
exit 1
