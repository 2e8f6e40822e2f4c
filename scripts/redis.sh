#!/usr/bin/env bash
# Redis for the several-nginx test (tests/test_push_redis.py: two nginx/nchan sharing one
# Redis, docs/deploy.md "Several machines"): installs Debian's redis-server with apt-get
# when it is missing (root or sudo), and prints ONLY the path of redis-server.
# The test runs redis-server itself, as the current user, on a free loopback port in a
# temporary directory without persistence: nothing is started here, and the system's
# Redis service is stopped again if the package started it.
set -euo pipefail
find_redis() {
  command -v redis-server 2>/dev/null || { [ -x /usr/bin/redis-server ] && echo /usr/bin/redis-server; }
}
if [ -n "$(find_redis || true)" ]; then
  find_redis
  exit 0
fi
. "$(dirname "$0")/apt.sh"
apt_install redis.sh redis-server
# the package may start the system service on port 6379: the test does not need it
if command -v systemctl >/dev/null 2>&1; then $SUDO systemctl stop redis-server >/dev/null 2>&1 || true; fi
if [ -x /etc/init.d/redis-server ]; then $SUDO /etc/init.d/redis-server stop >/dev/null 2>&1 || true; fi
if [ -n "$(find_redis || true)" ]; then
  find_redis
else
  echo "redis.sh: redis-server could not be installed" >&2
  exit 1
fi
