"""What a finished stage publishes (R-SE-5): the news item, the awards (places 1–3 of
every group, the final and the super-final), the players' results and the season's
standings over editions — on SQLite and PostgreSQL.

The games are decided by rating (the stronger player wins every game), so what each
player scores follows from the groups alone: the oracle below counts, in each group the
store recorded, how many weaker players the player met — independent of the standings
code the service uses."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import datetime as dt
import random
from collections import Counter, defaultdict

import pytest
from sqlalchemy import select
from test_series_service import MORNING, current_groups
from test_service_support import db_url, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.service import FixedClock, NotFoundError, Service
from crosstable.service.series import SeriesSettings
from crosstable.store import Store
from crosstable.store.models import EntryRow, GameRow
from crosstable.store.series_models import (
    SeriesAwardRow,
    SeriesEditionRow,
    SeriesGroupRow,
    SeriesNewsRow,
    SeriesOutboxRow,
    SeriesRegistrationRow,
    SeriesResultRow,
    SeriesStageRow,
)


def _service(store: Store) -> tuple[Service, FixedClock]:
    clock = FixedClock(MORNING)
    return Service(store, clock=clock, random=random.Random(3)), clock


def _series(service: Service) -> int:
    return service.create_series(
        SeriesSettings(
            "Workday blitz",
            "workdays",
            "19:00",
            "Europe/Moscow",
            time_control="G/5",
            pre_registration=True,  # never extended: 15 players start at once
        )
    )


def play_by_rating(service: Service, tids: list[int], forfeiter: str = "") -> None:
    """Every game won by the higher-rated player; ``forfeiter`` wins his by forfeit."""
    with service.store.reading() as session:
        games = [
            (g.tournament_id, g.round, g.board, g.white, g.black)
            for g in session.scalars(
                select(GameRow)
                .where(GameRow.tournament_id.in_(tids))
                .order_by(GameRow.tournament_id, GameRow.round, GameRow.board)
            )
        ]
        entries = {
            (row.tournament_id, row.number): (row.name, row.rating or 0)
            for row in session.scalars(select(EntryRow).where(EntryRow.tournament_id.in_(tids)))
        }
    for tid, rnd, board, white, black in games:
        (wname, wrating), (bname, brating) = entries[tid, white], entries[tid, black]
        if forfeiter in (wname, bname):
            result = "+-" if wname == forfeiter else "-+"
        else:
            result = "1-0" if wrating > brating else "0-1"
        service.record_result(tid, rnd, board, result)


def open_edition(service: Service, sid: int) -> int:
    """The series' edition open for registration; opened by hand when there is none."""
    found = [e for e in service.series_info(sid)["editions"] if e["state"] == "registration"]
    return int(found[0]["id"]) if found else service.open_edition(sid)


def run_edition(
    service: Service,
    clock: FixedClock,
    sid: int,
    names: list[tuple[str, int, int | None]],
    forfeiter: str = "",
) -> int:
    """The edition open for registration (edition 1 opened by hand, the next ones by
    themselves), register ``names`` (name, rating, account), tick it through stage 1,
    the final and the super-final; its id."""
    edition = open_edition(service, sid)
    for name, rating, user in names:
        service.register_for_edition(edition, name, rating=rating, user_id=user)
    start = dt.datetime.fromisoformat(service.edition_info(edition)["planned_start"])
    clock.advance(start + dt.timedelta(minutes=1) - clock.now())
    done = service.tick()
    assert any(line.endswith("every game created") for line in done), done
    for _ in range(3):
        _kind, tids = current_groups(service.store, edition)
        play_by_rating(service, tids, forfeiter)
        clock.advance(dt.timedelta(hours=1))
        done = service.tick()
        assert "ended" in done[0]
    assert service.edition_info(edition)["state"] == "finished"
    return edition


def oracle(store: Store, editions: list[int]) -> dict[str, tuple[int, int, int]]:
    """name → (points, over-the-board wins, games played), from the recorded groups."""
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    with store.reading() as session:
        regs = {r.id: r for r in session.scalars(select(SeriesRegistrationRow))}
        stages = session.scalars(
            select(SeriesStageRow).where(SeriesStageRow.edition_id.in_(editions))
        )
        for stage in stages:
            for group in session.scalars(
                select(SeriesGroupRow).where(SeriesGroupRow.stage_id == stage.id)
            ):
                players = [regs[key] for key in group.players]
                for me in players:
                    for other in players:
                        if other is me:
                            continue
                        forfeit = "Forfeiter" in (me.name, other.name)
                        won = (me.rating or 0) > (other.rating or 0)
                        total = totals[me.name]
                        total[0] += stage.cycles * won
                        if not forfeit:
                            total[1] += stage.cycles * won
                            total[2] += stage.cycles
    return {name: (p, w, g) for name, (p, w, g) in totals.items()}


PLAYERS = [(f"Player {i:02d}", 2000 - 10 * i, 100 + i if i % 2 else None) for i in range(1, 15)]


