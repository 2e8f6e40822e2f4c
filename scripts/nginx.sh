#!/usr/bin/env bash
# nginx with the nchan module for the deployment test (tests/test_push_deploy.py) and the
# push benchmarks (bench/push_rig.py): prints ONLY the path of nginx when it and the nchan
# module are installed (scripts/system-packages.sh installs them). The tests run nginx
# themselves, as the current user, from a temporary directory (nginx -p DIR -c
# DIR/nginx.conf), and stop it: nothing is started here.
set -euo pipefail
MODULE=/usr/lib/nginx/modules/ngx_nchan_module.so
find_nginx() { command -v nginx 2>/dev/null || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; }; }
if [ -n "$(find_nginx || true)" ] && [ -f "$MODULE" ]; then
  find_nginx
  exit 0
fi
echo "nginx.sh: nginx and libnginx-mod-nchan missing: run scripts/system-packages.sh (as root) first" >&2
exit 1
