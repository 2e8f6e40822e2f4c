"""PostgreSQL's backup and restore as docs/deploy.md describes them: the command
``crosstable backup`` prints for a PostgreSQL database (pg_dump, custom format) and
pg_restore into a fresh database bring a tournament back whole, and it goes on there."""

from __future__ import annotations

import glob
import os
import random
import shlex
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from crosstable.cli import main
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.store import open_store


def pg_bin(name: str) -> str:
    """A PostgreSQL program from the installed server's bin folder (scripts/postgres.sh)."""
    config = shutil.which("pg_config")
    if config:
        folder = subprocess.run([config, "--bindir"], capture_output=True, text=True).stdout
        if os.access(Path(folder.strip()) / name, os.X_OK):
            return str(Path(folder.strip()) / name)
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.access(Path(folder) / name, os.X_OK):
            return str(Path(folder) / name)
    found = shutil.which(name)
    assert found, f"{name} not found: install PostgreSQL (bash scripts/postgres.sh)"
    return found


@pytest.fixture
def databases() -> Iterator[tuple[str, str]]:
    """Two fresh databases on the tests' server: the live one and the one restored into."""
    base = os.environ.get("CROSSTABLE_TEST_PG_URL")
    if not base:
        pytest.skip("CROSSTABLE_TEST_PG_URL is not set (bash scripts/postgres.sh starts a server)")
    import psycopg

    stem = f"crosstable_backup_{uuid.uuid4().hex[:8]}"
    names = (f"{stem}_live", f"{stem}_restored")
    with psycopg.connect(base, autocommit=True) as connection:
        for name in names:
            connection.execute(f'CREATE DATABASE "{name}"')
    parts = urlsplit(base)
    urls = [urlunsplit(parts._replace(path="/" + name)) for name in names]
    try:
        yield urls[0], urls[1]
    finally:
        with psycopg.connect(base, autocommit=True) as connection:
            for name in names:
                connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_pg_dump_and_pg_restore_bring_a_tournament_back(
    databases: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    live, restored = databases
    with open_store(live) as store:
        service = Service(store, random=random.Random(5))
        tid = service.create_tournament(Regulations(name="Club")).tournament_id
        for number in range(4):
            service.add_player(tid, PlayerInfo(name=f"P{number + 1}", rating=1800 + number))
        service.draw_lots(tid)
        service.start(tid)
        service.record_result(tid, 1, 1, "1-0")
        before = service.export_json(tid)

    # the command crosstable prints for a PostgreSQL database, run as printed
    assert main(["backup", "--db", live]) == 2
    said = capsys.readouterr().err
    command = shlex.split(said.split("crosstable: ", 1)[1].split(": ", 1)[1].split(" (", 1)[0])
    assert command[:2] == ["pg_dump", "--format=custom"]
    done = subprocess.run(
        [pg_bin("pg_dump"), *command[1:]], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    [dump] = tmp_path.glob("crosstable-*.dump")

    done = subprocess.run(
        [pg_bin("pg_restore"), "--no-owner", "--dbname", restored, str(dump)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    with open_store(restored) as store:
        service = Service(store, random=random.Random(5))
        assert service.export_json(tid) == before
        assert service.verify(tid) == []
        service.record_result(tid, 1, 2, "0-1")  # the sequences and locks work there too
        assert len(service.history(tid)) == len(before["history"]) + 1
