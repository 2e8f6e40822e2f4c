"""Battle chess through the service (issue 12 item 1; R-RR-9, R-SE-9), SQLite and PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_service_support import db_url, make_service, registered, service, started, store  # noqa: F401

from crosstable.core.battle import BattleColours
from crosstable.core.errors import RuleError
from crosstable.core.model import Outcome, Reason, System
from crosstable.core.standings import compute_standings
from crosstable.service import NotFoundError, Service
from crosstable.store import Store

BATTLE = {"variant": "battle", "setup_minutes": "5", "battle_seed": "424242"}


def battle(service: Service, players: int = 4, **details: str) -> int:
    return started(service, players, details=BATTLE | details)


def pairs(service: Service, tid: int, rnd: int) -> list[tuple[int, int, int]]:
    return [(g.board, g.white, g.black) for g in service.overview(tid).games if g.round == rnd]  # type: ignore[misc]


def results(service: Service, tid: int, rnd: int) -> list[str | None]:
    return [g.result for g in service.overview(tid).games if g.round == rnd]


def test_round_1_is_drawn_at_the_start_from_the_seed(service: Service) -> None:
    tid = battle(service)
    drawn = service.colours_drawn(tid)
    assert drawn is not None and drawn[1] is True
    assert not any(drawn[r] for r in drawn if r > 1)
    colours = BattleColours(424242)
    for board, white, black in pairs(service, tid, 1):
        assert colours.colours(1, white, black) == (white, black), board
    kinds = [item.kind for item in service.history(tid)]
    assert kinds[-2:] == ["start", "colours"]


def test_a_result_before_the_colours_are_drawn_is_refused(service: Service) -> None:
    tid = battle(service)
    with pytest.raises(RuleError, match="colours of round 2 are not drawn yet"):
        service.record_result(tid, 2, 1, "1-0")
    with pytest.raises(RuleError, match="not drawn yet"):
        service.mark_forfeit(tid, 2, 1, absent="white")
    with pytest.raises(RuleError, match="not drawn yet"):
        service.record_setup_timeout(tid, 2, 1, "none")
    with pytest.raises(RuleError, match="not drawn yet"):
        service.report_result(tid, 2, 1, "1-0", player=pairs(service, tid, 2)[0][1])  # type: ignore[arg-type]
    assert results(service, tid, 2) == [None, None]


def test_the_rounds_are_drawn_in_order_and_once(service: Service) -> None:
    tid = battle(service)
    with pytest.raises(RuleError, match="already drawn"):
        service.draw_colours(tid, 1)
    with pytest.raises(RuleError, match="round 2's colours are not drawn yet"):
        service.draw_colours(tid, 3)
    with pytest.raises(RuleError, match="there is no round 9"):
        service.draw_colours(tid, 9)
    change = service.draw_colours(tid, 2)
    assert change.kind == "colours" and "round 2: colours drawn" in change.summary
    service.record_result(tid, 2, 1, "1-0")


def test_drawing_is_refused_outside_battle_chess_and_before_the_start(service: Service) -> None:
    plain = started(service, 4)
    with pytest.raises(RuleError, match="not battle chess"):
        service.draw_colours(plain, 1)
    with pytest.raises(RuleError, match="not battle chess"):
        service.record_setup_timeout(plain, 1, 1, "white")
    assert service.colours_drawn(plain) is None
    service.record_result(plain, 2, 1, "1-0")  # an ordinary round robin: nothing to wait for
    waiting = registered(service, 4, details=BATTLE)
    with pytest.raises(RuleError, match="once the tournament has started"):
        service.draw_colours(waiting, 1)
    with pytest.raises(NotFoundError):
        service.record_setup_timeout(999, 1, 1, "white")


def test_the_next_round_is_drawn_when_a_round_is_complete(service: Service) -> None:
    tid = battle(service)
    service.record_result(tid, 1, 1, "1-0")
    assert service.colours_drawn(tid)[2] is False  # type: ignore[index]
    service.record_setup_timeout(tid, 1, 2, "none")
    assert service.colours_drawn(tid)[2] is True  # type: ignore[index]
    assert service.history(tid)[-1].kind == "colours"
    for board, white, black in pairs(service, tid, 2):
        assert BattleColours(424242).colours(2, white, black) == (white, black), board


def test_the_draw_is_undone_and_drawn_again_the_same(service: Service) -> None:
    tid = battle(service, 6)
    service.draw_colours(tid, 2)
    before = pairs(service, tid, 2)
    service.undo(tid)
    assert service.colours_drawn(tid)[2] is False  # type: ignore[index]
    with pytest.raises(RuleError, match="not drawn yet"):
        service.record_result(tid, 2, 1, "1-0")
    service.draw_colours(tid, 2)
    assert pairs(service, tid, 2) == before
    assert [item.kind for item in service.history(tid)].count("colours") == 3


def test_the_schedule_still_decides_who_meets_whom(service: Service) -> None:
    plain = started(service, 6)
    tid = battle(service, 6)
    for rnd in range(1, 6):
        if rnd > 1:
            service.draw_colours(tid, rnd)
        ours = {(b, frozenset((w, k))) for b, w, k in pairs(service, tid, rnd)}
        theirs = {(b, frozenset((w, k))) for b, w, k in pairs(service, plain, rnd)}
        assert ours == theirs


@pytest.mark.parametrize(
    ("finished", "code", "white_points"),
    [("none", "½-½", 0.5), ("white", "WL", 1.0), ("black", "LW", 0.0)],
)
def test_setup_timeout_results(
    service: Service, finished: str, code: str, white_points: float
) -> None:
    tid = battle(service)
    board, white, black = pairs(service, tid, 1)[0]
    change = service.record_setup_timeout(tid, 1, board, finished)
    assert change.kind == "result"
    tournament = service.tournament(tid)
    game = tournament.rounds[0].games[0]
    assert game.reason is Reason.SETUP_TIMEOUT
    assert game.outcome_of(white) in (Outcome.SHORT_WIN, Outcome.SHORT_DRAW, Outcome.SHORT_LOSS)
    assert float(tournament.score(white)) == white_points
    assert float(tournament.score(black)) == 1 - white_points
    shown = next(g.result for g in service.overview(tid).games if (g.round, g.board) == (1, board))
    assert shown in (code, "DD")


def test_setup_timeout_is_refused_for_a_wrong_side(service: Service) -> None:
    tid = battle(service)
    with pytest.raises(RuleError, match="none, white or black"):
        service.record_setup_timeout(tid, 1, 1, "both")


def test_setup_timeout_counts_as_a_game_played_in_tie_breaks(service: Service) -> None:
    tid = battle(service)
    board, white, _ = pairs(service, tid, 1)[0]
    service.record_setup_timeout(tid, 1, board, "white")
    standings = compute_standings(service.tournament(tid), "SB,WON,BPG,REP")
    row = next(r for r in standings.rows if r.start == white)
    won = row.values[standings.tiebreaks.index("WON")]
    assert won == 1  # won at the board (before the first move), not a forfeit


def test_battle_regulations_are_checked(service: Service) -> None:
    from crosstable.service import Regulations

    with pytest.raises(RuleError, match="battle chess is a round robin"):
        service.create_tournament(
            Regulations(name="X", system=System.SWISS_DUTCH, rounds=5, details=BATTLE)
        )
    with pytest.raises(RuleError, match="setup minutes"):
        service.create_tournament(Regulations(name="X", details=BATTLE | {"setup_minutes": "0"}))
    with pytest.raises(RuleError, match="setup minutes"):
        service.create_tournament(Regulations(name="X", details=BATTLE | {"setup_minutes": "x"}))
    with pytest.raises(RuleError, match="only a battle-chess tournament"):
        service.create_tournament(Regulations(name="X", details={"setup_minutes": "5"}))
    with pytest.raises(RuleError, match="variant"):
        service.create_tournament(Regulations(name="X", details={"variant": "fischer"}))
    tid = battle(service)
    with pytest.raises(RuleError, match="cannot change after the start"):
        service.edit_regulations(tid, details=BATTLE | {"battle_seed": "1"})
    with pytest.raises(RuleError, match="cannot change after the start"):
        service.edit_regulations(tid, details={"setup_minutes": ""})


def test_a_seed_is_drawn_when_the_regulations_give_none(service: Service) -> None:
    tid = registered(service, 4, details={"variant": "battle"})
    rules = service.battle_rules(tid)
    assert rules is not None and rules.setup_minutes is None
    service.edit_regulations(tid, details={"variant": "battle", "setup_minutes": "3"})
    again = service.battle_rules(tid)
    assert again is not None and again.seed == rules.seed and again.setup_minutes == 3


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(min_value=0, max_value=2**53), players=st.integers(min_value=3, max_value=7)
)
def test_property_the_same_seed_gives_the_same_colours(
    store: Store, seed: int, players: int
) -> None:
    """The colours depend on the published seed, the round and the two players only:
    two tournaments with the same seed get the same colours, and each is the core's
    draw (anyone with the seed can check it); every game's two players stay."""
    details = {"variant": "battle", "battle_seed": str(seed)}
    one, two = make_service(store, 1), make_service(store, 99)
    first, second = started(one, players, details=details), started(two, players, details=details)
    colours = BattleColours(seed)
    rounds = players if players % 2 else players - 1
    for rnd in range(1, rounds + 1):
        if rnd > 1:
            two.draw_colours(second, rnd)
            one.draw_colours(first, rnd)
        a, b = pairs(one, first, rnd), pairs(two, second, rnd)
        assert a == b
        for _, white, black in a:
            assert colours.colours(rnd, white, black) == (white, black)


