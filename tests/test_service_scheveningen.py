"""Scheveningen tournaments through the service, on SQLite and on PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_service_support import db_url, service, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.core.model import LotsMethod, System
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.live import live_standings

RESULTS = ("1-0", "½-½", "0-1")


def scheveningen_event(
    service: Service,
    teams: list[str | None],
    *,
    cycles: int = 1,
    name: str = "Match",
) -> int:
    """A Scheveningen with one player per item of ``teams`` (registration number = index + 1)."""
    created = service.create_tournament(
        Regulations(name=name, system=System.SCHEVENINGEN, cycles=cycles)
    )
    tid = created.tournament_id
    for index, team in enumerate(teams, 1):
        service.add_player(tid, PlayerInfo(f"Player {index}", 2000 + index, team=team or ""))
    return tid


def team_by_start(service: Service, tid: int, teams: list[str | None]) -> dict[int, str]:
    """Starting number → team (registration numbers are 1… in the order of ``teams``)."""
    view = service.overview(tid)
    return {p.start: str(teams[p.number - 1]) for p in view.players if p.start is not None}


def check_schedule(service: Service, tid: int, teams: list[str | None], cycles: int) -> None:
    """Every player meets each opponent of the other team ``cycles`` times, never a team-mate;
    team A is 1…n and team B n+1…2n; board i is A i's game."""
    view = service.overview(tid)
    n = len(teams) // 2
    team = team_by_start(service, tid, teams)
    assert len({team[s] for s in range(1, n + 1)}) == 1
    assert len({team[s] for s in range(n + 1, 2 * n + 1)}) == 1
    assert team[1] != team[n + 1]
    assert view.rounds == n * cycles
    met: Counter[frozenset[int]] = Counter()
    per_round: dict[int, list[int]] = {}
    for game in view.games:
        assert game.white is not None and game.black is not None
        assert team[game.white] != team[game.black], game
        met[frozenset((game.white, game.black))] += 1
        per_round.setdefault(game.round, []).extend((game.white, game.black))
        a_player = min(game.white, game.black)
        assert a_player == game.board, game
    expected = {frozenset((a, b)) for a in range(1, n + 1) for b in range(n + 1, 2 * n + 1)}
    assert set(met) == expected
    assert set(met.values()) == {cycles}
    for players in per_round.values():
        assert sorted(players) == list(range(1, 2 * n + 1))


def play_out(service: Service, tid: int, seed: int) -> None:
    rng = random.Random(seed)
    for game in service.overview(tid).games:
        service.record_result(tid, game.round, game.board, rng.choice(RESULTS))


def test_two_teams_of_four_play_to_the_end(service: Service) -> None:
    teams: list[str | None] = ["Lions", "Tigers"] * 4
    tid = scheveningen_event(service, teams)
    drawn = service.draw_lots(tid, LotsMethod.RANDOM, seed=12345)
    order = drawn.data["order"]  # registration numbers in drawn order
    change = service.start(tid, actor="arbiter")
    assert change.data["rounds"] == 4
    assert "16 games" in change.summary
    view = service.overview(tid)
    assert view.status == "running"
    assert len(view.games) == 16
    check_schedule(service, tid, teams, cycles=1)
    # team A is the team of the player who drew number 1; within each team the drawn
    # order is the board order
    start_of = {p.number: p.start for p in view.players}
    team_a = teams[order[0] - 1]
    members_a = [number for number in order if teams[number - 1] == team_a]
    members_b = [number for number in order if teams[number - 1] != team_a]
    assert [start_of[number] for number in members_a] == [1, 2, 3, 4]
    assert [start_of[number] for number in members_b] == [5, 6, 7, 8]
    assert change.data["teams"][0]["team"] == team_a

    play_out(service, tid, seed=3)
    table = service.live_standings(tid)
    assert table is not None
    assert {k: v for k, v in table.items() if k != "revision"} == live_standings(
        service.tournament(tid)
    )
    assert sum(Fraction(str(row["points"])) for row in table["rows"]) == 16
    finished = service.finish(tid)
    assert "places are final" in finished.summary
    places = sorted(p.place for p in service.overview(tid).players if p.place is not None)
    assert len(places) == 8 and places[0] == 1
    assert service.verify(tid) == []


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    n=st.integers(min_value=1, max_value=5),
    cycles=st.integers(min_value=1, max_value=2),
    seed=st.integers(min_value=1, max_value=10**6),
    method=st.sampled_from([LotsMethod.RANDOM, LotsMethod.RATING]),
)
def test_every_draw_gives_a_proper_scheveningen(
    service: Service, n: int, cycles: int, seed: int, method: LotsMethod
) -> None:
    shuffled: list[str | None] = ["North"] * n + ["South"] * n
    random.Random(seed).shuffle(shuffled)
    tid = scheveningen_event(service, shuffled, cycles=cycles)
    service.draw_lots(tid, method, seed=seed if method is LotsMethod.RANDOM else None)
    service.start(tid)
    check_schedule(service, tid, shuffled, cycles)
    # colours: in a double Scheveningen each pair meets once with each colour
    if cycles == 2:
        colours = Counter((g.white, g.black) for g in service.overview(tid).games)
        assert set(colours.values()) == {1}


