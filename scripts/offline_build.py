"""Build the offline app (docs/offline.md) from a clone, before the package is installed:
``python scripts/offline_build.py [OUT]``. The same as ``crosstable offline build``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crosstable.offline.build import DEFAULT_OUT, build


def main(argv: list[str]) -> int:
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        print("usage: python scripts/offline_build.py [OUT]", file=sys.stderr)
        return 2
    out = Path(argv[0]) if argv else DEFAULT_OUT
    sizes = build(out)
    print(f"{out}: {len(sizes)} files, {sum(sizes.values())} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
