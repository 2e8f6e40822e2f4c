"""No import circles in the web layer (issue 14 item 5): the app factory imports the
route modules, the route modules import the site (web/site.py) and the shared page data
(routes/common.py), never the factory or each other in a loop.

Every import counts, a lazy one inside a function too: a circle hidden behind a
function-level import is still a circle (it only moves the failure to run time).
"""

from __future__ import annotations

import ast
from pathlib import Path

from test_architecture_imports import cycles

import crosstable
from crosstable.service.accounts import Accounts
from crosstable.service.forward import Forward
from crosstable.store import open_store

PACKAGE = Path(crosstable.__file__).parent


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)


def import_graph(folder: str) -> dict[str, set[str]]:
    """Module -> the modules of ``crosstable/<folder>`` it imports (anywhere in it).

    A package's ``__init__.py`` is no node: ``from crosstable.web import views`` is an
    arrow to ``crosstable.web.views``."""
    root = PACKAGE / folder
    modules = {
        _module_name(path): path for path in root.rglob("*.py") if path.name != "__init__.py"
    }
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            graph[name].update(t for t in targets if t in modules and t != name)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module."""
    return cycles(graph)


def test_the_graph_sees_the_imports() -> None:
    """The reader finds module-level and function-level imports (else the test below
    would pass on an empty graph)."""
    graph = import_graph("web")
    assert "crosstable.web.site" in graph["crosstable.web.routes.common"]
    assert "crosstable.web.routes.api" in graph["crosstable.web.app"]
    assert "crosstable.web.routes.common" in graph["crosstable.web.routes.pages"]


def test_circles_are_found() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_web_layer_has_no_import_circle() -> None:
    assert circles(import_graph("web")) == []


def test_no_route_module_imports_the_app_factory() -> None:
    graph = import_graph("web")
    importers = sorted(name for name, targets in graph.items() if "crosstable.web.app" in targets)
    assert importers == []


def test_the_accounts_parts_import_no_circle() -> None:
    """service/accounts: one module per job over a shared base (issue 14.5); before, the
    accounts and their entries' mixin imported each other."""
    graph = import_graph("service/accounts")
    assert "crosstable.service.accounts.base" in graph["crosstable.service.accounts.users"]
    assert circles(graph) == []


def test_each_accounts_part_keeps_its_public_methods() -> None:
    """The same public methods on Accounts as before it was composed of parts, each
    handed on to the part that does it; no part inherits another."""
    public = sorted(name for name in dir(Accounts) if not name.startswith("_"))
    assert public == [
        "access", "account_history", "adjust", "authenticate", "check_entry", "claim",
        "create_game_server", "create_token", "create_user", "entry_accounts", "entry_of",
        "entry_problems", "find_user", "flag", "game_servers", "grant", "granted",
        "level", "levels", "link_entry", "master", "pending", "playing", "plays_in_game",
        "record", "registration_problems", "revoke_game_server", "revoke_token", "role",
        "running_entries", "set_access", "set_game_server", "set_level", "set_levels",
        "set_master", "set_staff", "set_user", "staff", "token_for", "tokens", "unflag",
        "unlink_entry", "user", "user_for_token", "users",
    ]  # fmt: skip
    forwards = {name: vars(Accounts)[name] for name in public}
    assert all(isinstance(f, Forward) for f in forwards.values())
    owners = {name: f.method.__module__.rsplit(".", 1)[-1] for name, f in forwards.items()}
    assert owners["set_staff"] == "staff" and owners["check_entry"] == "eligibility"
    assert owners["create_token"] == "tokens" and owners["link_entry"] == "entries"
    assert owners["flag"] == "fair_play" and owners["create_user"] == "users"
    assert owners["set_levels"] == "levels" and owners["set_level"] == "fair_play"
    parts = {f.method.__qualname__.split(".")[0]: f.part for f in forwards.values()}
    assert len(set(parts.values())) == len(parts) == 8  # one attribute per part
    accounts = Accounts(open_store("sqlite:///:memory:"))
    classes = [type(getattr(accounts, part)) for part in parts.values()]
    assert sorted(c.__name__ for c in classes) == sorted(parts)
    assert Accounts.__bases__ == (object,)
    assert all(c.__bases__ == (object,) for c in classes)
