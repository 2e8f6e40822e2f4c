"""Many tournaments in one PostgreSQL database, fast: copies of one made by the service.

The portal's benchmark (bench/bench_portal.py) and the EXPLAIN test
(tests/test_explain_queries.py) need thousands of running tournaments. Making each
through the service takes tens of milliseconds; this copies the rows of one
tournament the service made (every table with a ``tournament_id`` column, and the
``tournaments`` row itself) ``copies`` times with ``INSERT … SELECT … FROM
generate_series``, in one transaction. A copy is a tournament like its source: same
players, rounds, games, history and stored standings, a new id.
"""

from __future__ import annotations

from typing import Any

#: tables copied first (in this order: the foreign keys point backwards)
FIRST = ("tournaments", "entries", "rounds", "games", "byes", "events", "live_standings")


def _columns(cursor: Any, table: str) -> list[tuple[str, bool]]:
    """The table's columns in the current schema: (name, filled by a sequence)."""
    cursor.execute(
        "SELECT column_name, coalesce(column_default, '') LIKE 'nextval%%' "
        "FROM information_schema.columns WHERE table_schema = current_schema() "
        "AND table_name = %s ORDER BY ordinal_position",
        (table,),
    )
    return [(str(name), bool(serial)) for name, serial in cursor.fetchall()]


def tournament_tables(cursor: Any) -> list[str]:
    """Every table of the current schema that has a ``tournament_id`` column, FIRST first."""
    cursor.execute(
        "SELECT DISTINCT table_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND column_name = 'tournament_id'"
    )
    found = {str(name) for (name,) in cursor.fetchall()}
    return [t for t in FIRST if t in found] + sorted(found - set(FIRST))


def clone_tournaments(connection: Any, source: int, copies: int) -> range:
    """``copies`` copies of tournament ``source`` (a psycopg connection on the store's
    schema); the new ids (consecutive). Commits."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT coalesce(max(id), 0) + 1 FROM tournaments")
        base = int(cursor.fetchone()[0])
        names = [name for name, _serial in _columns(cursor, "tournaments")]
        chosen = ", ".join(f'"{n}"' for n in names)
        picked = ", ".join(f"{base} + g" if n == "id" else f't."{n}"' for n in names)
        cursor.execute(
            f"INSERT INTO tournaments ({chosen}) SELECT {picked} "
            f"FROM tournaments t, generate_series(0, {int(copies) - 1}) g WHERE t.id = %s",
            (source,),
        )
        for table in tournament_tables(cursor):
            if table == "tournaments":
                continue
            columns = [(n, s) for n, s in _columns(cursor, table) if not s]
            chosen = ", ".join(f'"{n}"' for n, _s in columns)
            picked = ", ".join(
                f"{base} + g" if n == "tournament_id" else f't."{n}"' for n, _s in columns
            )
            cursor.execute(
                f'INSERT INTO "{table}" ({chosen}) SELECT {picked} FROM "{table}" t, '
                f"generate_series(0, {int(copies) - 1}) g WHERE t.tournament_id = %s",
                (source,),
            )
        cursor.execute(
            "SELECT setval(pg_get_serial_sequence('tournaments', 'id'), "
            "(SELECT max(id) FROM tournaments))"
        )
    connection.commit()
    return range(base, base + copies)


def analyze(connection: Any) -> None:
    """ANALYZE the tables of the current schema only (a database-wide ANALYZE would wait
    on, and deadlock with, whoever else uses the server). Commits."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1"
        )
        tables = [str(name) for (name,) in cursor.fetchall()]
        for table in tables:
            cursor.execute(f'ANALYZE "{table}"')
    connection.commit()


__all__ = ["analyze", "clone_tournaments", "tournament_tables"]
