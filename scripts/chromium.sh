#!/usr/bin/env bash
# Debian's Chromium for the page tests (Playwright drives it through executable_path).
# Installs it with apt-get when it is missing; prints only the path of the executable.
set -euo pipefail
for candidate in /usr/bin/chromium /usr/bin/chromium-browser; do
  if [ -x "$candidate" ]; then
    echo "$candidate"
    exit 0
  fi
done
export DEBIAN_FRONTEND=noninteractive
apt-get update >/dev/null 2>&1
apt-get install -y --no-install-recommends chromium fonts-dejavu-core >/dev/null 2>&1
if [ -x /usr/bin/chromium ]; then
  echo /usr/bin/chromium
else
  echo "chromium could not be installed" >&2
  exit 1
fi
