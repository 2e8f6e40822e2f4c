#!/usr/bin/env bash
# The offline app's directory (docs/offline.md): Pyodide from the npm registry (its
# tarball over https, the pinned integrity hash checked), networkx from PyPI, the core.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/offline_build.py "$@"