def test_setup_words_as_a_result_and_a_correction(service: Service) -> None:
    tid = battle(service)
    board, white, _ = pairs(service, tid, 1)[0]
    service.record_result(tid, 1, board, "setup-white")
    game = service.tournament(tid).rounds[0].games[board - 1]
    assert game.reason is Reason.SETUP_TIMEOUT and game.outcome_of(white) is Outcome.SHORT_WIN
    service.correct_result(tid, 1, board, "setup-draw")
    game = service.tournament(tid).rounds[0].games[board - 1]
    assert game.reason is Reason.SETUP_TIMEOUT and game.outcome_of(white) is Outcome.SHORT_DRAW
    service.correct_result(tid, 1, board, "1-0")
    game = service.tournament(tid).rounds[0].games[board - 1]
    assert game.reason is Reason.NORMAL and game.outcome_of(white) is Outcome.WIN
    with pytest.raises(RuleError, match="not 1-0"):
        service.correct_result(tid, 1, board, "1-0", reason=Reason.SETUP_TIMEOUT)
    plain = started(service, 4)
    with pytest.raises(RuleError, match="not battle chess"):
        service.record_result(plain, 1, 1, "setup-black")


def test_the_crosstable_marks_a_setup_timeout(service: Service) -> None:
    from crosstable.core.standings import crosstable_view

    tid = battle(service)
    (board, white, black), (other, w2, b2) = pairs(service, tid, 1)
    service.record_setup_timeout(tid, 1, board, "black")
    service.record_result(tid, 1, other, "1-0")
    tournament = service.tournament(tid)
    view = crosstable_view(tournament, compute_standings(tournament, "SB"))
    cell = {row.start: row.cells for row in view.rows}
    assert cell[white][black - 1] == ("0†",) and cell[black][white - 1] == ("1†",)
    assert cell[w2][b2 - 1] == ("1",)


