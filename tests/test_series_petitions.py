"""R-SE-7 petitions on SQLite and PostgreSQL: 11 players of one level ask for their own
tournament; an administrator accepts (a round robin of them, every game created) or
refuses with a reason; every step in the series' history; refusals; an acceptance
interrupted after the tournament was made resumed without a second one."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select
from test_series_news import _series, _service
from test_service_support import db_url, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.service import NotFoundError
from crosstable.store import Store
from crosstable.store.models import GameRow, TournamentRow

ELEVEN = [(f"Class Three {i:02d}", 200 + i if i % 3 == 0 else None) for i in range(1, 12)]


def test_a_petition_accepted_makes_the_tournament(store: Store) -> None:
    service, _clock = _service(store)
    sid = _series(service)
    pid = service.petition(sid, "  class   3 ", ELEVEN, actor="user:7")
    [listed] = service.petitions(sid)
    assert (listed["id"], listed["level"], listed["state"]) == (pid, "class 3", "pending")
    assert [p["name"] for p in listed["players"]] == [name for name, _ in ELEVEN]
    assert listed["players"][2]["user"] == 203 and listed["requested_by"] == "user:7"
    tid = service.accept_petition(pid, actor="user:1")
    info = service.petition_info(pid)
    assert (info["state"], info["tournament"], info["decided_by"]) == ("accepted", tid, "user:1")
    tournament = service.tournament(tid)
    assert tournament.name == "Workday blitz — class 3"
    assert sorted(p.name for p in tournament.players) == sorted(n for n, _ in ELEVEN)
    with store.reading() as session:
        row = session.get(TournamentRow, tid)
        assert row is not None and row.status == "running"
        assert (row.regulations or {}).get("series_petition") == str(pid)
        games = session.scalar(
            select(func.count()).select_from(GameRow).where(GameRow.tournament_id == tid)
        )
    assert games == 11 * 10 // 2  # a round robin, every game created at once
    with pytest.raises(RuleError, match=f"petition {pid} was accepted already"):
        service.accept_petition(pid)
    with pytest.raises(RuleError, match="was accepted already"):
        service.refuse_petition(pid, "too late")
    history = [h["kind"] for h in service.series_history(sid)]
    assert history[-2:] == ["petition", "petition-accepted"]
    assert service.petitions(sid, state="pending") == []
    # decided: the same level may ask again
    assert service.petition(sid, "Class 3", ELEVEN) > pid


def test_a_petition_refused_with_its_reason(store: Store) -> None:
    service, _clock = _service(store)
    sid = _series(service)
    pid = service.petition(sid, "1400-1599", ELEVEN)
    with pytest.raises(RuleError, match="says why"):
        service.refuse_petition(pid, "   ")
    service.refuse_petition(pid, "the players' ratings  are not all 1400-1599", actor="user:1")
    info = service.petition_info(pid)
    assert (info["state"], info["reason"]) == (
        "refused",
        "the players' ratings are not all 1400-1599",
    )
    assert info["tournament"] is None
    with pytest.raises(RuleError, match="was refused already"):
        service.accept_petition(pid)
    history = service.series_history(sid)
    assert history[-1]["kind"] == "petition-refused" and "ratings" in history[-1]["summary"]
    with store.reading() as session:
        assert session.scalar(select(func.count()).select_from(TournamentRow)) == 0


def test_what_a_petition_refuses(store: Store) -> None:
    service, _clock = _service(store)
    sid = _series(service)
    with pytest.raises(
        RuleError, match="10 players: a class or level tournament needs at least 11"
    ):
        service.petition(sid, "class 3", ELEVEN[:10])
    with pytest.raises(RuleError, match="listed twice"):
        service.petition(sid, "class 3", [*ELEVEN[:10], (" class three 01 ", None)])
    with pytest.raises(RuleError, match="needs a name"):
        service.petition(sid, "class 3", [*ELEVEN, ("  ", None)])
    with pytest.raises(RuleError, match="names the class or level"):
        service.petition(sid, "  ", ELEVEN)
    with pytest.raises(RuleError, match="at most 100 characters"):
        service.petition(sid, "x" * 101, ELEVEN)
    with pytest.raises(RuleError, match="at most 100"):
        service.petition(sid, "class 3", [(f"P{i}", None) for i in range(101)])
    with pytest.raises(NotFoundError, match="there is no series 99"):
        service.petition(99, "class 3", ELEVEN)
    with pytest.raises(NotFoundError, match="there is no petition 99"):
        service.accept_petition(99)
    with pytest.raises(RuleError, match="state 'open'"):
        service.petitions(sid, state="open")
    first = service.petition(sid, "class 3", ELEVEN)
    with pytest.raises(RuleError, match=f"waiting already \\(petition {first}\\)"):
        service.petition(sid, "CLASS 3", ELEVEN)
    assert service.petition(sid, "class 4", ELEVEN) == first + 1


def test_an_interrupted_acceptance_is_resumed_without_a_second_tournament(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, clock = _service(store)
    sid = _series(service)
    pid = service.petition(sid, "class 3", ELEVEN)
    real = type(service).draw_lots

    def dies(*args: object, **kwargs: object) -> object:
        raise RuntimeError("the process died")

    monkeypatch.setattr(type(service), "draw_lots", dies)
    with pytest.raises(RuntimeError):
        service.accept_petition(pid)
    monkeypatch.setattr(type(service), "draw_lots", real)
    assert service.petition_info(pid)["state"] == "accepting"
    with pytest.raises(RuleError, match="is being accepted"):
        service.accept_petition(pid)  # another administrator, meanwhile
    with pytest.raises(RuleError, match="is being accepted"):
        service.refuse_petition(pid, "no")
    clock.advance(dt.timedelta(minutes=11))  # the claim of a dead process lapses
    tid = service.accept_petition(pid)
    with store.reading() as session:
        assert session.scalar(select(func.count()).select_from(TournamentRow)) == 1
        row = session.get(TournamentRow, tid)
        assert row is not None and row.status == "running"
    assert service.petition_info(pid)["state"] == "accepted"