def test_a_draw_by_hand_listing_team_a_first_keeps_every_number(service: Service) -> None:
    teams: list[str | None] = ["B-team", "A-team", "B-team", "A-team"]
    tid = scheveningen_event(service, teams)
    service.draw_lots(tid, LotsMethod.MANUAL, order=(4, 2, 3, 1))
    change = service.start(tid)
    assert change.data["renumbered"] is False
    assert "team by team" not in change.summary
    starts = {p.number: p.start for p in service.overview(tid).players}
    assert starts == {4: 1, 2: 2, 3: 3, 1: 4}
    games = {(g.round, g.board): (g.white, g.black) for g in service.overview(tid).games}
    # the published two-board table: round 1 A1-B1, A2-B2; round 2 B2-A1, B1-A2 (2–0, 0–2)
    assert games == {(1, 1): (1, 3), (1, 2): (2, 4), (2, 1): (4, 1), (2, 2): (3, 2)}


def test_undoing_the_start_gives_the_drawn_numbers_back(service: Service) -> None:
    teams: list[str | None] = ["X", "X", "Y", "Y", "X", "Y"]
    tid = scheveningen_event(service, teams)
    service.draw_lots(tid, LotsMethod.MANUAL, order=(3, 1, 2, 4, 5, 6))
    before = {p.number: p.start for p in service.overview(tid).players}
    change = service.start(tid)
    assert change.data["renumbered"] is True
    after = {p.number: p.start for p in service.overview(tid).players}
    # Y drew number 1 → team A = Y in drawn order 3, 4, 6; team X = 1, 2, 5
    assert after == {3: 1, 4: 2, 6: 3, 1: 4, 2: 5, 5: 6}
    service.undo(tid)
    view = service.overview(tid)
    assert view.status == "registration"
    assert {p.number: p.start for p in view.players} == before
    assert view.games == ()
    assert service.verify(tid) == []


@pytest.mark.parametrize(
    ("teams", "message"),
    [
        (
            ["A", "B", None, "B"],
            r"every player of a Scheveningen needs a team: no team for 3 Player 3",
        ),
        (["A", "A", "A", "A"], r"exactly two teams; there are 1: 'A' \(4 players\)"),
        (
            ["A", "B", "C", "A", "B", "A"],
            r"exactly two teams; there are 3: "
            r"'A' \(3 players\), 'B' \(2 players\), 'C' \(1 player\)",
        ),
        (["A", "B", "A", "A", "B"], r"the same number of players: 'A' has 3, 'B' has 2"),
    ],
)
def test_teams_that_cannot_play_a_scheveningen_are_refused(
    service: Service, teams: list[str | None], message: str
) -> None:
    tid = scheveningen_event(service, teams)
    service.draw_lots(tid, LotsMethod.MANUAL, order=tuple(range(1, len(teams) + 1)))
    with pytest.raises(RuleError, match=message):
        service.start(tid)
    view = service.overview(tid)
    assert view.status == "registration"
    assert view.games == ()
    assert [p.start for p in view.players] == list(range(1, len(teams) + 1))


def test_a_withdrawal_forfeits_the_remaining_games(service: Service) -> None:
    teams: list[str | None] = ["A", "B"] * 3
    tid = scheveningen_event(service, teams)
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 3, 5, 2, 4, 6))
    service.start(tid)
    for game in service.overview(tid).games:
        if game.round == 1:
            service.record_result(tid, 1, game.board, "½-½")
    change = service.withdraw(tid, 4)
    assert change.data["forfeits"] == 2
    forfeits = [g for g in service.overview(tid).games if g.round > 1 and 4 in (g.white, g.black)]
    assert all(g.result in ("+-", "-+") for g in forfeits)
    assert all((g.result == "-+") == (g.white == 4) for g in forfeits)
