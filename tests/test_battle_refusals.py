"""The battle-chess refusals the other battle tests leave out (issue 12 item 1: every
refusal tested, with its reason), on SQLite and PostgreSQL: drawing the colours of a
finished tournament, a seed that is not a number, a game's moves from a PGN before its
result, and a set-up timeout's words outside battle chess; and the points and the C.07
reading of a set-up timeout under another point system with forfeits not counted."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import pytest
from test_service_support import db_url, service, started, store  # noqa: F401

from crosstable.core.errors import CrosstableError, RuleError
from crosstable.service import Regulations, Service

BATTLE = {"variant": "battle", "setup_minutes": "5", "battle_seed": "424242"}


def _play_out(service: Service, tid: int) -> None:
    while service.overview(tid).status != "finished":
        game = next(g for g in service.overview(tid).games if g.result is None)
        service.record_result(tid, game.round, game.board, "1-0")


def test_the_colours_of_a_finished_tournament_are_not_drawn(service: Service) -> None:
    tid = started(service, 3, details=BATTLE)
    _play_out(service, tid)
    with pytest.raises(RuleError, match="the tournament is finished; undo the finish first"):
        service.draw_colours(tid, 1)


@pytest.mark.parametrize("seed", ["x", "-1", "1.5", str(2**60)])
def test_a_seed_that_is_not_a_whole_number_in_range_is_refused(service: Service, seed: str) -> None:
    with pytest.raises(RuleError, match=r"battle seed: .* is not a whole number from 0 to"):
        service.create_tournament(Regulations(name="X", details=BATTLE | {"battle_seed": seed}))
    assert service.tournaments() == []


def test_moves_of_a_battle_game_before_its_result_are_refused(service: Service) -> None:
    tid = started(service, 4, details=BATTLE)
    game = next(g for g in service.overview(tid).games if g.round == 1 and g.board == 1)
    names = {p.start: p.name for p in service.overview(tid).players}
    pgn = (
        f'[White "{names[game.white]}"]\n[Black "{names[game.black]}"]\n'
        '[Round "1.1"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n'
    )
    with pytest.raises(CrosstableError, match="in battle chess record the result of"):
        service.import_pgn(tid, pgn, round_number=1)
    assert all(g.result is None for g in service.overview(tid).games)


def test_set_up_words_outside_battle_chess_are_refused(service: Service) -> None:
    tid = started(service, 4)
    for words in ("setup-draw", "setup-white", "setup-black"):
        with pytest.raises(RuleError, match="a set-up timeout is a battle-chess result"):
            service.record_result(tid, 1, 1, words)
    with pytest.raises(RuleError, match="a set-up timeout is a battle-chess result"):
        service.record_setup_timeout(tid, 1, 1, "none")
    assert all(g.result is None for g in service.overview(tid).games)


def test_points_follow_the_point_system_and_a_timeout_is_a_game_played(
    service: Service,
) -> None:
    """R-SE-9 under 3-1-0, and the C.07 decision written in docs/battle.md: a set-up
    timeout is a game played — even when the regulations count forfeits as unplayed
    rounds, it counts for the tie-breaks as a game at the board, a forfeit does not."""
    from crosstable.core.scoring import PointSystem
    from crosstable.core.standings import compute_standings

    tid = started(
        service,
        4,
        point_system=PointSystem.parse("3-1-0"),
        details=BATTLE | {"forfeits_in_tiebreaks": "no"},
    )
    games = sorted((g for g in service.overview(tid).games if g.round == 1), key=lambda g: g.board)
    timeout, forfeit = games
    service.record_setup_timeout(tid, 1, timeout.board, "black")  # only Black set up
    service.record_result(tid, 1, forfeit.board, "+-")  # Black did not come
    tournament = service.tournament(tid)
    assert tournament.score(timeout.black) == 3 and tournament.score(timeout.white) == 0
    assert tournament.score(forfeit.white) == 3 and tournament.score(forfeit.black) == 0
    standings = compute_standings(tournament, "WON,BPG")
    values = {
        r.start: dict(zip(standings.tiebreaks, r.values, strict=True)) for r in standings.rows
    }
    assert values[timeout.black]["WON"] == 1  # won at the board
    assert values[timeout.black]["BPG"] == 1  # a game played with Black
    assert values[forfeit.white]["WON"] == 0  # a forfeit win is not a game won
    assert values[forfeit.black]["BPG"] == 0  # a forfeit is not a game played
