"""Team round robins through the service, on SQLite and on PostgreSQL: teams and
members, the start (team lots, Berger over the teams, boards seated), line-ups, board
results, team standings, player scores and board prizes; refusals change nothing."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

from fractions import Fraction

import pytest
from test_service_support import db_url, service, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.core.teams import Team, TeamScoring, team_standings
from crosstable.core.teams.settings import TeamSettings
from crosstable.service import PlayerInfo, Regulations, Service

SETTINGS = TeamSettings.from_details({"team_boards": "2"})


def league(service: Service, reserves: int = 1) -> int:
    """Four teams of two boards (the first with ``reserves`` reserves)."""
    tid = service.create_team_tournament("League", SETTINGS).tournament_id
    for number, name in enumerate(("Ararat", "Sevan", "Masis", "Aragats"), 1):
        service.add_team(tid, name)
        size = 2 + (reserves if number == 1 else 0)
        for k in range(size):
            service.add_team_member(
                tid, number, PlayerInfo(f"{name} {k + 1}", 2000 - k), captain=k == 0
            )
    return tid


def test_r_b_3_a_team_league_end_to_end(service: Service) -> None:
    tid = league(service)
    service.start(tid)
    teams = service.team_list(tid)
    assert [t.start for t in teams] == [1, 2, 3, 4]
    assert sorted(len(t.members) for t in teams) == [2, 2, 2, 3]
    assert [m.start for t in teams for m in t.members] == list(range(1, 10))
    matches = service.team_matches(tid)
    assert len(matches) == 3 and all(len(r) == 2 for r in matches)
    first = matches[0][0]
    # board 1 White for the team drawn White, the colours alternating
    assert first.team_of[first.games[0].white] == first.white
    assert first.team_of[first.games[1].white] == first.black
    ararat = next(t for t in teams if t.name == "Ararat")
    round_2 = next(m for m in matches[1] if ararat.start in (m.white, m.black))
    lineup = (ararat.members[0].start, ararat.members[2].start)
    service.set_lineup(tid, 2, ararat.start or 0, lineup)
    seated = next(m for m in service.team_matches(tid)[1] if m.table == round_2.table)
    assert {g.white for g in seated.games} | {g.black for g in seated.games} >= set(lineup)
    for rnd, matches_of_round in enumerate(service.team_matches(tid), 1):
        for match in matches_of_round:
            for g in match.games:
                result = "1-0" if g.board % 3 else "½-½"
                service.record_result(tid, rnd, g.board, result)
    table = service.team_standings(tid)
    state = service.tournament(tid)
    core_teams = [
        Team(t.start or 0, t.name, tuple(state.players[m.start - 1] for m in t.members), 2)
        for t in teams
    ]
    expected = team_standings(state, core_teams, SETTINGS.tiebreaks, TeamScoring())
    assert [(r.team, r.place, r.mp, r.gp) for r in table.rows] == [
        (r.team, r.place, r.mp, r.gp) for r in expected.rows
    ]
    assert sum(r.mp for r in table.rows) == 3 * 2 * 2
    assert sum(r.gp for r in table.rows) == 3 * 2 * 2
    assert sum(r.points for r in service.player_scores(tid)) == 12
    assert service.board_prizes(tid, min_games=1)
    assert service.verify(tid) == []  # the team rows are what the history says


def test_r_b_3_undoing_the_start_gives_the_teams_back_as_they_were(service: Service) -> None:
    tid = league(service)
    before = service.team_list(tid)
    service.start(tid)
    assert service.team_list(tid) != before
    service.undo(tid)
    assert service.team_list(tid) == before
    assert service.tournament(tid).rounds == ()
    assert service.verify(tid) == []
    service.start(tid)
    assert len(service.team_matches(tid)) == 3


def test_r_b_3_refusals_change_nothing(service: Service) -> None:
    tid = league(service, reserves=0)
    service.add_team(tid, "Short")
    service.add_team_member(tid, 5, PlayerInfo("Alone"))
    before = service.revision(tid)
    with pytest.raises(RuleError, match="team Short is short of players: 1 for 2 boards"):
        service.start(tid)
    with pytest.raises(RuleError, match="there is a team 'Sevan' already"):
        service.add_team(tid, "sevan")
    assert service.revision(tid) == before
    assert service.tournament(tid).rounds == ()


def test_r_b_3_a_player_of_no_team_stops_the_start(service: Service) -> None:
    tid = league(service)
    service.add_player(tid, PlayerInfo("Loner"))
    service.draw_lots(tid)
    before = service.revision(tid)
    with pytest.raises(RuleError, match="player Loner is in no team"):
        service.start(tid)
    assert service.revision(tid) == before


def test_r_b_3_lineup_against_the_board_order_refused_and_undone(service: Service) -> None:
    tid = league(service)
    service.start(tid)
    ararat = next(t for t in service.team_list(tid) if t.name == "Ararat")
    starts = [m.start or 0 for m in ararat.members]
    before = service.revision(tid)
    with pytest.raises(RuleError, match=r"listed after player \d+ on board 2; the board order"):
        service.set_lineup(tid, 1, ararat.start or 0, (starts[1], starts[0]))
    with pytest.raises(RuleError, match="1 players for 2 boards"):
        service.set_lineup(tid, 1, ararat.start or 0, (starts[0],))
    assert service.revision(tid) == before
    games_before = service.tournament(tid).rounds[0].games
    service.set_lineup(tid, 1, ararat.start or 0, (starts[1], starts[2]))
    assert service.tournament(tid).rounds[0].games != games_before
    service.undo(tid)
    assert service.tournament(tid).rounds[0].games == games_before
    match = next(m for m in service.team_matches(tid)[0] if ararat.start in (m.white, m.black))
    service.record_result(tid, 1, match.games[0].board, "+-")  # a late board: a forfeit
    with pytest.raises(RuleError, match="has results; its line-up is fixed"):
        service.set_lineup(tid, 1, ararat.start or 0, (starts[0], starts[2]))
    service.record_result(tid, 1, match.games[1].board, "½-½")
    white_points = Fraction(3, 2) if match.team_of[match.games[0].white] == match.white else 1
    score = (Fraction(white_points), 2 - Fraction(white_points))
    assert (
        service.check_match(tid, 1, ararat.start or 0, score)
        == service.team_matches(tid)[0][match.table - 1]
    )
    with pytest.raises(RuleError, match="by the score given, but its boards give"):
        service.check_match(tid, 1, ararat.start or 0, (Fraction(2), Fraction(0)))


def test_r_b_3_team_reads_refuse_a_tournament_of_players(service: Service) -> None:
    tid = service.create_tournament(Regulations(name="Open")).tournament_id
    with pytest.raises(RuleError, match=f"tournament {tid} is not played by teams"):
        service.team_standings(tid)
    with pytest.raises(RuleError, match="is not played by teams"):
        service.add_team(tid, "A")
