"""The series in the store, run by the clock (issue 11): a workdays season on SQLite and
PostgreSQL — a start moved for lack of players (R-SE-3), 40 players in stage 1 groups
(R-SE-4), results recorded through the service so the groups finish by themselves
(R-RR-12), the final and the super-final made by tick, a player with forfeits only not
going on (R-SE-6), every outbox row exactly once (R-SE-5); two services ticking at
once; a tick with nothing due."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import datetime as dt
import random
import threading
from collections import Counter

import pytest
from sqlalchemy import func, select
from test_service_support import db_url, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.service import FixedClock, NotFoundError, Service
from crosstable.service.series import SeriesSettings
from crosstable.service.series.tick_lock import tick_lock
from crosstable.store import Store, open_store
from crosstable.store.models import EventRow, GameRow, TournamentRow
from crosstable.store.series_models import (
    SeriesEditionRow,
    SeriesEventRow,
    SeriesGroupRow,
    SeriesOutboxRow,
    SeriesRegistrationRow,
    SeriesStageRow,
)

#: Tuesday 1 December 2026, 09:00 UTC (12:00 in Moscow); the series starts at 19:00 there
MORNING = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)
TABLES = (
    SeriesEditionRow,
    SeriesEventRow,
    SeriesGroupRow,
    SeriesOutboxRow,
    SeriesRegistrationRow,
    SeriesStageRow,
    TournamentRow,
    EventRow,
)


def make(store: Store, seed: int = 1) -> tuple[Service, FixedClock]:
    clock = FixedClock(MORNING)
    return Service(store, clock=clock, random=random.Random(seed)), clock


def workdays(service: Service, *, pre_registration: bool = False) -> tuple[int, int]:
    sid = service.create_series(
        SeriesSettings(
            "Workday blitz",
            "workdays",
            "19:00",
            "Europe/Moscow",
            time_control="G/5",
            pre_registration=pre_registration,
        )
    )
    return sid, service.open_edition(sid)


def opened(number: int, start: str, deadline: str, series: int = 1) -> str:
    """The tick's line for an edition that opened by itself (issue 11 item 1)."""
    return (
        f"series {series}: edition {number} opened by itself — starts {start}, "
        f"registration until {deadline}"
    )


#: edition 2 of a workdays series whose edition 1's stage 1 started on Wednesday
#: 2 December before 15:00 UTC: Wednesday's slot (19:00 in Moscow, deadline 18:00)
WEDNESDAY = opened(2, "2026-12-02T16:00:00+00:00", "2026-12-02T15:00:00+00:00")


def counts(store: Store) -> dict[str, int]:
    with store.reading() as session:
        return {
            t.__tablename__: int(session.scalar(select(func.count()).select_from(t)) or 0)
            for t in TABLES
        }


def outbox(store: Store) -> list[SeriesOutboxRow]:
    with store.reading() as session:
        return list(session.scalars(select(SeriesOutboxRow).order_by(SeriesOutboxRow.id)))


def current_groups(store: Store, edition_id: int) -> tuple[str, list[int]]:
    with store.reading() as session:
        edition = session.get(SeriesEditionRow, edition_id)
        assert edition is not None
        stage = session.scalars(
            select(SeriesStageRow).where(
                SeriesStageRow.edition_id == edition_id, SeriesStageRow.number == edition.stage
            )
        ).one()
        groups = session.scalars(
            select(SeriesGroupRow).where(SeriesGroupRow.stage_id == stage.id)
        ).all()
        return stage.kind, [g.tournament_id for g in groups if g.tournament_id is not None]


def play_all(service: Service, tids: list[int], rng: random.Random, forfeiter: str = "") -> None:
    """Every game a result through the service; ``forfeiter`` wins all by forfeit."""
    with service.store.reading() as session:
        games = [
            (g.tournament_id, g.round, g.board, g.white, g.black)
            for g in session.scalars(
                select(GameRow)
                .where(GameRow.tournament_id.in_(tids))
                .order_by(GameRow.tournament_id, GameRow.round, GameRow.board)
            )
        ]
    for tid, rnd, board, white, black in games:
        result = rng.choice(("1-0", "0-1", "1/2-1/2"))
        players = {p.start: p.name for p in service.tournament(tid).players}
        starts = _starts(service.store, tid)
        if players[starts[white]] == forfeiter:
            result = "+-"
        elif players[starts[black]] == forfeiter:
            result = "-+"
        service.record_result(tid, rnd, board, result)