def test_each_stage_publishes_news_awards_and_results_once(store: Store) -> None:
    service, clock = _service(store)
    sid = _series(service)
    # the strongest player wins every game by forfeit: first in his group, no award
    # and not qualified (R-SE-6)
    edition = run_edition(service, clock, sid, [("Forfeiter", 2500, None), *PLAYERS], "Forfeiter")
    news = service.series_news(sid)
    assert [(n["kind"], n["stage"]) for n in news] == [
        ("super-final", 3),
        ("final", 2),
        ("groups", 1),
    ]
    stage_one = news[2]
    assert stage_one["title"] == "Workday blitz #1: stage 1 is over — 6 go on"
    assert [g["letter"] for g in stage_one["groups"]] == ["A", "B"]
    forfeit_group = next(g for g in stage_one["groups"] if g["winner"] == "Forfeiter")
    assert forfeit_group["winner_played"] is False
    assert [p["place"] for p in forfeit_group["podium"]] == [2, 3]
    assert "Forfeiter" not in stage_one["qualified"] and len(stage_one["qualified"]) == 6
    assert stage_one["next_stage"] == 2 and stage_one["next_kind"] == "final"
    assert news[0]["finished"] is True
    # the super-final's winner: the strongest who played (Player 01, 2 games a pairing)
    assert news[0]["title"] == "Workday blitz #1: the super-final is over — Player 01 wins"
    assert service.news_item(sid, news[0]["id"]) == news[0]

    awards = service.series_awards(sid)
    assert Counter(a["kind"] for a in awards) == {"groups": 5, "final": 3, "super-final": 3}
    assert "Forfeiter" not in {a["name"] for a in awards}
    expected = oracle(store, [edition])
    with store.reading() as session:
        results = list(session.scalars(select(SeriesResultRow)))
    assert len(results) == 15 + 6 + 4
    by_name: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for row in results:
        total = by_name[row.name]
        total[0] += int(float(row.points))
        total[1] += row.wins
        total[2] += row.played
    assert {k: tuple(v) for k, v in by_name.items()} == expected
    super_final = sorted(
        (a for a in awards if a["kind"] == "super-final"), key=lambda a: a["place"]
    )
    # 4 players, two cycles: the strongest wins all 6 games, the next 4, then 2
    assert [(a["name"], a["points"]) for a in super_final] == [
        ("Player 01", 6),
        ("Player 02", 4),
        ("Player 03", 2),
    ]
    assert service.series_awards(sid, player=" player 01 ") == [
        a for a in awards if a["name"] == "Player 01"
    ]
    badges = service.badges(101)  # Player 01's account
    assert {b["kind"] for b in badges} == {"groups", "final", "super-final"}
    assert all(b["series_name"] == "Workday blitz" for b in badges)
    award = service.award(sid, super_final[0]["id"])
    assert award["place"] == 1 and award["series_name"] == "Workday blitz"
    with pytest.raises(NotFoundError):
        service.award(sid + 1, super_final[0]["id"])
    with pytest.raises(NotFoundError):
        service.news_item(sid, 10**6)
    with pytest.raises(NotFoundError):
        service.series_news(sid + 1)

    # every player of each stage is told once; a tick more publishes nothing again
    with store.reading() as session:
        rows = list(session.scalars(select(SeriesOutboxRow).where(SeriesOutboxRow.kind == "news")))
        news_rows = len(list(session.scalars(select(SeriesNewsRow))))
        award_rows = len(list(session.scalars(select(SeriesAwardRow))))
    assert len(rows) == 15 + 6 + 4 and len({r.dedupe_key for r in rows}) == len(rows)
    assert {r.payload["title"] for r in rows} == {n["title"] for n in news}
    clock.advance(dt.timedelta(days=1))
    service.tick()
    with store.reading() as session:
        assert len(list(session.scalars(select(SeriesNewsRow)))) == news_rows == 3
        assert len(list(session.scalars(select(SeriesAwardRow)))) == award_rows


def test_season_standings_add_up_the_editions(store: Store) -> None:
    service, clock = _service(store)
    sid = _series(service)
    first = run_edition(service, clock, sid, [("Forfeiter", 2500, None), *PLAYERS], "Forfeiter")
    # edition 2: the same players but the forfeiter, one more, and Player 14 now stronger
    second_names = [(n, 2100 if n == "Player 14" else r, u) for n, r, u in PLAYERS]
    second = run_edition(service, clock, sid, [*second_names, ("Newcomer", 1000, None)])
    with store.reading() as session:
        starts = [e.planned_start for e in session.scalars(select(SeriesEditionRow).order_by("id"))]
    assert all(s.startswith("2026-12") for s in starts)
    table = service.season_standings(sid)  # the clock's season: 2026
    assert table["season"] == 2026 and table["editions"] == [1, 2]
    assert table["order"][0] == "points" and len(table["order"]) == 4
    expected = oracle(store, [first, second])
    rows = table["rows"]
    assert {r["name"]: (r["points"], r["wins"], r["played"]) for r in rows} == {
        name: (float(p), w, g) for name, (p, w, g) in expected.items()
    }
    # the order stated: points, best finish, wins, fewer games
    keys = [
        (-r["points"], -_finish(r), r["best_place"] or 99, -r["wins"], r["played"]) for r in rows
    ]
    assert keys == sorted(keys)
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
    forfeiter = next(r for r in rows if r["name"] == "Forfeiter")
    assert (forfeiter["played"], forfeiter["editions"], forfeiter["best_kind"]) == (0, 1, "groups")
    top = rows[0]
    assert top["medals"]["gold"] >= 1 and top["editions"] == 2
    # equal on everything: one shared place, "a–b"
    shared = Counter(r["rank"] for r in rows)
    for row in rows:
        if shared[row["rank"]] > 1:
            assert "–" in row["place"]
        else:
            assert row["place"] == str(row["rank"])
    assert service.season_standings(sid, "all")["rows"] == rows
    assert service.season_standings(sid, 2027)["rows"] == []
    for bad in ("26", "next", "0999"):
        with pytest.raises(RuleError, match="season"):
            service.season_standings(sid, bad)
    with pytest.raises(NotFoundError):
        service.season_standings(sid + 1)


def _finish(row: dict[str, object]) -> int:
    kind = {"groups": 1, "final": 2, "super-final": 3}[str(row["best_kind"])]
    stage = int(str(row["best_stage"])) if kind == 1 else 0
    return kind * 100 + stage
