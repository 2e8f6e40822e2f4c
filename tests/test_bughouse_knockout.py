"""A knockout of Bughouse pairs through the service, on SQLite and on PostgreSQL: the
pairs seeded by their rating, each knockout game a Bughouse match of two boards, the
match decided by the rule (sum or the first finished game), a drawn match decided by
the tie rule (the lower-rated pair, play-off matches), the next round seated, the
winner's places at the finish; refusals change nothing and undo takes a step back."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_service_support import db_url, service, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.service import PlayerInfo, Service
from crosstable.service.teams.bughouse import KnockoutOptions


def cup(
    service: Service,
    rule: str = "sum",
    pairs: int = 4,
    options: KnockoutOptions | None = None,
) -> int:
    """A knockout of ``pairs`` pairs, pair k rated 1900 + 10k (so the last added is the
    strongest), started."""
    tid = service.create_bughouse_tournament(
        "Bughouse cup", rule, knockout=options or KnockoutOptions()
    ).tournament_id
    for number in range(1, pairs + 1):
        service.add_team(tid, f"Pair {number}")
        for k in (1, 2):
            service.add_team_member(tid, number, PlayerInfo(f"P{number}{k}", 1900 + 10 * number))
    service.start(tid)
    return tid


def rounds_games(service: Service, tid: int) -> dict[int, list[tuple[int, int, int]]]:
    out: dict[int, list[tuple[int, int, int]]] = {}
    for m in service.bughouse_matches(tid):
        for g in m.match.games:
            out.setdefault(g.round, []).append((g.board, g.white, g.black))
    return out


def win_for(service: Service, tid: int, rnd: int, winner: int) -> None:
    """Both boards of pair ``winner``'s match in store round ``rnd`` won by it."""
    for m in service.bughouse_matches(tid):
        if m.match.round != rnd or winner not in (m.match.white, m.match.black):
            continue
        for g in m.match.games:
            mine = m.match.team_of[g.white] == winner
            service.record_result(tid, rnd, g.board, "1-0" if mine else "0-1")


def test_r_x_6_a_knockout_of_pairs_seeded_by_rating_to_the_winner(service: Service) -> None:
    tid = cup(service, pairs=4)
    teams = {t.name: t.start for t in service.team_list(tid)}
    assert teams == {"Pair 4": 1, "Pair 3": 2, "Pair 2": 3, "Pair 1": 4}  # by rating
    bracket = service.bracket_view(tid)
    first = bracket["rounds"][0]["matches"]
    assert [[p["start"] for p in m["players"]] for m in first] == [[1, 4], [2, 3]]
    assert [p["name"] for p in first[0]["players"]] == ["Pair 4", "Pair 1"]
    # each knockout game is a match on two boards, partners with opposite colours
    games = rounds_games(service, tid)
    assert len(games[1]) == 4 and [b for b, _w, _b in games[1]] == [1, 2, 3, 4]
    with pytest.raises(RuleError, match="is not over"):
        service.pair_bughouse_round(tid)
    win_for(service, tid, 1, 4)  # the lowest seed beats the top seed 2-0
    win_for(service, tid, 1, 2)
    change = service.pair_bughouse_round(tid)
    assert change.data["paired_round"] == 2
    assert [(m["white"], m["black"]) for m in change.data["matches"]] in ([(4, 2)], [(2, 4)])
    final = [m for m in service.bughouse_matches(tid) if m.match.round == 2]
    assert len(final) == 1 and {final[0].match.white, final[0].match.black} == {2, 4}
    win_for(service, tid, 2, 2)
    view = service.bracket_view(tid)  # the last result finished it (finish: auto)
    assert view["status"] == "finished"
    assert view["champion"]["name"] == "Pair 3"
    places = {p["name"]: p["place"] for p in view["placings"]}
    assert places == {"Pair 3": "1", "Pair 1": "2", "Pair 4": "3-4", "Pair 2": "3-4"}
    standing = {p.name: p.place for p in service.crosstable(tid)[0].players}
    assert standing["P31"] == standing["P32"] == 1 and standing["P11"] == 2


def test_r_x_6_a_drawn_match_goes_to_the_lower_rated_pair_or_to_play_off_matches(
    service: Service,
) -> None:
    tid = cup(service, pairs=2)  # the default tie rule: the lower-rated pair goes on
    for board in (1, 2):
        service.record_result(tid, 1, board, "1-0")  # 1-1: a drawn match
    view = service.bracket_view(tid)
    assert view["champion"]["name"] == "Pair 1" and view["rounds"][0]["matches"][0][
        "decided_by"
    ] == ("lower-rated")
    tid = cup(service, pairs=2, options=KnockoutOptions(tie_rule="playoff"))
    for board in (1, 2):
        service.record_result(tid, 1, board, "½-½")
    change = service.pair_bughouse_round(tid)  # a rapid play-off: two more matches
    assert change.data["paired_round"] is None
    assert [(m["round"], m["kind"]) for m in change.data["matches"]] == [
        (2, "rapid"),
        (3, "rapid"),
    ]
    games = rounds_games(service, tid)
    assert len(games[2]) == len(games[3]) == 2
    win_for(service, tid, 2, 2)
    win_for(service, tid, 3, 2)
    view = service.bracket_view(tid)
    assert view["champion"]["start"] == 2 and view["rounds"][0]["matches"][0]["winner"] == 2


