"""The layers hold (issue 14; docs/architecture.md): checked on the source, with ast.

* the web layer reads and writes only through the services: it imports no module of
  the store (``crosstable.store.models`` above all), except that the application
  opens the store at start-up (``crosstable.store`` in ``web/app.py``);
* the core is pure: it imports only itself, the standard library and the few
  computation packages it already uses (no database, no web, no service);
* no module in ``crosstable/`` is over 600 lines (split instead);
* the web layer keeps no copy of the read model: a route reads a tournament's tables
  through the service (``site.service.crosstable(tid)``, ``site.service.revision(tid)``),
  never ``site.tables``, the service's ``read_model`` or ``service/tables.py`` itself.

Each check walks every import, also those inside functions and ``if TYPE_CHECKING``
blocks, relative ones resolved; the tests below also make sure each check finds an
offence in a module written to have one (so a check that finds nothing is not
mistaken for a layer that holds).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "crosstable"

#: what the web layer may import of the store, and where: opening it at start-up
WEB_STORE_ALLOWED = {("web/app.py", "crosstable.store")}

#: packages outside the standard library the core may use: pure computation (the Dutch
#: pairing's matching and weights, the race's integer programmes), no I/O
CORE_THIRD_PARTY = frozenset({"numpy", "networkx", "rustworkx", "scipy"})

#: the longest a module may be
MAX_LINES = 600

#: modules over MAX_LINES that other helpers are splitting this session (issue 14
#: items 3 and 4): each leaves this set when its split lands; the set must end empty
BEING_SPLIT: frozenset[str] = frozenset()  # (web/messages.py is 213 lines since issue 14.4)


def modules(root: Path = PACKAGE) -> Iterator[tuple[str, Path]]:
    """(path relative to ``root``, file) of every module under ``root``."""
    for path in sorted(root.rglob("*.py")):
        yield path.relative_to(root).as_posix(), path


def imports(path: Path, package: str = "crosstable", root: Path = PACKAGE) -> Iterator[str]:
    """Every module ``path`` imports, relative imports resolved (``from a import b`` gives
    ``a``, and ``a.b`` too when ``b`` is a module of the package)."""
    relative = path.relative_to(root).with_suffix("")
    here = [package, *relative.parts[:-1]]  # the package the module is in
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            yield module
            for alias in node.names:
                if _is_module(f"{module}.{alias.name}", package, root):
                    yield f"{module}.{alias.name}"


def _is_module(name: str, package: str, root: Path) -> bool:
    head, _, rest = name.partition(".")
    if head != package:
        return False
    path = root.joinpath(*rest.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def web_store_imports(root: Path = PACKAGE, package: str = "crosstable") -> list[str]:
    """``file: module`` for each import of the store by the web layer beyond the allowed."""
    store = f"{package}.store"
    found = []
    for name, path in modules(root / "web"):
        where = f"web/{name}"
        for module in imports(path, package, root):
            if module != store and not module.startswith(store + "."):
                continue
            if (where, module) not in WEB_STORE_ALLOWED:
                found.append(f"{where}: {module}")
    return found


def core_outside_imports(root: Path = PACKAGE, package: str = "crosstable") -> list[str]:
    """``file: module`` for each import by the core of anything but the core, the
    standard library and the allowed computation packages."""
    found = []
    for name, path in modules(root / "core"):
        for module in imports(path, package, root):
            top = module.split(".")[0]
            if top == package:
                if module == f"{package}.core" or module.startswith(f"{package}.core."):
                    continue
            elif top in sys.stdlib_module_names or top in CORE_THIRD_PARTY or top == "__future__":
                continue
            found.append(f"core/{name}: {module}")
    return found


#: what the web layer may not reach past the service for: the read model and its module
READ_MODEL_ATTRIBUTES = frozenset({"tables", "read_model"})
READ_MODEL_MODULE = "service.tables"


def web_read_model_uses(root: Path = PACKAGE, package: str = "crosstable") -> list[str]:
    """``file:line: code`` for each place in the web layer that reads the read model
    itself (``site.tables``, ``service.read_model``, an import of ``service/tables.py``)
    instead of asking the service (issue 14: web keeps no copy of the read model)."""
    found = []
    banned = f"{package}.{READ_MODEL_MODULE}"
    for name, path in modules(root / "web"):
        where = f"web/{name}"
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in READ_MODEL_ATTRIBUTES:
                found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
        found.extend(
            f"{where}: {module}"
            for module in imports(path, package, root)
            if module == banned or module.startswith(banned + ".")
        )
    return found


def long_modules(root: Path = PACKAGE) -> dict[str, int]:
    """Modules over MAX_LINES lines, with their lengths."""
    lengths = {
        name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in modules(root)
    }
    return {name: n for name, n in lengths.items() if n > MAX_LINES}


# -- the layers as they are ---------------------------------------------------------------


def test_the_web_layer_imports_no_store_module_but_opens_the_store_at_start_up() -> None:
    assert web_store_imports() == []


def test_the_web_layer_reads_tables_through_the_service() -> None:
    assert web_read_model_uses() == []


def test_the_core_imports_only_itself_the_standard_library_and_its_computation_packages() -> None:
    assert core_outside_imports() == []


def test_no_module_is_over_600_lines_except_those_being_split() -> None:
    over = long_modules()
    assert sorted(set(over) - BEING_SPLIT) == [], f"over {MAX_LINES} lines: {over}"
    # a module that got short leaves the set (so that it ends empty, and stays short)
    done = sorted(BEING_SPLIT - set(over))
    assert done == [], f"split already, remove from BEING_SPLIT: {done}"


# -- each check finds what it is there to find ------------------------------------------


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "crosstable"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for folder in {root, *(p.parent for p in root.rglob("*.py"))}:
        (folder / "__init__.py").touch()
    return root


def test_the_web_check_finds_store_imports_also_inside_functions_and_relative(
    tmp_path: Path,
) -> None:
    root = _package(
        tmp_path,
        {
            "store/models.py": "",
            "store/engine.py": "",
            "web/app.py": "from crosstable.store import Store, open_store\n",
            "web/views.py": "def f():\n    from crosstable.store.models import EventRow\n",
            "web/pages.py": "from ..store import models\n",
            "web/other.py": (
                "import crosstable.store.engine\nfrom crosstable.store import open_store\n"
            ),
        },
    )
    assert sorted(web_store_imports(root)) == [
        "web/other.py: crosstable.store",
        "web/other.py: crosstable.store.engine",
        "web/pages.py: crosstable.store",
        "web/pages.py: crosstable.store.models",
        "web/views.py: crosstable.store.models",
    ]


def test_the_read_model_check_finds_site_tables_and_the_module(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "service/tables.py": "",
            "web/site.py": "def get(site, tid):\n    return site.tables.get(tid)\n",
            "web/routes/page.py": (
                "def f(site):\n    from crosstable.service.tables import ReadModel\n"
                "    return site.service.read_model\n"
            ),
            "web/fine.py": "def f(site, tid):\n    return site.service.crosstable(tid)\n",
        },
    )
    assert sorted(web_read_model_uses(root)) == [
        "web/routes/page.py: crosstable.service.tables",
        "web/routes/page.py:3: site.service.read_model",
        "web/site.py:2: site.tables",
    ]


def test_the_core_check_finds_imports_of_other_layers_and_packages(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "core/model.py": "import json\nimport numpy\nfrom crosstable.core import text\n",
            "core/text.py": "from . import model\nfrom .model import x\n",
            "service/__init__.py": "",
            "store/models.py": "",
            "core/bad.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                "    from crosstable.service import Service\nimport sqlalchemy\n"
                "from ..store import models\n"
            ),
        },
    )
    assert sorted(core_outside_imports(root)) == [
        "core/bad.py: crosstable.service",
        "core/bad.py: crosstable.store",
        "core/bad.py: crosstable.store.models",
        "core/bad.py: sqlalchemy",
    ]


def test_the_length_check_counts_lines(tmp_path: Path) -> None:
    root = _package(
        tmp_path, {"a.py": "x = 1\n" * MAX_LINES, "b/c.py": "x = 1\n" * (MAX_LINES + 1)}
    )
    assert long_modules(root) == {"b/c.py": MAX_LINES + 1}
