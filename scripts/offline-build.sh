#!/usr/bin/env bash
# The offline app's directory (docs/offline.md): npm from Debian when it is missing (the
# build takes Pyodide from the npm registry with `npm pack`), then the build itself.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v npm >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null
fi
python3 scripts/offline_build.py "$@"
