#!/usr/bin/env bash
# Debian's Chromium for the page tests (Playwright drives it through executable_path).
# Prints only the path of the executable (scripts/system-packages.sh installs it).
set -euo pipefail
for candidate in /usr/bin/chromium /usr/bin/chromium-browser; do
  if [ -x "$candidate" ]; then
    echo "$candidate"
    exit 0
  fi
done
echo "chromium.sh: Chromium missing: run scripts/system-packages.sh (as root) first" >&2
exit 1
