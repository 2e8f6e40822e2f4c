"""Alembic environment: always runs on the connection that crosstable.store passes in."""

from __future__ import annotations

from typing import Any

from alembic import context

from crosstable.store.models import Base


def run(config: Any) -> None:
    connection = config.attributes.get("connection")
    if connection is None:  # pragma: no cover - only the store runs the migrations
        raise RuntimeError("run the migrations through crosstable.store.upgrade()")
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=True,  # SQLite changes tables by copying them
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


_config: Any
try:
    _config = context.config
except AttributeError:  # imported outside a migration run (e.g. by pytest's doctests)
    _config = None
if _config is not None:
    run(_config)