def test_trf_export_says_battle_chess_and_import_reads_it_back(service: Service) -> None:
    from crosstable.formats.trf import parse_trf

    tid = battle(service)
    (board, white, black), (other, _, _) = pairs(service, tid, 1)
    service.record_setup_timeout(tid, 1, board, "white")
    service.record_setup_timeout(tid, 1, other, "none")
    text = service.export_trf(tid)
    assert "battle chess, colours seed 424242, set-up 5 min" in text
    assert " W " in text or " W\n" in text or "w W" in text
    parsed = parse_trf(text)
    copy = service.import_tournament(parsed.tournament, headers=parsed.headers).tournament_id
    assert service.battle_rules(copy) == service.battle_rules(tid)
    games = service.tournament(copy).rounds[0].games
    assert [g.reason for g in games] == [Reason.SETUP_TIMEOUT, Reason.SETUP_TIMEOUT]
    assert service.colours_drawn(copy) == service.colours_drawn(tid)
    # the next round is drawn from the same seed: the same colours as the original's
    service.draw_colours(copy, 3)
    service.draw_colours(tid, 3)
    assert pairs(service, copy, 3) == pairs(service, tid, 3)
    assert pairs(service, copy, 2) == pairs(service, tid, 2)
    assert "battle chess, colours seed 424242" in service.export_trf(copy)
    assert games[board - 1].outcome_of(white) is Outcome.SHORT_WIN
    assert games[board - 1].outcome_of(black) is Outcome.SHORT_LOSS


