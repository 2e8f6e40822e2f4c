"""``crosstable series news|awards|standings`` (issue 11, R-SE-5): an edition played
through the services on a database file, then read from the command line — tables and
JSON, one player's awards, a season; every mistake one line on stderr, exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_series_news import PLAYERS, _series, _service, run_edition

from crosstable.cli import main
from crosstable.store import open_store


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("series") / "season.db")
    store = open_store(path)
    try:
        service, clock = _service(store)
        sid = _series(service)
        assert sid == 1
        run_edition(service, clock, sid, [("Forfeiter", 2500, None), *PLAYERS], "Forfeiter")
    finally:
        store.close()
    return path


def test_news(capsys: pytest.CaptureFixture[str], played: str) -> None:
    code, out, err = run(capsys, "series", "news", "1", "--db", played)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].endswith("Workday blitz #1: the super-final is over — Player 01 wins")
    assert "    standings: 1. Player 01 (6), 2. Player 02 (4), 3. Player 03 (2)" in lines
    assert any(line.startswith("    group A: ") for line in lines)
    code, out, _ = run(capsys, "series", "news", "1", "--db", played, "--format", "json")
    news = json.loads(out)["news"]
    assert code == 0 and [n["stage"] for n in news] == [3, 2, 1]


def test_awards(capsys: pytest.CaptureFixture[str], played: str) -> None:
    code, out, _ = run(capsys, "series", "awards", "1", "--db", played, "--format", "json")
    awards = json.loads(out)["awards"]
    assert code == 0 and len(awards) == 11
    code, out, _ = run(
        capsys, "series", "awards", "1", "--player", "player 02", "--db", played, "-f", "json"
    )
    assert {a["name"] for a in json.loads(out)["awards"]} == {"Player 02"}
    code, out, _ = run(capsys, "series", "awards", "1", "--db", played)
    assert code == 0 and "super-final" in out and "Player 03" in out


def test_standings(capsys: pytest.CaptureFixture[str], played: str) -> None:
    code, out, _ = run(
        capsys, "series", "standings", "1", "--season", "2026", "--db", played, "-f", "json"
    )
    table = json.loads(out)
    assert code == 0 and table["season"] == 2026 and len(table["rows"]) == 15
    assert table["rows"][0]["place"] == "1"
    code, out, _ = run(capsys, "series", "standings", "1", "--season", "all", "--db", played)
    assert code == 0 and "order: points; best finish" in " ".join(out.split())
    assert "Player 01" in out and "super-final, 1" in out
    code, out, _ = run(
        capsys, "series", "standings", "1", "--season", "2030", "--db", played, "-f", "json"
    )
    assert code == 0 and json.loads(out)["rows"] == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("news", "9"), "there is no series 9"),
        (("awards", "9"), "there is no series 9"),
        (("standings", "9"), "there is no series 9"),
        (("standings", "1", "--season", "soon"), "season 'soon': a year such as 2026, or all"),
        (("standings", "1", "--season", "0999"), "season 999: a year from 1900 to 9998"),
    ],
)
def test_mistakes(
    capsys: pytest.CaptureFixture[str], played: str, args: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, "series", *args, "--db", played)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_fresh_database_has_no_news(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "fresh.db")
    code, _out, err = run(
        capsys, "series", "create", "X", "--kind", "weekend", "--time", "10:00", "--tz", "UTC",
        "--db", db,
    )  # fmt: skip
    assert code == 0, err
    assert run(capsys, "series", "news", "1", "--db", db)[1].startswith("no news yet")


def test_petitions_from_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "petitions.db")
    code, _out, err = run(
        capsys, "series", "create", "X", "--kind", "weekend", "--time", "10:00", "--tz", "UTC",
        "--db", db,
    )  # fmt: skip
    assert code == 0, err
    names = [f"Level Two {i}" for i in range(1, 12)]
    code, out, err = run(capsys, "series", "petition", "1", "level 2", *names, "--db", db)
    assert (code, out, err) == (0, "petition 1: 11 players of level 2 wait\n", "")
    code, out, err = run(capsys, "series", "petition", "1", "level 3", *names[:10], "--db", db)
    assert code == 2 and "10 players: a class or level tournament needs at least 11" in err
    assert run(capsys, "series", "petition", "1", "level 3", *names, "--db", db)[0] == 0
    code, out, _ = run(capsys, "series", "refuse-petition", "2", "--reason", "", "--db", db)
    assert code == 2
    code, out, _ = run(capsys, "series", "refuse-petition", "2", "--reason", "no room", "--db", db)
    assert (code, out) == (0, "petition 2 refused\n")
    code, out, err = run(capsys, "series", "accept-petition", "1", "--db", db)
    assert code == 0 and out.startswith("petition 1 accepted: tournament 1 started"), err
    code, out, _ = run(capsys, "series", "petitions", "1", "--db", db)
    assert out.splitlines() == [
        "   1  accepted  level 2: 11 players — tournament 1",
        "   2  refused   level 3: 11 players — no room",
    ]
    code, out, _ = run(
        capsys, "series", "petitions", "1", "--state", "refused", "-f", "json", "--db", db
    )
    assert [p["id"] for p in json.loads(out)["petitions"]] == [2]
    code, _out, err = run(capsys, "series", "accept-petition", "1", "--db", db)
    assert code == 2 and "petition 1 was accepted already" in err
    code, _out, err = run(capsys, "series", "accept-petition", "7", "--db", db)
    assert code == 2 and "there is no petition 7" in err
    code, out, _ = run(capsys, "series", "history", "1", "--db", db)
    assert "petition-accepted" in out and "petition-refused" in out
