"""The migrated template the store tests copy (tests/test_service_support.py) is the
database the migrations make: the same tables, columns, indexes, constraints, triggers
and rows as a database migrated from empty, on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest
import test_service_support
from sqlalchemy import text
from test_service_support import make_service, migrated, new_database, started

from crosstable.service import Regulations
from crosstable.store import Store, open_store

#: a schema's parts on PostgreSQL, without the schema's name
PG_PARTS = {
    "columns": "SELECT table_name, column_name, data_type, is_nullable, column_default"
    " FROM information_schema.columns WHERE table_schema = current_schema()",
    "indexes": "SELECT tablename, indexname, indexdef FROM pg_indexes"
    " WHERE schemaname = current_schema()",
    "constraints": "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid)"
    " FROM pg_constraint WHERE connamespace = current_schema()::regnamespace",
    "triggers": "SELECT event_object_table, trigger_name, action_timing, event_manipulation"
    " FROM information_schema.triggers WHERE trigger_schema = current_schema()",
    "sequences": "SELECT sequence_name, start_value FROM information_schema.sequences"
    " WHERE sequence_schema = current_schema()",
}


def normal(value: str) -> str:
    """A value of a catalogue without the test's schema name; a statement's lines in
    order (SQLite's table rebuilds in the migrations list a table's constraints in no
    fixed order)."""
    return "\n".join(sorted(line.strip().rstrip(",") for line in value.splitlines()))


def described(store: Store, schema: str) -> dict[str, list[tuple[str, ...]]]:
    """The schema and every row of the database, the schema's own name left out."""
    found: dict[str, list[tuple[str, ...]]] = {}
    with store.reading() as session:
        if store.dialect == "sqlite":
            parts = {"schema": "SELECT type, name, tbl_name, sql FROM sqlite_master"}
        else:
            parts = PG_PARTS
        for name, query in parts.items():
            rows = session.execute(text(query)).all()
            found[name] = sorted(
                (tuple(normal(str(v).replace(schema, "S")) for v in row) for row in rows), key=str
            )
        if store.dialect == "sqlite":
            tables = {row[1] for row in found["schema"] if row[0] == "table"}
        else:
            tables = {row[0] for row in found["columns"]}
        for table in sorted(t for t in tables if not t.startswith("sqlite_")):
            rows = session.execute(text(f'SELECT * FROM "{table}"')).all()
            found[f"rows of {table}"] = sorted((tuple(map(str, row)) for row in rows), key=str)
    return found


def schema_of(url: str) -> str:
    return url.rsplit("search_path%3D", 1)[-1] if "search_path" in url else "main"


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_database_from_the_template_is_the_migrated_one(kind: str, tmp_path: Path) -> None:
    with (
        new_database(kind, tmp_path, "migrated") as plain,
        new_database(kind, tmp_path, "copied") as copied,
    ):
        first, second = open_store(plain), open_store(migrated(copied))
        try:
            expected, got = described(first, schema_of(plain)), described(second, schema_of(copied))
        finally:
            first.close()
            second.close()
    assert any(name.startswith("rows of alembic_version") for name in expected)
    assert got == expected


def test_without_a_working_pg_dump_the_store_is_migrated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pg_dump that fails (say, older than the server) means no template: the test's
    database is migrated as before, not left empty."""
    monkeypatch.setattr(test_service_support.shutil, "which", lambda name: "/bin/false")
    monkeypatch.setattr(test_service_support, "TEMPLATES", test_service_support.Templates())
    with new_database("postgresql", tmp_path) as url:
        store = open_store(migrated(url), migrate=False)
        try:
            with store.reading() as session:
                version = session.execute(text("SELECT version_num FROM alembic_version"))
                assert version.scalar()
        finally:
            store.close()
    assert test_service_support.TEMPLATES.postgresql == ""


def test_a_schema_the_pool_lends_again_is_as_new(tmp_path: Path) -> None:
    """A PostgreSQL schema lent to a store test is emptied when the test ends and kept
    (each time it comes back, under whatever name): lent again it has a new name (a new
    notification channel and new advisory locks), the rows and schema of a database
    migrated from empty, and its ids start again at 1."""
    pool = test_service_support.SchemaPool()
    with pool.schema() as url:
        store = open_store(url)
        try:
            service = make_service(store)
            started(service, 4)
            service.create_tournament(Regulations(name="Second"))
            first_name = schema_of(url)
            assert store.dialect == "postgresql"
        finally:
            store.close()
    assert len(pool.free) == 1  # kept to be lent again, not dropped
    kept = pool.free[0]
    try:
        with pool.schema() as again, new_database("postgresql", tmp_path) as plain:
            assert schema_of(again) == kept != first_name
            assert pool.looked_at(kept)[1] == []  # no table has a block left
            lent, fresh = open_store(again), open_store(plain)
            try:
                assert described(lent, schema_of(again)) == described(fresh, schema_of(plain))
                made = make_service(lent).create_tournament(Regulations(name="Third"))
                assert made.tournament_id == 1
            finally:
                lent.close()
                fresh.close()
        assert len(pool.free) == 1  # and again, under its new name
    finally:
        pool.close()


def test_a_schema_a_test_changed_is_not_lent_again() -> None:
    """A schema whose shape a test changed (a column added, a migration undone) is
    dropped when the test ends, and the next test gets a new one."""
    pool = test_service_support.SchemaPool()
    try:
        with pool.schema() as url:
            store = open_store(url)
            try:
                with store.engine.begin() as connection:
                    connection.execute(text("ALTER TABLE tournaments ADD COLUMN extra integer"))
            finally:
                store.close()
            changed = schema_of(url)
        assert pool.free == []
        with pool.schema() as url:
            assert schema_of(url) != changed
            store = open_store(url)
            try:
                with store.reading() as session:
                    gone = session.execute(
                        text("SELECT count(*) FROM pg_namespace WHERE nspname = :name"),
                        {"name": changed},
                    ).scalar()
                assert gone == 0
            finally:
                store.close()
    finally:
        pool.close()
