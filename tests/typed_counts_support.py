"""What the tests of typed code count: ``dict[str, Any]`` (and ``Mapping[str, Any]``)
in the package's modules, and the modules they count in."""

from __future__ import annotations

import re
from pathlib import Path

#: the package's folder; modules are named relative to it (``service/views.py``)
PACKAGE = Path(__file__).resolve().parent.parent / "crosstable"

UNTYPED_DICT = re.compile(r"dict\[\s*str\s*,\s*(?:typing\.)?Any\s*\]")
UNTYPED_MAPPING = re.compile(r"(?:dict|Mapping)\[\s*str\s*,\s*(?:typing\.)?Any\s*\]")


def count_untyped_dicts(text: str) -> int:
    """The ``dict[str, Any]`` in a module's source.

    >>> count_untyped_dicts("x: dict[str, Any]\\ny: dict[str,Any] | None\\nz: Mapping[str, Any]\\n")
    2
    """
    return len(UNTYPED_DICT.findall(text))


def count_untyped_mappings(text: str) -> int:
    """The ``dict[str, Any]`` and ``Mapping[str, Any]`` in a module's source.

    >>> count_untyped_mappings("x: dict[str, Any]\\nz: Mapping[str, Any]\\nw: dict[str, int]\\n")
    2
    """
    return len(UNTYPED_MAPPING.findall(text))


def package_sources(*patterns: str) -> dict[str, str]:
    """The source of every module the glob ``patterns`` (relative to the package) match,
    by its name relative to the package, in order of the patterns and then of the names."""
    found: dict[str, str] = {}
    for pattern in patterns:
        for path in sorted(PACKAGE.glob(pattern)):
            found[path.relative_to(PACKAGE).as_posix()] = path.read_text(encoding="utf-8")
    return found
