"""Extract the error templates of the code into crosstable/web/locale/errors.pot.

Issue 14 item 4. The ``errors`` gettext catalogue holds every message template
the product raises or builds: the first argument of a call of an error class
(CrosstableError's family), of ``Message(…)`` and the ``detail`` of an
``HTTPException``, when it is a literal, and the pieces marked with ``E_`` in
``crosstable/web/messages.py`` (texts that are looked up as a whole: states,
setting names). pybabel's own extractor would need every error class as a
keyword and misses ``detail=``, so this reads the code with :mod:`ast`::

    python scripts/extract_errors.py            # writes crosstable/web/locale/errors.pot
    cd crosstable/web
    pybabel update -D errors -i locale/errors.pot -d locale
    # translate the new entries of locale/ru/LC_MESSAGES/errors.po (no "fuzzy" left), then
    pybabel compile -D errors -d locale

``tests/test_web_messages.py`` fails when the .pot, the .po or the .mo is behind.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import pkgutil
import re
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "crosstable"
#: where errors that reach a reader are raised
SCANNED = ("service", "core", "web")
POT = PACKAGE / "web" / "locale" / "errors.pot"
PO = PACKAGE / "web" / "locale" / "ru" / "LC_MESSAGES" / "errors.po"
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def error_classes() -> set[str]:
    """Names of every error class the product raises on purpose (CrosstableError's family)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from crosstable.core.errors import CrosstableError

    for package in SCANNED:
        module = importlib.import_module(f"crosstable.{package}")
        for info in pkgutil.walk_packages(module.__path__, f"crosstable.{package}."):
            importlib.import_module(info.name)
    names: set[str] = set()
    todo: list[type] = [CrosstableError]
    while todo:
        cls = todo.pop()
        names.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    return names


def scanned_files() -> Iterator[tuple[str, ast.Module]]:
    for package in SCANNED:
        for path in sorted((PACKAGE / package).rglob("*.py")):
            yield (
                str(path.relative_to(ROOT)),
                ast.parse(path.read_text(encoding="utf-8")),
            )


def calls(tree: ast.AST, errors: set[str]) -> Iterator[tuple[ast.Call, str]]:
    """Every call of an error class, of ``Message`` and of ``HTTPException``, and which."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if name in errors:
            yield node, "error"
        elif name == "Message" and isinstance(func, ast.Name):
            yield node, "message"
        elif name == "E_" and isinstance(func, ast.Name):
            yield node, "piece"
        elif name == "HTTPException":
            yield node, "http"


def message_argument(call: ast.Call, kind: str) -> ast.expr | None:
    if kind == "http":
        detail = [k.value for k in call.keywords if k.arg == "detail"]
        return detail[0] if detail else (call.args[1] if len(call.args) > 1 else None)
    return call.args[0] if call.args else None


def template_literals(
    errors: set[str] | None = None,
) -> Iterator[tuple[str, int, str, set[str] | None]]:
    """(file, line, template, the names of the values given — None: not known) of every
    template written in the code that has words to translate."""
    errors = error_classes() if errors is None else errors
    for where, tree in scanned_files():
        for call, kind in calls(tree, errors):
            message = message_argument(call, kind)
            if not (isinstance(message, ast.Constant) and isinstance(message.value, str)):
                continue
            if not re.search(r"[A-Za-z]", PLACEHOLDER.sub("", message.value)):
                continue  # (no words: nothing to translate)
            given: set[str] | None = {k.arg for k in call.keywords if k.arg is not None}
            if kind in ("http", "piece") or any(k.arg is None for k in call.keywords):
                given = None
            yield where, call.lineno, message.value, given


def templates() -> list[str]:
    """Every template, once, in the order of the code."""
    return list(dict.fromkeys(text for _where, _line, text, _given in template_literals()))


def _po_order() -> list[str]:
    from babel.messages.pofile import read_po

    if not PO.exists():
        return []
    with PO.open("rb") as handle:
        return [str(m.id) for m in read_po(handle) if m.id and isinstance(m.id, str)]


def write_pot(path: Path = POT) -> int:
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    catalog = Catalog(project="crosstable", fuzzy=False)
    found = templates()
    # the order of the translated catalogue first (its diffs and merges stay small), then new ones
    known = [text for text in _po_order() if text in set(found)]
    for text in dict.fromkeys([*known, *found]):
        flags = ["python-brace-format"] if PLACEHOLDER.search(text) else []
        catalog.add(text, flags=flags)
    with path.open("wb") as handle:
        write_po(handle, catalog, omit_header=True, no_location=True, width=76)
    return len(catalog)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, default=POT)
    options = parser.parse_args()
    count = write_pot(options.output)
    print(f"{count} templates written to {options.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
