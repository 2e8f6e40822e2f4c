"""The import rules of the whole package, checked on the source with ast.

* no import cycle anywhere: every import of a project module counts, at module level,
  inside a function or under ``if TYPE_CHECKING`` (a cycle hidden in a function only
  moves the failure to run time); ``from pkg import name`` where ``name`` is no module
  is an arrow to the package's ``__init__``;
* no private name (``_name``) is imported from another module: what two modules share
  is public in one of them;
* a module of the project is imported inside a function only by the command line, to
  defer a heavy module for start-up time, and each such import says so in a comment
  containing "deferred" (on its line or the line above).

Each rule is also run on a small package written to break it, so a check that finds
nothing is not mistaken for a rule that holds.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "crosstable"

#: where a project module may be imported inside a function (deferred for start-up time)
DEFERRING_ALLOWED = ("cli/",)


@dataclass(frozen=True)
class Import:
    """One import statement's arrow: ``module`` (the importer) takes ``names`` of ``target``."""

    module: str
    path: Path
    line: int
    target: str
    names: tuple[str, ...]
    in_function: bool


def module_name(path: Path, root: Path) -> str:
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path) -> dict[str, Path]:
    return {module_name(path, root): path for path in sorted(root.rglob("*.py"))}


def _functions_around(tree: ast.AST) -> dict[ast.AST, bool]:
    """node → whether it lies inside a function."""
    inside: dict[ast.AST, bool] = {}

    def visit(node: ast.AST, in_function: bool) -> None:
        inside[node] = in_function
        here = in_function or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        for child in ast.iter_child_nodes(node):
            visit(child, here)

    visit(tree, False)
    return inside


def imports(root: Path = PACKAGE) -> Iterator[Import]:
    """Every import of a module of ``root``'s package, relative ones resolved."""
    known = modules(root)
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        inside = _functions_around(tree)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in known:
                        yield Import(name, path, node.lineno, alias.name, (), inside[node])
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    source = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    source = node.module or ""
                for alias in node.names:
                    submodule = f"{source}.{alias.name}"
                    if submodule in known:
                        yield Import(name, path, node.lineno, submodule, (), inside[node])
                    elif source in known:
                        yield Import(name, path, node.lineno, source, (alias.name,), inside[node])


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {name: set() for name in modules(root)}
    for arrow in imports(root):
        if arrow.target != arrow.module:
            graph[arrow.module].add(arrow.target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = []
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        work.append((start, iter(sorted(graph[start]))))
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def private_imports(root: Path = PACKAGE) -> list[str]:
    return [
        f"{arrow.path.relative_to(root.parent)}:{arrow.line} takes {name} from {arrow.target}"
        for arrow in imports(root)
        for name in arrow.names
        if name.startswith("_") and not name.startswith("__") and arrow.target != arrow.module
    ]


def undeclared_function_imports(root: Path = PACKAGE) -> list[str]:
    """Imports of project modules inside functions that are not a commented deferral
    of the command line."""
    offences = []
    for arrow in imports(root):
        if not arrow.in_function:
            continue
        where = arrow.path.relative_to(root).as_posix()
        lines = arrow.path.read_text(encoding="utf-8").splitlines()
        said = " ".join(lines[max(arrow.line - 2, 0) : arrow.line]).lower()
        if where.startswith(DEFERRING_ALLOWED) and "# deferred" in said.replace("#  ", "# "):
            continue
        offences.append(
            f"{arrow.path.relative_to(root.parent)}:{arrow.line} imports {arrow.target}"
        )
    return sorted(set(offences))


# -- the rules on the package --------------------------------------------------------


def test_no_import_cycle_anywhere_in_the_package() -> None:
    assert cycles(import_graph()) == []


def test_no_private_name_is_imported_from_another_module() -> None:
    assert private_imports() == []


def test_project_modules_are_imported_inside_functions_only_to_defer_them_in_the_command_line() -> (
    None
):
    assert undeclared_function_imports() == []


def test_the_reader_sees_the_package() -> None:
    """The reader finds module-level imports, imports of package faces and submodules."""
    graph = import_graph()
    assert "crosstable.core.errors" in graph["crosstable.core.scoring"]
    assert "crosstable.service" in graph["crosstable.web.app"]
    assert len(graph) > 300


# -- each check finds an offence in a package written to have one ----------------------


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "crosstable"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_the_cycle_check_finds_a_cycle_behind_a_function_and_through_a_package_face(
    tmp_path: Path,
) -> None:
    root = _package(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "def f():\n    from crosstable.b import g\n",
            "b.py": "from crosstable.pkg import h\n",
            "pkg/__init__.py": "from .inner import h\n",
            "pkg/inner.py": "from .. import a\n",
            "c.py": "from crosstable import a\n",
        },
    )
    assert cycles(import_graph(root)) == [
        ["crosstable.a", "crosstable.b", "crosstable.pkg", "crosstable.pkg.inner"]
    ]


def test_the_cycle_finder_on_small_graphs() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    assert cycles({"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c"}}) == [["a", "b"], ["c", "d"]]


def test_the_private_check_finds_a_private_name_also_relative_and_in_a_function(
    tmp_path: Path,
) -> None:
    root = _package(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "_hidden = 1\n__version__ = 2\n",
            "b.py": "from .a import _hidden\nfrom crosstable.a import __version__\n",
            "c.py": "def f():\n    from crosstable.a import _hidden\n",
        },
    )
    assert private_imports(root) == [
        "crosstable/b.py:1 takes _hidden from crosstable.a",
        "crosstable/c.py:2 takes _hidden from crosstable.a",
    ]


def test_the_function_import_check_allows_only_commented_deferrals_of_the_command_line(
    tmp_path: Path,
) -> None:
    root = _package(
        tmp_path,
        {
            "__init__.py": "",
            "heavy.py": "",
            "cli/__init__.py": "",
            "cli/ok.py": "def f():\n    # deferred: heavy\n    from crosstable import heavy\n",
            "cli/inline.py": "def f():\n    from crosstable import heavy  # deferred: heavy\n",
            "cli/silent.py": "def f():\n    from crosstable import heavy\n",
            "web.py": "def f():\n    # deferred: start-up\n    import crosstable.heavy\n",
        },
    )
    assert undeclared_function_imports(root) == [
        "crosstable/cli/silent.py:2 imports crosstable.heavy",
        "crosstable/web.py:3 imports crosstable.heavy",
    ]
