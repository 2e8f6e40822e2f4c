"""`crosstable demo`: the shipped example prints its Berger schedule, results and crosstable."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from crosstable.cli import main
from crosstable.cli.demo import example_text
from crosstable.core.schedule import berger_table
from crosstable.core.standings import compute_standings
from crosstable.formats.trf import parse_trf, write_trf


def test_example_follows_the_berger_table_for_six() -> None:
    tournament = parse_trf(example_text(), source="club_rr6.trf").tournament
    table = berger_table(6)
    for scheduled, played in zip(table.rounds, tournament.rounds, strict=True):
        # TRF carries no board numbers: a round robin's games take the Berger boards
        assert [(g.white, g.black) for g in played.games] == list(scheduled.boards)
        assert [g.board for g in played.games] == list(range(1, len(scheduled.boards) + 1))


def test_example_is_seed_003s_table() -> None:
    """Seed 003: scores 4, 2½, 2½, 2½, 2, 1½ and SB 9, 6½, 5¼, 4¾, 4, 4½ (R-RR-11)."""
    tournament = parse_trf(example_text(), source="club_rr6.trf").tournament
    standings = compute_standings(tournament, "SB")
    by_start = {row.start: row for row in standings.rows}
    assert [float(by_start[s].points) for s in range(1, 7)] == [4, 2.5, 2.5, 2.5, 2, 1.5]
    assert [float(by_start[s].values[0]) for s in range(1, 7)] == [9, 6.5, 5.25, 4.75, 4, 4.5]


def test_example_is_written_by_our_own_writer() -> None:
    """Files we write come back byte for byte."""
    text = example_text()
    assert write_trf(parse_trf(text, source="club_rr6.trf")) == text


def test_demo_prints_schedule_and_crosstable(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--no-serve"]) == 0
    out = capsys.readouterr().out
    assert "Round 5" in out
    assert "1 Григорьев, Павел   —  6 Крылов, Иван       ½-½" in out
    assert "2.5 + 0.5 × (4 + 1.5 + 2.5) = 6.5" in out
    crosstable = out[out.index("No  Name") :].splitlines()
    assert crosstable[1].split()[-1] == "1"  # Григорьев first
    assert "direct encounter" in out


def _served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    """Stand in for the web server: record what ``demo`` would serve, and return."""
    import crosstable.cli.serve

    calls: list[dict[str, object]] = []

    def run(db: str | None, **options: object) -> None:
        calls.append({"db": db, **options})

    monkeypatch.setattr(crosstable.cli.serve, "run", run)
    return calls


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_demo_keeps_what_users_made_between_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 15 item 1: a tournament made between two starts is there after the second."""
    from crosstable.service import PlayerInfo, Regulations, Service
    from crosstable.store import open_store

    served = _served(monkeypatch)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    port = str(_free_port())
    assert main(["demo", "--port", port]) == 0
    assert "FIDE Berger table" in capsys.readouterr().out
    database = tmp_path / "crosstable" / "demo.sqlite"
    assert served[-1]["db"] == str(database) and served[-1]["port"] == int(port)
    banner = str(served[-1]["banner"])
    assert f"Demo database {database} created; it is kept from one start to the next" in banner
    assert "/t/2" in banner and "Sign in as demo / demo-demo" in banner
    # a user makes a tournament in the running demo
    with open_store(str(database)) as store:
        service = Service(store)
        made = service.create_tournament(Regulations(name="Made in the demo")).tournament_id
        service.add_player(made, PlayerInfo("Visitor"))
    assert main(["demo", "--port", port]) == 0
    assert "kept as it was left (--reset recreates it)" in str(served[-1]["banner"])
    with open_store(str(database)) as store:
        names = [t.name for t in Service(store).tournaments()]
    assert names.count("Made in the demo") == 1 and len(names) == 3  # nothing built twice
    # --reset recreates it, and says so
    assert main(["demo", "--port", port, "--reset"]) == 0
    assert f"Demo database {database} recreated (--reset)." in str(served[-1]["banner"])
    with open_store(str(database)) as store:
        names = [t.name for t in Service(store).tournaments()]
    assert "Made in the demo" not in names and len(names) == 2


def test_a_busy_port_is_refused_before_the_database_is_touched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    served = _served(monkeypatch)
    database = tmp_path / "demo.sqlite"
    port = _free_port()
    assert main(["demo", "--db", str(database), "--port", str(port)]) == 0
    before = (database.stat().st_mtime_ns, database.read_bytes())
    capsys.readouterr()
    with socket.socket() as taken:  # a running demo holds the port
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        taken.bind(("127.0.0.1", port))
        taken.listen()
        for extra in ([], ["--reset"]):
            argv = ["demo", "--db", str(database), "--port", str(port), *extra]
            assert main(argv) == 2
            captured = capsys.readouterr()
            assert captured.err == (
                f"crosstable: port {port} on 127.0.0.1 is busy (Address already in use): "
                "another demo or server runs there; stop it, or choose another port with --port\n"
            )
            assert captured.out == ""  # no URL, no "Stop with Ctrl-C"
    assert (database.stat().st_mtime_ns, database.read_bytes()) == before
    assert len(served) == 1


def test_reset_refuses_a_database_that_is_not_a_file(monkeypatch: pytest.MonkeyPatch) -> None:
    from crosstable.cli.demo import remove_database
    from crosstable.core.errors import RuleError

    with pytest.raises(RuleError, match="--reset recreates a SQLite file only"):
        remove_database("postgresql://someone@localhost/club")
