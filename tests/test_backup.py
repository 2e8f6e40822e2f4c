"""Backups of the SQLite store (issue 28 item 5): an online copy while others write,
rotation, the listing, restore and its refusals, the automatic backups before risky
changes and the scheduled one of ``crosstable serve`` (docs/store.md, "Backups")."""

from __future__ import annotations

import datetime as dt
import json
import random
import sqlite3
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.cli import main
from crosstable.cli.backup import safeguarded
from crosstable.service import FixedClock, PlayerInfo, Regulations, Service
from crosstable.service.rating_lists import RatingLists
from crosstable.service.safeguard import BackupFailedError
from crosstable.store import open_store
from crosstable.store.backup import TIME_FORMAT, BackupError, Backups, check_file
from crosstable.store.backup_schedule import BackupSchedule
from crosstable.store.migrations import HEAD
from crosstable.store.restore import restore
from tests.rating_list_files import fide_txt, zipped

START = dt.datetime(2026, 12, 3, 9, 40, 12, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CROSSTABLE_ACTOR", "arbiter")
    for name in ("CROSSTABLE_DB", "CROSSTABLE_BACKUP_DIR", "CROSSTABLE_AUTO_BACKUP"):
        monkeypatch.delenv(name, raising=False)
    for name in ("CROSSTABLE_BACKUP_KEEP", "CROSSTABLE_BACKUP_DAYS", "CROSSTABLE_BACKUP_EVERY"):
        monkeypatch.delenv(name, raising=False)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def club(path: Path, players: int = 4) -> None:
    """A database file with one tournament of ``players`` players (closed again)."""
    with open_store(str(path)) as store:
        service = Service(store, clock=FixedClock(START), random=random.Random(1))
        tid = service.create_tournament(Regulations(name="Club")).tournament_id
        for number in range(players):
            service.add_player(tid, PlayerInfo(name=f"Player {number + 1}", rating=1800))


def names(path: Path) -> list[str]:
    """Tournament 1's players in the file (read as it is: nothing migrated or changed)."""
    with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as connection:
        rows = connection.execute(
            "SELECT name FROM entries WHERE tournament_id = 1 ORDER BY number"
        )
        found = [row[0] for row in rows]
    connection.close()
    return found


# -- the copy ----------------------------------------------------------------------------


def test_a_backup_is_consistent_while_another_connection_writes(tmp_path: Path) -> None:
    database = tmp_path / "club.db"
    club(database)
    with sqlite3.connect(database) as setup:
        setup.execute("CREATE TABLE ledger (n INTEGER)")
        setup.execute("CREATE TABLE total (sum INTEGER)")
        setup.execute("INSERT INTO total VALUES (0)")
    stop = threading.Event()
    written = [0]

    def writer() -> None:  # each transaction adds a row and the row's value to the total
        connection = sqlite3.connect(database, timeout=30, isolation_level=None)
        n = 0
        while not stop.is_set():
            n += 1
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("INSERT INTO ledger VALUES (?)", (n,))
            connection.execute("UPDATE total SET sum = sum + ?", (n,))
            connection.execute("COMMIT")
            written[0] = n
        connection.close()

    thread = threading.Thread(target=writer)
    thread.start()
    copies = []
    try:
        backups = Backups(database, keep=50)
        while written[0] < 50:
            stop.wait(0.01)
        for _ in range(8):
            copies.append(backups.make("manual"))
    finally:
        stop.set()
        thread.join()
    seen = set()
    for info in copies:
        assert check_file(info.path) == info.revision == HEAD
        with sqlite3.connect(info.path) as copy:
            rows, total = copy.execute("SELECT count(*), sum(n) FROM ledger").fetchone()
            assert copy.execute("SELECT sum FROM total").fetchone()[0] == (total or 0)
            assert total == rows * (rows + 1) // 2  # rows 1..k, none half-written
            assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert not Path(f"{info.path}-wal").exists()
        seen.add(rows)
    assert len(seen) > 1  # the writer went on between the copies


def test_the_backup_command_prints_the_file_it_wrote_named_by_time_and_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "club.db"
    club(database)
    code, out, err = run(capsys, "backup", "--db", str(database))
    assert code == 0, err
    written = Path(out.strip())
    assert written.parent == tmp_path / "club.db.backups"
    assert written.name.endswith("-manual.sqlite")
    dt.datetime.strptime(written.name[:20], TIME_FORMAT)  # the UTC time it was made
    assert names(written) == names(database)


def test_the_backup_folder_can_be_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    database = tmp_path / "club.db"
    club(database)
    monkeypatch.setenv("CROSSTABLE_BACKUP_DIR", str(tmp_path / "safe"))
    info = Backups(database).make()
    assert info.path.parent == tmp_path / "safe"


def test_two_backups_in_one_second_both_kept(tmp_path: Path) -> None:
    database = tmp_path / "club.db"
    club(database)
    backups = Backups(database, now=FixedClock(START).now)
    first, second = backups.make(), backups.make()
    assert first.path.name == "2026-12-03T09-40-12Z-manual.sqlite"
    assert second.path.name == "2026-12-03T09-40-12Z-manual.2.sqlite"
    assert [b.path for b in backups.listed()] == [second.path, first.path]


def test_nothing_to_back_up_is_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(capsys, "backup", "--db", str(tmp_path / "none.db"))
    assert code == 2 and "no database at" in err and "Traceback" not in err


def test_postgresql_is_backed_up_with_pg_dump(capsys: pytest.CaptureFixture[str]) -> None:
    url = "postgresql://arbiter:secret@db.example/chess"
    for args in (("backup",), ("backup", "list"), ("restore", "x.sqlite")):
        code, out, err = run(capsys, *args, "--db", url)
        assert code == 2 and out == ""
        assert "pg_dump --format=custom" in err and "postgresql://arbiter@db.example/chess" in err
        assert "secret" not in err


# -- rotation and the listing ------------------------------------------------------------


def test_rotation_keeps_the_newest_and_one_a_day(tmp_path: Path) -> None:
    database = tmp_path / "club.db"
    club(database)
    clock = FixedClock(START)
    backups = Backups(database, keep=3, days=3, now=clock.now)
    made = []
    for _day in range(5):
        for _hour in range(3):
            made.append(backups.make("scheduled").path)
            clock.advance(dt.timedelta(hours=1))
        clock.advance(dt.timedelta(hours=21))
    kept = [b.path for b in backups.listed()]
    # the newest three (all of day 5), and the newest of days 4 and 3
    assert kept == [made[14], made[13], made[12], made[11], made[8]]
    assert all(not path.exists() for path in made if path not in kept)


@settings(max_examples=60, deadline=None)
@given(
    hours=st.lists(st.integers(0, 24 * 10), min_size=0, max_size=25, unique=True),
    keep=st.integers(1, 6),
    days=st.integers(0, 4),
)
def test_rotation_property(hours: list[int], keep: int, days: int) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        backups = Backups(Path(folder) / "x.db", folder=Path(folder), keep=keep, days=days)
        times = [START + dt.timedelta(hours=h) for h in hours]
        for at in times:
            (Path(folder) / f"{at.strftime(TIME_FORMAT)}-scheduled.sqlite").write_bytes(b"")
        backups.rotate()
        kept = {at for _path, at, _reason in backups.files()}
        newest = sorted(times, reverse=True)
        expected = set(newest[:keep])
        day_newest: dict[dt.date, dt.datetime] = {}
        for at in newest:
            day_newest.setdefault(at.date(), at)
        expected |= set(sorted(day_newest.values(), reverse=True)[:days])
        assert kept == expected


def test_the_list_shows_time_reason_size_and_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "club.db"
    club(database)
    clock = FixedClock(START)
    backups = Backups(database, now=clock.now)
    backups.make("manual")
    clock.advance(dt.timedelta(minutes=5))
    backups.make("before-import")
    (backups.folder / "notes.txt").write_text("not a backup")
    code, out, err = run(capsys, "backup", "list", "--db", str(database), "--format", "json")
    assert code == 0, err
    listed = json.loads(out)
    assert listed["folder"] == str(backups.folder)
    assert [(b["at"], b["reason"], b["revision"]) for b in listed["backups"]] == [
        ("2026-12-03T09:45:12Z", "before-import", HEAD),
        ("2026-12-03T09:40:12Z", "manual", HEAD),
    ]
    assert all(b["size"] == Path(b["file"]).stat().st_size > 0 for b in listed["backups"])
    code, out, err = run(capsys, "backup", "list", "--db", str(database))
    assert code == 0 and "before-import" in out and "2026-12-03 09:45:12" in out
    code, _out, err = run(capsys, "backup", "list", "--db", str(database), "--format", "xml")
    assert code == 2 and "--format" in err


# -- restore -----------------------------------------------------------------------------


def test_restore_brings_back_the_backed_up_state(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "club.db"
    club(database, players=4)
    code, out, _err = run(capsys, "backup", "--db", str(database))
    backup = Path(out.strip())
    code, _out, err = run(capsys, "player", "add", "Late Comer", "--db", str(database))
    assert code == 0, err
    assert len(names(database)) == 5
    code, out, err = run(capsys, "restore", str(backup), "--db", str(database))
    assert code == 0, err
    assert f"restored {database} from {backup} (schema {HEAD})" in out
    assert "must be restarted" in out
    assert names(database) == [f"Player {n}" for n in range(1, 5)]
    before = [b for b in Backups(database).listed() if b.reason == "before-restore"]
    assert len(before) == 1 and str(before[0].path) in out
    assert "Late Comer" in names(before[0].path)  # what was there is kept
    code, out, err = run(capsys, "player", "add", "Again", "--db", str(database))
    assert code == 0, err  # the restored file is an ordinary database again


def test_restore_into_an_open_database_is_seen_by_its_connections(tmp_path: Path) -> None:
    database = tmp_path / "club.db"
    club(database, players=2)
    backups = Backups(database)
    backup = backups.make().path
    with open_store(str(database)) as store:  # like a running server's connections
        service = Service(store)
        service.add_player(1, PlayerInfo(name="After", rating=1500))
        assert len(names(database)) == 3
        restore(backups, backup)
        view = Service(store).overview(1)
        assert [p.name for p in view.players] == ["Player 1", "Player 2"]
    with sqlite3.connect(database) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_restore_creates_a_missing_database(tmp_path: Path) -> None:
    database = tmp_path / "club.db"
    club(database, players=3)
    backup = Backups(database).make().path
    other = tmp_path / "new" / "other.db"
    done = restore(Backups(other), backup)
    assert done.before is None and names(other) == ["Player 1", "Player 2", "Player 3"]
    assert not Path(f"{other}-wal").exists() or Path(f"{other}-wal").stat().st_size == 0


def _damaged(backup: Path, tmp_path: Path) -> dict[str, Path]:
    data = backup.read_bytes()
    truncated = tmp_path / "truncated.sqlite"
    truncated.write_bytes(data[: len(data) // 3])
    garbled = bytearray(data)
    for index in range(4096, len(garbled), 97):  # past the header: every page hit
        garbled[index] ^= 0xA5
    spoiled = tmp_path / "garbled.sqlite"
    spoiled.write_bytes(bytes(garbled))
    text = tmp_path / "notes.sqlite"
    text.write_text("these are not the droids\n")
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as connection:
        connection.execute("CREATE TABLE recipes (name TEXT)")
    newer = tmp_path / "newer.sqlite"
    newer.write_bytes(data)
    with sqlite3.connect(newer) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999'")
    connection.close()
    return {
        "damaged": truncated,
        "damaged ": spoiled,
        "not a SQLite database": text,
        "not a SQLite database ": empty,
        "not a crosstable database": foreign,
        "written by a newer crosstable": newer,
    }


def test_a_damaged_or_foreign_backup_is_refused_and_the_database_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "club.db"
    club(database)
    backup = Backups(database).make().path
    before = database.read_bytes()
    listed = sorted(p.name for p in tmp_path.iterdir())
    for said, bad in _damaged(backup, tmp_path).items():
        code, out, err = run(capsys, "restore", str(bad), "--db", str(database))
        assert code == 2 and out == "", (said, out)
        assert err.startswith(f"crosstable: {bad}: {said.strip()}"), err
        assert "Traceback" not in err
        assert database.read_bytes() == before
        assert not Path(f"{database}-wal").exists()
        assert [b.reason for b in Backups(database).listed()] == ["manual"]
    left = sorted(p.name for p in tmp_path.iterdir() if p.suffix != ".sqlite")
    assert left == [n for n in listed if not n.endswith(".sqlite")]  # no temporary file left
    code, _out, err = run(capsys, "restore", str(tmp_path / "none.sqlite"), "--db", str(database))
    assert code == 2 and "no such file" in err


# -- automatic backups -------------------------------------------------------------------


class Recorder:
    def __init__(self) -> None:
        self.reasons: list[str] = []

    def before(self, reason: str) -> object:
        self.reasons.append(reason)
        return None


def test_the_service_asks_for_a_backup_before_each_risky_change(tmp_path: Path) -> None:
    with open_store(str(tmp_path / "club.db")) as store:
        service = Service(store, clock=FixedClock(START), random=random.Random(3))
        service.safeguard = recorder = Recorder()
        tid = service.create_tournament(Regulations(name="Club")).tournament_id
        for number in range(4):
            service.add_player(tid, PlayerInfo(name=f"P{number}", rating=1700))
        service.draw_lots(tid)
        service.start(tid)
        assert recorder.reasons == []  # ordinary changes make none
        service.record_result(tid, 1, 1, "1-0")
        service.undo(tid)
        service.revert_to(tid, 2)
        service.import_json(service.export_json(tid))
        listed = zipped(tmp_path, "l.zip", "players_list_foa.txt", fide_txt())
        RatingLists(service).import_file(listed)
        assert recorder.reasons == [
            "before-undo",
            "before-revert",
            "before-import",
            "before-rating-list",
        ]


def test_a_failed_backup_stops_the_risky_change(tmp_path: Path) -> None:
    class Broken:
        def before(self, reason: str) -> object:
            raise BackupError("disk full")

    with open_store(str(tmp_path / "club.db")) as store:
        service = Service(store, clock=FixedClock(START))
        tid = service.create_tournament(Regulations(name="Club")).tournament_id
        service.add_player(tid, PlayerInfo(name="A", rating=1700))
        service.safeguard = Broken()
        with pytest.raises(BackupFailedError, match=r"nothing changed: .*disk full"):
            service.undo(tid)
        assert len(names(tmp_path / "club.db")) == 1


def test_import_and_undo_on_the_command_line_back_up_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "club.db"
    club(database, players=4)
    db = ("--db", str(database))
    export = tmp_path / "club.json"
    assert run(capsys, "export", "--to", "json", "-o", str(export), "-t", "1", *db)[0] == 0
    assert Backups(database).listed() == []  # export, creating, adding players: none
    code, _out, err = run(capsys, "import", str(export), *db)
    assert code == 0, err
    [made] = Backups(database).listed()
    assert made.reason == "before-import"
    with open_store(str(made.path)) as store:  # the state before the import: one tournament
        assert len(Service(store).tournaments()) == 1
    code, _out, err = run(capsys, "undo", "-t", "1", *db)
    assert code == 0, err
    assert [b.reason for b in Backups(database).listed()] == ["before-undo", "before-import"]


def test_automatic_backups_can_be_turned_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = tmp_path / "club.db"
    club(database, players=2)
    monkeypatch.setenv("CROSSTABLE_AUTO_BACKUP", "0")
    with open_store(str(database)) as store:
        service = safeguarded(Service(store))
        service.undo(1)
    assert Backups(database).listed() == []


def test_a_database_in_memory_gets_no_safeguard() -> None:
    with open_store("sqlite:///:memory:") as store:
        assert safeguarded(Service(store)).safeguard is None


# -- the schedule ------------------------------------------------------------------------


def test_the_scheduled_backup_follows_the_clock_and_only_after_changes(tmp_path: Path) -> None:
    database = tmp_path / "club.db"
    club(database, players=2)
    clock = FixedClock(START)
    with open_store(str(database)) as store:  # the server's connections stay open
        service = Service(store, clock=clock)
        schedule = BackupSchedule(Backups(database, now=clock.now), every=dt.timedelta(minutes=60))
        first = schedule.pass_once()
        assert first is not None and first.reason == "scheduled"  # none yet: one at once
        assert schedule.pass_once() is None  # not due
        clock.advance(dt.timedelta(minutes=61))
        assert schedule.pass_once() is None  # due, but nothing changed
        service.add_player(1, PlayerInfo(name="New", rating=1500))
        clock.advance(dt.timedelta(minutes=1))
        second = schedule.pass_once()
        assert second is not None and "New" in names(second.path)
        service.add_player(1, PlayerInfo(name="Newer", rating=1500))
        clock.advance(dt.timedelta(minutes=59))
        assert schedule.pass_once() is None  # changed, but not due yet
        clock.advance(dt.timedelta(minutes=1))
        third = schedule.pass_once()
        assert third is not None and "Newer" in names(third.path)
        assert [b.at for b in Backups(database).listed()] == [
            START + dt.timedelta(minutes=122),
            START + dt.timedelta(minutes=62),
            START,
        ]


def test_a_backup_before_an_import_restarts_the_wait(tmp_path: Path) -> None:
    database = tmp_path / "club.db"
    club(database, players=2)
    clock = FixedClock(START)
    backups = Backups(database, now=clock.now)
    schedule = BackupSchedule(backups, every=dt.timedelta(minutes=60))
    backups.make("before-import")
    clock.advance(dt.timedelta(minutes=30))
    assert schedule.pass_once() is None
    clock.advance(dt.timedelta(minutes=31))
    with open_store(str(database)) as store:
        Service(store).add_player(1, PlayerInfo(name="New", rating=1500))
        assert schedule.pass_once() is not None


def test_serve_starts_the_schedule_for_a_file_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from crosstable.cli.backup import scheduled

    database = tmp_path / "club.db"
    club(database, players=2)
    with open_store(str(database)) as store:
        service = safeguarded(Service(store, clock=FixedClock(START)))
        assert isinstance(service.safeguard, Backups)
        schedule = scheduled(service)
        assert schedule is not None
        try:
            assert schedule.every == dt.timedelta(minutes=60)
        finally:
            schedule.stop()
        assert [b.reason for b in Backups(database).listed()] == ["scheduled"]  # at start
        monkeypatch.setenv("CROSSTABLE_BACKUP_EVERY", "0")
        assert scheduled(service) is None
    with open_store("sqlite:///:memory:") as store:
        monkeypatch.delenv("CROSSTABLE_BACKUP_EVERY")
        assert scheduled(Service(store)) is None


def test_a_bad_setting_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "club.db"
    club(database, players=2)
    monkeypatch.setenv("CROSSTABLE_BACKUP_KEEP", "twenty")
    code, _out, err = run(capsys, "backup", "--db", str(database))
    assert code == 2 and "CROSSTABLE_BACKUP_KEEP=twenty: a whole number" in err