def test_json_export_keeps_battle_chess(service: Service) -> None:
    tid = battle(service)
    service.record_setup_timeout(tid, 1, 1, "black")
    document = service.export_json(tid)
    copy = service.import_json(document)
    assert service.battle_rules(copy) == service.battle_rules(tid)
    assert service.colours_drawn(copy) == service.colours_drawn(tid)
    assert service.tournament(copy).rounds[0].games[0].reason is Reason.SETUP_TIMEOUT
    service.undo(copy)  # the history came along: the set-up timeout is undone
    assert service.tournament(copy).rounds[0].games[0].result is None


def test_setup_timeout_counts_in_rating_based_tie_breaks(service: Service) -> None:
    """C.07 art. 10 counts opponents played over the board: a set-up timeout is one."""
    tid = battle(service)
    board, white, black = pairs(service, tid, 1)[0]
    service.record_setup_timeout(tid, 1, board, "none")
    tournament = service.tournament(tid)
    standings = compute_standings(tournament, "ARO")
    row = next(r for r in standings.rows if r.start == white)
    assert row.values[standings.tiebreaks.index("ARO")] == tournament.player(black).rating


def test_a_short_game_code_in_battle_chess_is_a_setup_timeout(service: Service) -> None:
    tid = battle(service)
    service.record_result(tid, 1, 1, "DD")
    assert service.tournament(tid).rounds[0].games[0].reason is Reason.SETUP_TIMEOUT
    plain = started(service, 4)
    service.record_result(plain, 1, 1, "WL")  # a TRF short game elsewhere: as it is
    assert service.tournament(plain).rounds[0].games[0].reason is Reason.NORMAL


def test_the_history_replays_to_the_rows_after_draws_and_undos(service: Service) -> None:
    tid = battle(service, 5)
    service.record_setup_timeout(tid, 1, 1, "white")
    service.record_result(tid, 1, 2, "1-0")  # round 1 complete: round 2 drawn by itself
    service.undo(tid)  # takes back that draw (its own change) …
    assert service.colours_drawn(tid)[2] is False  # type: ignore[index]
    service.undo(tid)  # … then the result
    assert service.tournament(tid).rounds[0].games[1].result is None
    service.draw_colours(tid, 2)
    first = next(item.seq for item in service.history(tid) if item.kind == "colours")
    service.revert_to(tid, first)  # right after round 1's draw at the start
    assert service.verify(tid) == []
    assert service.colours_drawn(tid) == {r: r == 1 for r in range(1, 6)}
