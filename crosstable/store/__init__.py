"""The tournament store: SQLite by default, PostgreSQL for servers (SQLAlchemy 2 + Alembic).

>>> from crosstable.store import open_store
>>> store = open_store("sqlite:///:memory:")
>>> store.dialect
'sqlite'
>>> store.close()
"""

from crosstable.store.engine import (
    Store,
    StoreError,
    default_db_path,
    make_engine,
    open_store,
    resolve_url,
    upgrade,
)

__all__ = [
    "Store",
    "StoreError",
    "default_db_path",
    "make_engine",
    "open_store",
    "resolve_url",
    "upgrade",
]
