"""Every module of the package imports (no import-time side effects or cycles)."""

from __future__ import annotations

import importlib
import pkgutil

import crosstable


def all_modules() -> list[str]:
    names = [crosstable.__name__]
    for info in pkgutil.walk_packages(crosstable.__path__, prefix="crosstable."):
        if info.name != "crosstable.__main__":
            names.append(info.name)
    return names


def test_every_module_imports() -> None:
    names = all_modules()
    assert "crosstable.core.model" in names
    for name in names:
        importlib.import_module(name)


def test_core_is_pure() -> None:
    """The core never imports the database, the web framework, the CLI or the clock."""
    import ast
    from pathlib import Path

    forbidden = {"sqlalchemy", "psycopg", "fastapi", "starlette", "typer", "rich", "time"}
    core = Path(crosstable.__file__).parent / "core"
    offenders = []
    for path in core.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                outside_core = name.startswith("crosstable.") and not name.startswith(
                    "crosstable.core"
                )
                if name.split(".")[0] in forbidden or outside_core:
                    offenders.append(f"{path.name}: {name}")
    assert offenders == []
