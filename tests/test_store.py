"""The store: URLs, connection settings, migrations, the append-only event log."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import threading
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from test_service_support import db_url, make_service, started, store  # noqa: F401

from crosstable.store import Store, StoreError, default_db_path, open_store, resolve_url
from crosstable.store.migrations import HEAD
from crosstable.store.models import Base


def test_urls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert resolve_url(tmp_path / "a.db") == f"sqlite:///{tmp_path / 'a.db'}"
    assert resolve_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert resolve_url("sqlite:///x.db") == "sqlite:///x.db"
    monkeypatch.setenv("CROSSTABLE_DB", str(tmp_path / "env.db"))
    assert resolve_url(None) == f"sqlite:///{tmp_path / 'env.db'}"
    monkeypatch.delenv("CROSSTABLE_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_db_path() == tmp_path / "xdg" / "crosstable" / "crosstable.db"
    with pytest.raises(StoreError, match="use a file path"):
        resolve_url("mysql://u@h/db")


def test_an_unreachable_server_is_one_clear_error() -> None:
    with pytest.raises(StoreError, match="cannot open the database") as error:
        open_store("postgresql://nobody@127.0.0.1:1/none")
    assert "\n" not in str(error.value)


def test_sqlite_settings(tmp_path: Path) -> None:
    opened = open_store(tmp_path / "s.db")
    try:
        with opened.engine.connect() as connection:
            pragma = {
                name: connection.exec_driver_sql(f"PRAGMA {name}").scalar()
                for name in ("journal_mode", "foreign_keys", "busy_timeout", "synchronous")
            }
        assert pragma == {
            "journal_mode": "wal",
            "foreign_keys": 1,
            "busy_timeout": 30000,
            "synchronous": 1,  # NORMAL: with WAL, no commit is lost when the process dies
        }
    finally:
        opened.close()


def test_migrations_reach_the_head_and_match_the_models(db_url: str, store: Store) -> None:
    config = Config()
    config.set_main_option("script_location", "crosstable.store:migrations")
    assert ScriptDirectory.from_config(config).get_current_head() == HEAD
    with store.engine.connect() as connection:
        version = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
        assert version == HEAD
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        ours = [
            diff
            for diff in compare_metadata(context, Base.metadata)
            if not _foreign_table(diff)  # tables of other parts (accounts…) are theirs
        ]
    assert ours == []


def test_migration_0008_gives_every_registered_player_an_empty_club(
    db_url: str, store: Store
) -> None:
    """A database at 0007 (no ``entries.club``) upgrades in place: its players keep
    everything and get the club "" (issue 15 item 5); 0008 also goes back down."""
    from alembic import command

    from crosstable.store.engine import upgrade

    service = make_service(store)
    tid = started(service, 4)
    config = Config()
    config.set_main_option("script_location", "crosstable.store:migrations")
    with store._writer.connect() as connection, connection.begin():
        config.attributes["connection"] = connection
        command.downgrade(config, "0007")
    with store.engine.connect() as connection:
        columns = {c["name"] for c in inspect(connection).get_columns("entries")}
        assert "club" not in columns and "fide_id" in columns
        assert (
            connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0007"
        )
    upgrade(store)
    with store.engine.connect() as connection:
        rows = connection.execute(
            text("SELECT number, name, club FROM entries WHERE tournament_id = :t ORDER BY number"),
            {"t": tid},
        ).all()
    assert [tuple(row) for row in rows] == [
        (1, "Anna", ""),
        (2, "Boris", ""),
        (3, "Clara", ""),
        (4, "Dmitri", ""),
    ]
    assert service.edit_player(tid, 2, club="Yerevan CC").summary.endswith("→ Yerevan CC")


def _foreign_table(diff: object) -> bool:
    if isinstance(diff, tuple) and diff and diff[0] in ("remove_table", "remove_index"):
        name = getattr(diff[1], "name", "")
        table = getattr(diff[1], "table", None)
        owner = getattr(table, "name", name)
        return owner not in Base.metadata.tables
    return False


def test_opening_again_and_at_once_is_harmless(db_url: str, store: Store) -> None:
    service = make_service(store)
    tid = started(service, 4)
    errors: list[BaseException] = []

    def reopen() -> None:
        try:
            open_store(db_url).close()
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=reopen) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    assert service.overview(tid).rounds == 3


def test_the_event_log_is_append_only(db_url: str, store: Store) -> None:
    service = make_service(store)
    tid = started(service, 4)
    for statement in (
        f"UPDATE events SET summary = 'forged' WHERE tournament_id = {tid}",
        f"DELETE FROM events WHERE tournament_id = {tid}",
    ):
        with pytest.raises(Exception, match="append-only"), store.transaction() as session:
            session.execute(text(statement))
    assert service.history(tid)[0].summary.startswith(f"tournament {tid}")