def _starts(store: Store, tid: int) -> dict[int, int]:
    from crosstable.store.models import EntryRow

    with store.reading() as session:
        rows = session.scalars(select(EntryRow).where(EntryRow.tournament_id == tid))
        return {row.number: row.start or 0 for row in rows}


def test_a_workdays_edition_from_postponement_to_the_super_final(store: Store) -> None:
    service, clock = make(store)
    _sid, edition = workdays(service)
    for index in range(10):
        service.register_for_edition(edition, f"Player {index + 1:02d}", rating=1500 + 10 * index)
    clock.advance(dt.timedelta(hours=6, minutes=30))  # 15:30 UTC: past the deadline (18:00 MSK)
    assert service.tick() == [
        "edition 1: 10 registered, fewer than 15 — the start moves to 2026-12-02T19:00:00+03:00"
    ]
    assert service.tick() == []  # nothing more is due before the new deadline
    info = service.edition_info(edition)
    assert (info["postponed"], info["planned_start"]) == (1, "2026-12-02T16:00:00+00:00")
    for index in range(10, 40):
        service.register_for_edition(edition, f"Player {index + 1:02d}", rating=1500 + 10 * index)
    service.withdraw_from_edition(edition, "Player 01")
    service.register_for_edition(edition, "Player 41", rating=1400)
    # the strongest player will win every game by forfeit and so play none (R-SE-6)
    forfeiter = "Player 40"
    clock.advance(dt.timedelta(days=1, hours=1))  # Wednesday 16:30 UTC: past the start
    done = service.tick()
    assert done == [
        "edition 1: registration closed with 40 players",
        "edition 1: stage 1 made — 4 groups: 4×10",
        "edition 1: stage 1 (groups) started — 4 round robins, every game created",
        # the next slot whose deadline is ahead: Thursday (issue 11 item 1)
        opened(2, "2026-12-03T16:00:00+00:00", "2026-12-03T15:00:00+00:00"),
    ]
    with pytest.raises(RuleError, match="withdraw only before stage 1 starts"):
        service.withdraw_from_edition(edition, "Player 02")
    with pytest.raises(RuleError, match="closed"):
        service.register_for_edition(edition, "Late Comer")
    kind, tids = current_groups(store, edition)
    assert kind == "groups" and len(tids) == 4
    with store.reading() as session:
        assert all(session.get(TournamentRow, t).status == "running" for t in tids)  # type: ignore[union-attr]
        games = session.scalar(
            select(func.count()).select_from(GameRow).where(GameRow.tournament_id.in_(tids))
        )
    assert games == 4 * 45  # every game of the stage created at once
    rng = random.Random(5)
    kinds = ["groups"]
    for _ in range(4):
        play_all(service, tids, rng, forfeiter)
        clock.advance(dt.timedelta(hours=3))
        done = service.tick()
        assert done and "ended" in done[0]
        if "the edition is finished" in done[0]:
            break
        kind, tids = current_groups(store, edition)
        kinds.append(kind)
    assert kinds == ["groups", "final", "super-final"]
    info = service.edition_info(edition)
    assert info["state"] == "finished"
    assert service.tick() == []

    rows = outbox(store)
    keys = [row.dedupe_key for row in rows]
    assert len(keys) == len(set(keys))
    by_kind = Counter(row.kind for row in rows)
    assert by_kind == {
        "registered": 41,
        "start-moved": 10,
        "stage-starts": 40 + 8 + 4,
        "qualified": 8 + 4,
        "eliminated": 32 + 4,
        "news": 40 + 8 + 4,  # every player of each finished stage (R-SE-5)
    }
    eliminated = {r.recipient for r in rows if r.kind == "eliminated"}
    qualified = {r.recipient for r in rows if r.kind == "qualified"}
    assert forfeiter in eliminated and forfeiter not in qualified
    forfeit_row = next(r for r in rows if r.kind == "eliminated" and r.recipient == forfeiter)
    assert forfeit_row.payload["played"] is False
    assert "Player 01" not in {r.recipient for r in rows if r.kind == "stage-starts"}
    starts = [r for r in rows if r.kind == "stage-starts" and r.payload["stage"] == 1]
    assert all(r.payload["first_game"]["round"] == 1 for r in starts if r.payload["first_game"])
    with store.reading() as session:
        steps = [
            e.step for e in session.scalars(select(SeriesEventRow).order_by(SeriesEventRow.id))
        ]
    assert [s for s in steps if s] == [
        f"edition {edition}: postponed 1",
        f"edition {edition}: closed",
        f"edition {edition}: stage 1 made",
        f"edition {edition}: stage 1 starts",
        "series 1: edition 2 opens",
        f"edition {edition}: stage 1 ends",
        f"edition {edition}: stage 2 starts",
        f"edition {edition}: stage 2 ends",
        f"edition {edition}: stage 3 starts",
        f"edition {edition}: stage 3 ends",
    ]