def test_r_x_6_under_the_first_rule_the_mark_decides_the_knockout_match(
    service: Service,
) -> None:
    tid = cup(service, "first", pairs=3)  # pair 1 has the bye; 2 v 3 play
    view = service.bracket_view(tid)
    assert [b["start"] for b in view["rounds"][0]["byes"]] == [1]
    service.record_result(tid, 1, 1, "1-0")  # White wins both boards: one game each
    service.record_result(tid, 1, 2, "1-0")
    match = service.bughouse_matches(tid)[0].match
    second = match.team_of[match.games[1].white]  # the pair with White on board 2
    with pytest.raises(RuleError, match="is not over"):
        service.pair_bughouse_round(tid)  # the match waits for its mark
    service.mark_first_finished(tid, 1, 2)
    assert service.bracket_view(tid)["rounds"][0]["matches"][0]["winner"] == second
    service.undo(tid)  # the mark taken back: undecided again
    assert service.bracket_view(tid)["rounds"][0]["matches"][0]["winner"] is None
    service.mark_first_finished(tid, 1, 1)
    change = service.pair_bughouse_round(tid)
    first = match.team_of[match.games[0].white]
    assert {change.data["matches"][0]["white"], change.data["matches"][0]["black"]} == {1, first}
    service.undo(tid)  # the final taken back
    assert service.bracket_view(tid)["round"] == 1 and 2 not in rounds_games(service, tid)


def test_r_x_6_a_correction_that_changes_who_went_on_is_refused(service: Service) -> None:
    tid = cup(service, pairs=4)
    win_for(service, tid, 1, 4)
    win_for(service, tid, 1, 2)
    service.pair_bughouse_round(tid)
    flipped = {"1-0": "0-1", "0-1": "1-0"}
    games = {(g.round, g.board): g for g in service.crosstable(tid)[0].games}
    # 1-1 in slot 1: still the lower-rated pair 4 goes on, so it is taken
    service.correct_result(tid, 1, 1, flipped[str(games[(1, 1)].result)])
    before = service.bracket_view(tid)
    with pytest.raises(RuleError, match="correction refused"):  # now pair 1 would go on
        service.correct_result(tid, 1, 2, flipped[str(games[(1, 2)].result)])
    assert service.bracket_view(tid) == before
    with pytest.raises(RuleError, match="knockout of Bughouse pairs"):
        service.knockout_state(tid)  # the individual knockout's replay says where to go
    with pytest.raises(RuleError, match="the final is not over"):
        service.pair_next_round(tid)  # the knockout's own step continues it as well


TIE_RULES = ("lower-rated", "lots", "playoff", "rapid:2,sudden-death", "armageddon")


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    pairs=st.integers(2, 6),
    tie_rule=st.sampled_from(TIE_RULES),
    match_format=st.sampled_from(("1", "2", "2-at-once")),
    data=st.data(),
)
def test_r_x_6_a_random_knockout_of_pairs_ends_with_a_champion_who_never_lost(
    service: Service, pairs: int, tie_rule: str, match_format: str, data: st.DataObject
) -> None:
    options = KnockoutOptions(match_format=match_format, tie_rule=tie_rule)
    tid = cup(service, pairs=pairs, options=options)
    for step in range(200):
        if service.bracket_view(tid)["status"] == "finished":
            break
        view = service.crosstable(tid)[0]
        waiting = [g for g in view.games if g.result is None]
        if not waiting:
            service.pair_bughouse_round(tid)
            continue
        by_round: dict[int, set[int]] = {}
        for m in service.bughouse_matches(tid):
            starts = [s for g in m.match.games for s in (g.white, g.black)]
            assert len(set(starts)) == 4  # four players, each once
            for pair in (m.match.white, m.match.black):
                assert pair not in by_round.setdefault(m.match.round, set())  # once a round
                by_round[m.match.round].add(pair)
            first, second = m.match.games
            owner = m.match.team_of  # partners with opposite colours
            assert owner[first.white] == owner[second.black]
            assert owner[first.black] == owner[second.white]
        for g in waiting:
            if step < 12:
                result = data.draw(st.sampled_from(("1-0", "0-1", "½-½")))
            else:  # the White pair of board 1 wins both games: decisive
                result = "1-0" if g.board % 2 else "0-1"
            service.record_result(tid, g.round, g.board, result)
    view = service.bracket_view(tid)
    assert view["status"] == "finished" and view["champion"] is not None
    champion = view["champion"]["start"]
    matches = [m for r in view["rounds"] for m in r["matches"]]
    assert len(matches) == pairs - 1 and all(m["winner"] is not None for m in matches)
    for m in matches:  # the champion won every match it played
        starts = [p["start"] for p in m["players"]]
        assert champion not in starts or m["winner"] == champion
    places = {p.start: p.place for p in service.crosstable(tid)[0].players}
    for team in service.team_list(tid):
        assert len({places[m.start] for m in team.members}) == 1  # partners share it
        if team.start == champion:
            assert places[team.members[0].start] == 1


def test_r_x_6_a_player_withdrawing_forfeits_the_board_and_the_knockout_goes_on(
    service: Service,
) -> None:
    tid = cup(service, pairs=2)
    match = service.bughouse_matches(tid)[0].match
    leaving = match.games[0].white  # a player of the pair with White on board 1
    pair = match.team_of[leaving]
    service.withdraw(tid, leaving)  # their game is lost by forfeit, the other is played
    games = {g.board: g.result for g in service.crosstable(tid)[0].games}
    assert games[1] == "-+" and games[2] is None
    other = match.games[1]
    service.record_result(tid, 1, 2, "1-0" if match.team_of[other.white] != pair else "0-1")
    view = service.bracket_view(tid)
    assert view["champion"] is not None and view["champion"]["start"] != pair
    assert view["status"] == "finished"  # the last board decided it
