"""Bughouse events through the service, on SQLite and on PostgreSQL: a round robin
of pairs, each game's result entered, the first-finished mark deciding a match under
the ``first`` rule (and undone as any change), the pairs' table; refusals change
nothing."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import pytest
from test_service_support import db_url, service, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.core.teams.settings import TeamSettings
from crosstable.service import PlayerInfo, Service
from crosstable.service.errors import NotFoundError


def evening(service: Service, rule: str, pairs: int = 4) -> int:
    tid = service.create_bughouse_tournament("Bughouse evening", rule).tournament_id
    for number in range(1, pairs + 1):
        service.add_team(tid, f"Pair {number}")
        for k in (1, 2):
            service.add_team_member(tid, number, PlayerInfo(f"P{number}{k}", 1900 + number))
    service.start(tid)
    return tid


def test_r_x_6_a_bughouse_round_robin_by_the_sum_rule(service: Service) -> None:
    tid = evening(service, "sum")
    matches = service.bughouse_matches(tid)
    assert len(matches) == 3 * 2 and all(len(m.match.games) == 2 for m in matches)
    for m in matches:
        white = m.match.white
        # partners sit with opposite colours
        assert m.match.team_of[m.match.games[0].white] == white
        assert m.match.team_of[m.match.games[1].black] == white
        for g in m.match.games:
            service.record_result(tid, m.number, g.board, "1-0")
    table = service.bughouse_standings(tid)
    assert sum(r.mp for r in table.rows) == 6 * 2 and sum(r.gp for r in table.rows) == 12
    assert all(r.mp == 3 and r.place == 1 for r in table.rows)  # every match drawn 1-1
    assert table.tiebreaks == ("GP", "EDE", "BH:MP")
    with pytest.raises(RuleError, match="no game decides a match alone"):
        service.mark_first_finished(tid, 1, 1)


def test_r_x_6_the_first_finished_game_decides_and_undo_takes_the_mark_back(
    service: Service,
) -> None:
    tid = evening(service, "first", pairs=3)  # round 1: one match, one pair free
    m = service.bughouse_matches(tid)[0]
    for g in m.match.games:
        service.record_result(tid, 1, g.board, "1-0")
    assert {r.mp for r in service.bughouse_standings(tid).rows} == {0}  # not marked yet
    service.mark_first_finished(tid, 1, 2)  # board 2: the Black pair had White, and won
    m = service.bughouse_matches(tid)[0]
    assert m.first == 2 and m.match_points == (0, 2)
    table = service.bughouse_standings(tid)
    rows = [(r.team, r.mp, r.gp) for r in table.rows]
    assert rows[:2] == [(m.match.black, 2, 1), (m.match.white, 0, 1)]
    service.mark_first_finished(tid, 1, 1)
    assert service.bughouse_matches(tid)[0].match_points == (2, 0)
    service.undo(tid)
    assert service.bughouse_matches(tid)[0].first == 2
    revision = service.revision(tid)
    with pytest.raises(NotFoundError, match="no board 7"):
        service.mark_first_finished(tid, 1, 7)
    with pytest.raises(NotFoundError, match="no round 4"):
        service.mark_first_finished(tid, 4, 1)
    assert service.revision(tid) == revision
    assert service.verify(tid) == []


def test_r_x_6_a_team_tournament_is_not_a_bughouse_event(service: Service) -> None:
    tid = service.create_team_tournament("League", TeamSettings()).tournament_id
    with pytest.raises(RuleError, match="not a Bughouse event"):
        service.bughouse_standings(tid)
    with pytest.raises(RuleError, match="Bughouse rule"):
        service.create_bughouse_tournament("Odd", "most")


def test_r_x_6_a_swiss_of_pairs_by_the_first_rule(service: Service) -> None:
    tid = service.create_bughouse_tournament(
        "Bughouse Swiss", "first", swiss=True, rounds=3
    ).tournament_id
    for number in range(1, 6):
        service.add_team(tid, f"Pair {number}")
        for k in (1, 2):
            service.add_team_member(tid, number, PlayerInfo(f"P{number}{k}", 1500 + 100 * number))
    service.start(tid)
    teams = service.team_list(tid)
    assert min(teams, key=lambda t: t.start or 0).name == "Pair 5"  # the best average
    # the team Swiss's pairing would score its rounds by game points, not by the rule
    with pytest.raises(RuleError, match="is a Bughouse Swiss: pair its rounds as Bughouse"):
        service.pair_team_round(tid)
    met: set[frozenset[int]] = set()
    byes: list[int] = []
    for rnd in (1, 2, 3):
        change = service.pair_bughouse_round(tid)
        assert change.data["bye"] is not None
        byes.append(change.data["bye"])
        matches = [m for m in service.bughouse_matches(tid) if m.number == rnd]
        assert len(matches) == 2
        for m in matches:
            pair = frozenset((m.match.white, m.match.black))
            assert pair not in met
            met.add(pair)
            for g in m.match.games:
                service.record_result(tid, rnd, g.board, "1-0")
            if rnd < 3:
                with pytest.raises(RuleError, match="not decided yet"):
                    service.pair_bughouse_round(tid)
            service.mark_first_finished(tid, rnd, m.match.games[0].board)
    assert len(set(byes)) == 3
    with pytest.raises(RuleError, match="all 3 rounds are paired"):
        service.pair_bughouse_round(tid)
    table = service.bughouse_standings(tid)
    # every match won by the White pair (board 1 finished first) and each bye 2 MP
    assert sum(r.mp for r in table.rows) == 3 * 2 * 2 + 3 * 2
    service.undo(tid)  # the last mark
    assert [m.first for m in service.bughouse_matches(tid)][-1] is None
    assert service.verify(tid) == []


def test_r_x_6_a_round_robin_of_pairs_is_not_paired_round_by_round(service: Service) -> None:
    tid = evening(service, "sum", pairs=3)
    revision = service.revision(tid)
    with pytest.raises(RuleError, match="paired at the start"):
        service.pair_bughouse_round(tid)
    assert service.revision(tid) == revision
