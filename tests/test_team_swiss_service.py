"""The team Swiss through the service, on SQLite and on PostgreSQL: created, started
(teams numbered by their initial ranking), each round paired from the stored results by
the Olympiad rules or the Dutch rules, the bye scored, undo, and refusals."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

from fractions import Fraction

import pytest
from test_service_support import db_url, service, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.core.teams.settings import TeamSettings
from crosstable.service import PlayerInfo, Service

NAMES = ("Ararat", "Sevan", "Masis", "Aragats", "Hrazdan")


def swiss(service: Service, pairing: str = "olympiad", teams: int = 5, rounds: int = 3) -> int:
    settings = TeamSettings.from_details(
        {"team_boards": "2", "team_system": "swiss", "team_pairing": pairing}
    )
    tid = service.create_team_swiss("Olympiad", settings, rounds=rounds).tournament_id
    for number, name in enumerate(NAMES[:teams], 1):
        service.add_team(tid, name)
        for k in range(2):
            # Aragats the strongest, then Masis …: the initial ranking is by rating
            rating = 1900 + 50 * number - 10 * k
            service.add_team_member(tid, number, PlayerInfo(f"{name} {k + 1}", rating))
    return tid


def play_round(service: Service, tid: int, number: int) -> None:
    for match in service.team_matches(tid)[number - 1]:
        for g in match.games:
            service.record_result(tid, number, g.board, "1-0" if g.board % 2 else "½-½")


def test_r_b_3_team_swiss_olympiad_end_to_end(service: Service) -> None:
    tid = swiss(service)
    service.start(tid)
    teams = {t.start: t.name for t in service.team_list(tid)}
    assert teams == {1: "Hrazdan", 2: "Aragats", 3: "Masis", 4: "Sevan", 5: "Ararat"}
    met: set[frozenset[int]] = set()
    byes: list[int] = []
    for number in (1, 2, 3):
        change = service.pair_team_round(tid)
        assert change.kind == "team-pair"
        matches = service.team_matches(tid)[number - 1]
        assert len(matches) == 2
        paired = {t for m in matches for t in (m.white, m.black)}
        bye = ({1, 2, 3, 4, 5} - paired).pop()
        byes.append(bye)
        for m in matches:
            assert frozenset((m.white, m.black)) not in met  # no rematch
            met.add(frozenset((m.white, m.black)))
            assert m.team_of[m.games[0].white] == m.white  # board 1 to the White team
        play_round(service, tid, number)
    assert len(set(byes)) == 3  # nobody has the bye twice
    assert byes[0] == 5  # the lowest-ranked team has the first bye
    table = service.team_standings(tid)
    assert table.tiebreaks == ("MPVGP", "EDE", "BH:MP-C1", "BH:MP", "EMGSB")
    by_team = {row.team: row for row in table.rows}
    # the bye: a won match's match points and half the boards' game points
    assert by_team[byes[0]].mp >= 2
    assert sum(r.mp for r in table.rows) == 3 * 2 * 2 + 3 * 2
    with pytest.raises(RuleError, match="all 3 rounds are paired"):
        service.pair_team_round(tid)


def test_r_b_3_team_swiss_dutch_rounds_follow_the_engine(service: Service) -> None:
    tid = swiss(service, "dutch", teams=4, rounds=3)
    service.start(tid)
    for number in (1, 2, 3):
        service.pair_team_round(tid)
        play_round(service, tid, number)
    rounds = service.team_matches(tid)
    pairs = [frozenset((m.white, m.black)) for r in rounds for m in r]
    assert len(pairs) == len(set(pairs)) == 6  # every team met every other once
    assert [(m.white, m.black) for m in rounds[0]] == [(1, 3), (4, 2)]


def test_r_b_3_undo_takes_a_pairing_back(service: Service) -> None:
    tid = swiss(service, teams=4, rounds=2)
    service.start(tid)
    service.pair_team_round(tid)
    first = [(m.white, m.black) for m in service.team_matches(tid)[0]]
    service.undo(tid)
    assert service.team_matches(tid) == ()
    service.pair_team_round(tid)
    assert [(m.white, m.black) for m in service.team_matches(tid)[0]] == first
    assert service.verify(tid) == []


def test_r_b_3_team_swiss_refusals_change_nothing(service: Service) -> None:
    tid = swiss(service, teams=4, rounds=2)
    with pytest.raises(RuleError, match="once it has started"):
        service.pair_team_round(tid)
    service.start(tid)
    service.pair_team_round(tid)
    with pytest.raises(RuleError, match="without a result"):
        service.pair_team_round(tid)
    with pytest.raises(RuleError, match="played by teams"):
        service.propose_round(tid)
    assert len(service.team_matches(tid)) == 1
    with pytest.raises(RuleError, match="team bye"):
        TeamSettings.from_details({"team_system": "swiss", "team_bye": "x"})
    too_many = swiss(service, teams=4, rounds=4)
    with pytest.raises(RuleError, match="too many"):
        service.start(too_many)


def test_r_b_3_team_swiss_bye_counts_in_the_records(service: Service) -> None:
    tid = swiss(service, teams=3, rounds=2)
    service.start(tid)
    service.pair_team_round(tid)
    play_round(service, tid, 1)
    table = service.team_standings(tid)
    row = next(r for r in table.rows if r.team == 3)  # the bye of round 1
    assert (row.mp, row.gp) == (Fraction(2), Fraction(1))
