"""``crosstable fair-play`` (issue 12 item 2 on the command line): an administrator
flags an account for computer help on the database itself; a player of running
tournaments needs ``--withdraw T`` or ``--stay T`` for each, or the flag is refused
(exit status 2, the tournaments listed) and nothing changes; the record shows who,
when and why; the flag is cleared with a reason. On SQLite and PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import json

import pytest

pytest.importorskip("argon2")

from test_service_support import db_url, started  # noqa: F401

from crosstable.cli import main
from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store


def test_flag_from_the_terminal(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    store = open_store(db_url)
    try:
        service = Service(store)
        accounts = Accounts(store)
        cheat = accounts.create_user("cheat", "password-cheat")
        spring, summer = started(service, 4), started(service, 4)
        for tid in (spring, summer):
            accounts.link_entry(tid, 1, cheat.id)
    finally:
        store.close()
    db = ["--db", db_url]

    assert main(["fair-play", "flag", "cheat", "--reason", "engine", *db]) == 2
    said = capsys.readouterr().err
    assert "cheat plays in running tournaments" in said
    assert f"(tournament {spring})" in said and f"(tournament {summer})" in said
    both = ["--withdraw", str(spring), "--stay", str(spring), "--stay", str(summer)]
    assert main(["fair-play", "flag", "cheat", "--reason", "engine", *both, *db]) == 2
    assert "withdraw or stay, not both" in capsys.readouterr().err
    assert main(["fair-play", "flag", "nobody", "--reason", "engine", *db]) == 2
    assert "there is no user nobody" in capsys.readouterr().err
    assert main(["fair-play", "record", "cheat", *db]) == 0
    before = json.loads(capsys.readouterr().out)
    assert before["flagged"] is False and before["record"] == []  # nothing done
    assert [r["tournament"] for r in before["running"]] == [spring, summer]

    decided = ["--withdraw", str(spring), "--stay", str(summer), "--by", "admin"]
    assert main(["fair-play", "flag", "cheat", "--reason", "engine moves", *decided, *db]) == 0
    out = capsys.readouterr().out
    assert "@cheat flagged for computer help" in out
    assert f"withdrawn from Club (tournament {spring})" in out
    assert main(["fair-play", "record", "cheat", *db]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["flagged"] is True
    assert [r["tournament"] for r in shown["running"]] == [summer]  # withdrawn from spring
    line = shown["record"][-1]
    assert (line["kind"], line["actor"]) == ("flag", "admin")
    assert line["summary"] == (
        "flagged for computer help: engine moves — Club: withdrawn; Club: stays until the end"
    )

    assert main(["fair-play", "unflag", "cheat", "--reason", " ", *db]) == 2
    assert "give the reason" in capsys.readouterr().err
    assert main(["fair-play", "unflag", "cheat", "--reason", "appeal upheld", *db]) == 0
    assert "flag cleared" in capsys.readouterr().out
    store = open_store(db_url)
    try:
        entry = next(p for p in Service(store).overview(spring).players if p.number == 1)
        assert entry.withdrawn_from is not None
        assert not Accounts(store).user(cheat.id).flagged
    finally:
        store.close()
