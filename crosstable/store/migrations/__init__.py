"""Alembic migrations of the tournament store, run by :func:`crosstable.store.open_store`.

Every schema change is a new file in ``versions/`` that upgrades from the previous
one, so a database written by any released version upgrades in place. ``HEAD`` is
the newest revision (a test checks it against the scripts).
"""

HEAD = "0027"