def test_a_server_down_for_days_catches_up_in_order(store: Store) -> None:
    service, clock = make(store)
    _sid, edition = workdays(service, pre_registration=True)  # never extended
    for index in range(5):
        service.register_for_edition(edition, f"Player {index}")
    clock.advance(dt.timedelta(days=3, hours=7))  # Friday 16:00 UTC: three deadlines missed
    done = service.tick()
    # the slots of Wednesday, Thursday and Friday passed with their deadlines: nobody
    # could register for them, so the start moves at once to the first slot still ahead
    assert done == [
        "edition 1: 5 registered, fewer than 15 — the start moves to 2026-12-07T19:00:00+03:00"
    ]
    moved = [r for r in outbox(store) if r.kind == "start-moved"]
    assert len(moved) == 5 and {r.payload["start"] for r in moved} == {"2026-12-07T16:00:00+00:00"}
    assert service.tick() == []
    for index in range(5, 15):
        service.register_for_edition(edition, f"Player {index}")
    clock.advance(dt.timedelta(days=3))  # Monday 16:00 UTC: the start
    assert service.tick()[:2] == [
        "edition 1: registration closed with 15 players",
        "edition 1: stage 1 made — 2 groups: 1×8, 1×7",
    ]


def test_an_extension_then_a_postponement(store: Store) -> None:
    service, clock = make(store)
    _sid, edition = workdays(service)  # without pre-registration
    for index in range(5):  # 5 of the last table's 10 places: short, extended
        service.register_for_edition(edition, f"Player {index}")
    clock.advance(dt.timedelta(hours=7))
    assert "registration extended until 2026-12-08T15:00:00+00:00" in service.tick()[0]
    clock.advance(dt.timedelta(days=7))  # Tuesday 16:00 UTC: the week is over
    assert service.tick() == [
        "edition 1: 5 registered, fewer than 15 — the start moves to 2026-12-09T19:00:00+03:00"
    ]
    assert service.edition_info(edition)["extended"] is True  # never a second week
    service.register_for_edition(edition, "Player 5")  # the new deadline is ahead: open
    clock.advance(dt.timedelta(days=1))
    assert service.tick() == [
        "edition 1: 6 registered, fewer than 15 — the start moves to 2026-12-10T19:00:00+03:00"
    ]


def test_an_edition_without_pre_registration_is_extended_once(store: Store) -> None:
    service, clock = make(store)
    _sid, edition = workdays(service)
    for index in range(23):  # the last table holds 3 of 10: under 60 %
        service.register_for_edition(edition, f"Player {index}")
    clock.advance(dt.timedelta(hours=7))
    done = service.tick()
    assert len(done) == 1 and "registration extended until" in done[0]
    assert service.tick() == []  # recorded once
    for index in range(23, 26):  # 26: six of ten, the extension ends
        service.register_for_edition(edition, f"Player {index}")
    done = service.tick()
    assert done[0] == "edition 1: registration closed with 26 players"
    assert done[1] == "edition 1: stage 1 made — 3 groups: 2×9, 1×8"


def test_registration_refusals(store: Store) -> None:
    service, _clock = make(store)
    sid, edition = workdays(service)
    service.register_for_edition(edition, "Anna")
    with pytest.raises(RuleError, match="registered for edition 1 already"):
        service.register_for_edition(edition, " anna ")
    with pytest.raises(RuleError, match="needs a name"):
        service.register_for_edition(edition, "   ")
    with pytest.raises(RuleError, match="open for registration already"):
        service.open_edition(sid)
    with pytest.raises(NotFoundError, match="not registered"):
        service.withdraw_from_edition(edition, "Boris")
    with pytest.raises(RuleError, match="unknown time zone"):
        service.create_series(SeriesSettings("X", "weekend", "19:00", "Mars/Olympus"))
    with pytest.raises(RuleError, match="unknown calendar kind"):
        service.create_series(SeriesSettings("X", "daily", "19:00", "UTC"))
    with pytest.raises(RuleError, match="HH:MM"):
        service.create_series(SeriesSettings("X", "weekend", "7pm", "UTC"))


