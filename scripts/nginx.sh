#!/usr/bin/env bash
# nginx with the nchan module for the deployment test (tests/test_push_deploy.py) and the
# push benchmarks (bench/push_rig.py): installs Debian's nginx and libnginx-mod-nchan with
# apt-get when they are missing (root or sudo), and prints ONLY the path of nginx.
# The tests run nginx themselves, as the current user, from a temporary directory
# (nginx -p DIR -c DIR/nginx.conf): nothing is started here, and the system's nginx
# service is stopped again if the package started it.
set -euo pipefail
MODULE=/usr/lib/nginx/modules/ngx_nchan_module.so
find_nginx() { command -v nginx 2>/dev/null || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; }; }
if [ -n "$(find_nginx || true)" ] && [ -f "$MODULE" ]; then
  find_nginx
  exit 0
fi
. "$(dirname "$0")/apt.sh"
apt_install nginx.sh nginx libnginx-mod-nchan
# the package may start the system service on port 80: the tests do not need it
if command -v systemctl >/dev/null 2>&1; then $SUDO systemctl stop nginx >/dev/null 2>&1 || true; fi
$SUDO nginx -s quit >/dev/null 2>&1 || true
if [ -n "$(find_nginx || true)" ] && [ -f "$MODULE" ]; then
  find_nginx
else
  echo "nginx.sh: nginx with nchan could not be installed" >&2
  exit 1
fi
