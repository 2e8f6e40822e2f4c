# ruff: noqa: F811 - pytest fixtures imported from test_service_support
"""`crosstable series create|open|pause|show|editions|register|withdraw` and `crosstable tick`
over a database (issue 11): the clock set with --now, every bad option one line on
stderr with exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_service_support import db_url  # noqa: F401

from crosstable.cli import main

NOON = "2026-12-01T12:00:00+03:00"  # a Tuesday in Moscow


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "series.db")


def create(capsys: pytest.CaptureFixture[str], db: str, *extra: str) -> str:
    code, out, err = run(
        capsys,
        "series", "create", "Workday blitz", "--kind", "workdays", "--time", "19:00",
        "--tz", "Europe/Moscow", "--pre-registration", "--db", db, "--now", NOON, *extra,
    )  # fmt: skip
    assert (code, err) == (0, ""), err
    return out


def test_a_series_from_the_command_line(capsys: pytest.CaptureFixture[str], db: str) -> None:
    out = create(capsys, db)
    assert out == (
        "series 1 “Workday blitz” created; edition 1 (id 1) starts 2026-12-01T16:00:00+00:00, "
        "registration until 2026-12-01T15:00:00+00:00\n"
    )
    for index in range(16):
        code, out, err = run(
            capsys, "series", "register", "1", f"Player {index}", "--rating", str(1500 + index),
            "--db", db, "--now", NOON,
        )  # fmt: skip
        assert (code, out, err) == (0, f"Player {index} registered for edition 1\n", "")
    code, out, _err = run(capsys, "series", "withdraw", "1", "Player 3", "--db", db, "--now", NOON)
    assert (code, out) == (0, "Player 3 withdrew from edition 1\n")
    code, out, _err = run(capsys, "tick", "--db", db, "--now", "2026-12-01T18:59:00+03:00")
    assert (code, out) == (0, "edition 1: registration closed with 15 players\n")
    code, out, _err = run(capsys, "tick", "--db", db, "--now", "2026-12-01T18:59:30+03:00")
    assert (code, out) == (0, "nothing is due\n")
    code, out, _err = run(capsys, "tick", "--db", db, "--now", "2026-12-01T19:00:00+03:00")
    assert code == 0
    assert out.splitlines() == [
        "edition 1: stage 1 made — 2 groups: 1×8, 1×7",
        "edition 1: stage 1 (groups) started — 2 round robins, every game created",
        # the next edition opens by itself once stage 1 started (issue 11 item 1)
        "series 1: edition 2 opened by itself — starts 2026-12-02T16:00:00+00:00, "
        "registration until 2026-12-02T15:00:00+00:00",
    ]
    code, out, _err = run(capsys, "series", "editions", "1", "--db", db, "--format", "json")
    edition, _next = json.loads(out)["editions"]
    assert (edition["state"], edition["stage"], edition["registered"]) == ("running", 1, 15)
    code, out, _err = run(capsys, "series", "show", "1", "--db", db, "--format", "json")
    shown = json.loads(out)
    assert (shown["kind"], shown["zone"], shown["pre_registration"]) == (
        "workdays",
        "Europe/Moscow",
        True,
    )
    code, out, err = run(
        capsys, "series", "withdraw", "1", "Player 4", "--db", db, "--now", NOON
    )  # the clock says noon, but stage 1 has started
    assert (code, out) == (2, "")
    assert err == (
        "crosstable: edition 1 has started: a player may withdraw only before stage 1 starts\n"
    )
    code, out, _err = run(capsys, "series", "history", "1", "--db", db)
    kinds = [line.split()[1] for line in out.splitlines()]
    assert kinds[:2] == ["create", "edition"] and kinds.count("register") == 16
    assert kinds[-5:] == ["withdraw", "closed", "stage-made", "stage-start", "edition"]
    assert out.splitlines()[-2].endswith(
        "stage 1 (groups) started — 2 round robins, every game created"
    )
    assert "edition 2 opened: starts 2026-12-02T19:00:00+03:00" in out.splitlines()[-1]
    code, out, err = run(capsys, "series", "history", "1", "--db", db, "--format", "json")
    assert json.loads(out)["history"][0]["summary"] == "series 1 “Workday blitz” created"
    code, out, err = run(capsys, "series", "open", "1", "--db", db, "--now", NOON)
    assert (code, out) == (2, "")  # edition 2 is open already: opened by the tick
    assert err == "crosstable: the series has an edition open for registration already\n"


def test_pausing_a_series_from_the_command_line(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    create(capsys, db)
    for index in range(15):
        run(capsys, "series", "register", "1", f"Player {index}", "--db", db, "--now", NOON)
    assert run(capsys, "series", "pause", "1", "--db", db) == (0, "series 1 is paused\n", "")
    assert run(capsys, "series", "pause", "1", "--db", db)[1] == "series 1 is paused already\n"
    code, out, _err = run(capsys, "tick", "--db", db, "--now", "2026-12-01T19:00:00+03:00")
    assert code == 0 and "opened by itself" not in out  # paused: nothing opens
    code, out, _err = run(capsys, "series", "history", "1", "--db", db)
    assert "paused: False → True" in out
    assert run(capsys, "series", "pause", "1", "--resume", "--db", db)[1] == "series 1 goes on\n"
    code, out, _err = run(capsys, "tick", "--db", db, "--now", "2026-12-01T19:01:00+03:00")
    assert out.startswith("series 1: edition 2 opened by itself — starts 2026-12-02T16:00")
    assert run(capsys, "series", "pause", "9", "--db", db) == (
        2,
        "",
        "crosstable: there is no series 9 in this database\n",
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("tick", "--now", "yesterday"), "--now: 'yesterday' is not a date-time with its"),
        (("tick", "--now", "2026-12-01T12:00"), "--now: '2026-12-01T12:00' is not a date-time"),
        (("series", "register", "7", "Anna"), "there is no series edition 7 in this database"),
        (
            ("series", "register", "1", "Anna", "--rating", "-5"),
            "rating: -5 is out of range (100–4000, or 0 for unrated)",
        ),
        (("series", "show", "4"), "there is no series 4 in this database"),
        (("series", "history", "4"), "there is no series 4 in this database"),
        (("series", "create", "X", "--kind", "weekly", "--time", "19:00", "--tz", "UTC"),
         "--weekday: a weekly series needs its weekday"),
        (("series", "create", "X", "--kind", "weekend", "--time", "7pm", "--tz", "UTC"),
         "--time: '7pm' is not a time HH:MM"),
        (("series", "create", "X", "--kind", "weekend", "--time", "19:00", "--tz", "Mars/X"),
         "--tz: unknown time zone 'Mars/X'"),
        (("series", "create", "X", "--kind", "weekend", "--time", "19:00", "--tz", "UTC",
          "--qualifiers", "9"), "qualifiers per group: 9"),
        (("series", "create", " ", "--kind", "weekend", "--time", "19:00", "--tz", "UTC"),
         "a series needs a name"),
        (("series", "create", "X", "--kind", "weekend", "--time", "19:00", "--tz", "UTC",
          "--tiebreaks", "XYZ"), "XYZ"),
        (("series", "create", "X", "--kind", "weekend", "--time", "19:00", "--tz", "UTC",
          "--deadline", "-1"), "registration deadline: between 0 and"),
    ],
)  # fmt: skip
def test_every_mistake_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], db: str, args: tuple[str, ...], message: str
) -> None:
    create(capsys, db)
    code, out, err = run(capsys, *args, "--db", db)
    assert (code, out) == (2, "")
    assert err.startswith("crosstable: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_registration_after_the_deadline_is_refused(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    create(capsys, db)
    late = "2026-12-01T18:30:00+03:00"
    code, out, err = run(capsys, "series", "register", "1", "Anna", "--db", db, "--now", late)
    assert (code, out, err) == (2, "", "crosstable: registration for edition 1 is closed\n")


def test_two_processes_ticking_at_once_do_each_step_once(
    capsys: pytest.CaptureFixture[str], db_url: str
) -> None:
    import subprocess
    import sys

    create(capsys, db_url)
    for index in range(20):
        code, _out, err = run(
            capsys, "series", "register", "1", f"P{index}", "--db", db_url, "--now", NOON
        )
        assert code == 0, err
    program = "import sys; from crosstable.cli import main; sys.exit(main())"
    command = [sys.executable, "-c", program, "tick", "--db", db_url, "--now"]
    start = "2026-12-01T19:00:00+03:00"
    processes = [
        subprocess.Popen(
            [*command, start], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    outputs = [process.communicate(timeout=300) for process in processes]
    assert [process.returncode for process in processes] == [0, 0], outputs
    lines = [line for out, _err in outputs for line in out.splitlines() if line != "nothing is due"]
    assert lines == [
        "edition 1: registration closed with 20 players",
        "edition 1: stage 1 made — 2 groups: 2×10",
        "edition 1: stage 1 (groups) started — 2 round robins, every game created",
        "series 1: edition 2 opened by itself — starts 2026-12-02T16:00:00+00:00, "
        "registration until 2026-12-02T15:00:00+00:00",
    ]
    code, out, _err = run(capsys, "tick", "--db", db_url, "--now", start)
    assert out == "nothing is due\n"
    code, out, _err = run(capsys, "series", "editions", "1", "--db", db_url, "--format", "json")
    assert json.loads(out)["editions"][0]["stage"] == 1