def test_a_tick_with_nothing_due_changes_nothing(store: Store) -> None:
    service, clock = make(store)
    _sid, edition = workdays(service)
    for index in range(20):
        service.register_for_edition(edition, f"Player {index}")
    before = counts(store)
    assert service.tick() == []
    assert counts(store) == before
    clock.advance(dt.timedelta(days=1))
    assert service.tick()  # now due: closed, stage made and started
    before = counts(store)
    assert service.tick() == []
    assert counts(store) == before


def test_two_services_ticking_at_once_do_nothing_twice(db_url: str) -> None:
    first = open_store(db_url)
    second = open_store(db_url)
    try:
        service, clock = make(first)
        other = Service(
            second, clock=FixedClock(MORNING + dt.timedelta(days=1)), random=random.Random(2)
        )
        _sid, edition = workdays(service)
        for index in range(40):
            service.register_for_edition(edition, f"Player {index}", rating=1500 + index)
        clock.advance(dt.timedelta(days=1))
        barrier = threading.Barrier(2)
        answers: list[list[str]] = [[], []]
        errors: list[BaseException] = []

        def run(index: int, who: Service) -> None:
            try:
                barrier.wait()
                answers[index] = who.tick()
            except BaseException as error:  # pragma: no cover - reported below
                errors.append(error)

        threads = [
            threading.Thread(target=run, args=(i, s)) for i, s in enumerate((service, other))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        after = service.tick() + other.tick()  # whatever one of them left out
        done = answers[0] + answers[1] + after
        assert Counter(done) == Counter(
            [
                "edition 1: registration closed with 40 players",
                "edition 1: stage 1 made — 4 groups: 4×10",
                "edition 1: stage 1 (groups) started — 4 round robins, every game created",
                WEDNESDAY,  # opened once, by one of the two
            ]
        )
        rows = counts(first)
        assert rows["tournaments"] == 4
        assert Counter(r.kind for r in outbox(first))["stage-starts"] == 40
    finally:
        first.close()
        second.close()


def test_a_tick_while_another_runs_does_nothing(db_url: str) -> None:
    first = open_store(db_url)
    second = open_store(db_url)
    try:
        service, clock = make(first)
        other = Service(second, clock=FixedClock(MORNING + dt.timedelta(days=1)))
        _sid, edition = workdays(service)
        for index in range(20):
            service.register_for_edition(edition, f"Player {index}")
        clock.advance(dt.timedelta(days=1))
        with tick_lock(service) as mine:  # another process is in the middle of a tick
            assert mine
            before = counts(first)
            assert other.tick() == []
            assert counts(first) == before
        # once it is over, the next tick does the work (and opens edition 2)
        assert other.tick()[-2:] == [
            "edition 1: stage 1 (groups) started — 2 round robins, every game created",
            WEDNESDAY,
        ]
    finally:
        first.close()
        second.close()


def test_a_tick_that_died_holds_sqlite_for_ten_minutes_only(tmp_path: object) -> None:
    from crosstable.store.models import PreferenceRow

    opened = open_store(f"sqlite:///{tmp_path}/lease.db")
    try:
        service, clock = make(opened)
        _sid, edition = workdays(service)
        for index in range(20):
            service.register_for_edition(edition, f"Player {index}")
        clock.advance(dt.timedelta(days=1))
        with opened.transaction() as session:  # the lease of a process killed mid-tick
            until = (MORNING + dt.timedelta(days=1, minutes=10)).isoformat()
            session.add(PreferenceRow(key="series.tick.lease", value=until))
        assert service.tick() == []
        clock.advance(dt.timedelta(minutes=11))
        assert len(service.tick()) == 4  # closed, made, started, edition 2 opened
        with opened.reading() as session:
            assert session.get(PreferenceRow, "series.tick.lease") is None
    finally:
        opened.close()


def test_an_edition_that_cannot_go_on_does_not_stop_the_others(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, clock = make(store)
    sid, first = workdays(service)
    other_sid = service.create_series(
        SeriesSettings("Weekend rapid", "weekend", "12:00", "Europe/Moscow", pre_registration=True)
    )
    second = service.open_edition(other_sid)
    for index in range(15):
        service.register_for_edition(first, f"Player {index}")
        service.register_for_edition(second, f"Player {index}")
    from crosstable.service.series import tick as ticking

    real = ticking.SeriesClock._deadline

    def broken(self: ticking.SeriesClock, edition_id: int) -> str | None:
        if edition_id == first:
            raise RuleError("a fault in this edition")
        return real(self, edition_id)

    monkeypatch.setattr(ticking.SeriesClock, "_deadline", broken)
    clock.advance(dt.timedelta(days=4))  # past both deadlines
    done = service.tick()
    assert f"edition id {first}: cannot go on: a fault in this edition" in done
    assert "edition 1: registration closed with 15 players" in done
    assert service.edition_info(second)["closed_at"] is not None
    assert service.edition_info(first)["closed_at"] is None
    del sid


@pytest.mark.parametrize("stop", ["after-create", "after-lots"])
def test_a_tick_stopped_midway_through_a_stage_is_resumed_without_doubles(
    store: Store, monkeypatch: pytest.MonkeyPatch, stop: str
) -> None:
    service, clock = make(store)
    _sid, edition = workdays(service, pre_registration=True)
    for index in range(30):
        service.register_for_edition(edition, f"Player {index}", rating=1500 + index)
    clock.advance(dt.timedelta(days=1))
    name = "create_tournament" if stop == "after-create" else "draw_lots"
    real = getattr(service, name)
    calls: list[int] = []

    def dying(*args: object, **kwargs: object) -> object:
        answer = real(*args, **kwargs)
        calls.append(1)
        if len(calls) == 2:  # the second group's tournament: the process dies here
            raise RuntimeError("killed")
        return answer

    # the service's own use case, as the series' tick calls it (the tournaments it runs)
    monkeypatch.setattr(service, name, dying)
    with pytest.raises(RuntimeError, match="killed"):
        service.tick()
    monkeypatch.setattr(service, name, real)
    done = service.tick()
    assert done == [
        "edition 1: stage 1 (groups) started — 3 round robins, every game created",
        WEDNESDAY,
    ]
    with store.reading() as session:
        tournaments = session.scalars(select(TournamentRow).order_by(TournamentRow.id)).all()
        groups = session.scalars(select(SeriesGroupRow)).all()
    assert len(tournaments) == 3  # the second group's tournament adopted, not made again
    assert all(t.status == "running" for t in tournaments)
    assert sorted(g.tournament_id for g in groups) == [t.id for t in tournaments]
    assert Counter(r.kind for r in outbox(store))["stage-starts"] == 30
    assert service.tick() == []


def test_an_edition_extended_again_after_a_postponement_waits_and_does_not_fail(
    store: Store,
) -> None:
    service, clock = make(store)
    _sid, edition = workdays(service)
    for index in range(5):
        service.register_for_edition(edition, f"Player {index}")
    clock.advance(dt.timedelta(hours=7))  # Tuesday 16:00 UTC
    assert "registration extended" in service.tick()[0]
    clock.advance(dt.timedelta(hours=18))  # Wednesday 10:00 UTC
    service.register_for_edition(edition, "Player 5")  # 6 of 10: the extension ends
    assert service.tick() == [
        "edition 1: 6 registered, fewer than 15 — the start moves to 2026-12-02T19:00:00+03:00"
    ]
    service.withdraw_from_edition(edition, "Player 0")  # short of 60 % again
    clock.advance(dt.timedelta(hours=5, minutes=30))  # Wednesday 15:30 UTC: deadline past
    before = counts(store)
    assert service.tick() == []  # still within the week: registration stays open, once
    assert counts(store) == before
    service.register_for_edition(edition, "Player 6")


def test_the_same_name_is_found_whatever_its_letter_case(store: Store) -> None:
    """The same-name check is one look-up of the case-folded name (migration 0010): Cyrillic
    and ß fold as Python folds them on every database, a withdrawn name may come back."""
    service, _clock = make(store)
    _sid, edition = workdays(service)
    for name in ("Иван Петров", "Straße", "Anna"):
        service.register_for_edition(edition, name)
    for again in ("ИВАН ПЕТРОВ", "STRASSE", "anna"):
        with pytest.raises(RuleError, match="already"):
            service.register_for_edition(edition, again)
    service.withdraw_from_edition(edition, "Anna")
    service.register_for_edition(edition, "ANNA")  # the withdrawn registration is not in force
