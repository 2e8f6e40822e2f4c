#!/usr/bin/env bash
# The system packages the whole test suite needs, installed with apt-get (as root, or
# with `sudo -n`) when missing: PostgreSQL (store tests), Debian's Chromium (page tests,
# driven by Playwright through executable_path), nginx with nchan and redis-server (push
# tests). The only script that changes the machine; scripts/test.sh installs nothing of
# the system and says which package is missing. A service a package starts by itself
# (nginx on port 80, redis on 6379, the Debian PostgreSQL cluster) is stopped again:
# the tests run their own servers on loopback ports and stop them at the end.
set -euo pipefail
. "$(dirname "$0")/apt.sh"
missing=()
have_postgres() { command -v pg_config >/dev/null 2>&1 || ls -d /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; }
have_postgres || missing+=(postgresql)
{ [ -x /usr/bin/chromium ] || [ -x /usr/bin/chromium-browser ]; } || missing+=(chromium fonts-dejavu-core)
{ command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; } || missing+=(nginx)
[ -f /usr/lib/nginx/modules/ngx_nchan_module.so ] || missing+=(libnginx-mod-nchan)
{ command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ]; } || missing+=(redis-server)
if [ "${#missing[@]}" -eq 0 ]; then
  echo "system-packages.sh: everything is installed" >&2
  exit 0
fi
echo "system-packages.sh: installing ${missing[*]}" >&2
apt_install system-packages.sh "${missing[@]}"
# what the packages may have started: the tests do not use them
if command -v systemctl >/dev/null 2>&1; then
  $SUDO systemctl stop nginx redis-server postgresql >/dev/null 2>&1 || true
fi
for service in nginx redis-server postgresql; do
  [ -x "/etc/init.d/$service" ] && $SUDO "/etc/init.d/$service" stop >/dev/null 2>&1 || true
done
