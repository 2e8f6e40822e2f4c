"""Knockout tournaments through the tournament store and services (issue 6), on SQLite
and PostgreSQL: start, results, tie-breaks, the next rounds, byes, corrections, undo,
final places and ``crosstable bracket --tournament``."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_service_support import db_url, make_service, service, store  # noqa: F401

from crosstable.cli import main
from crosstable.core.errors import RuleError
from crosstable.core.model import GameResult, LotsMethod, Player, System
from crosstable.core.pairing.knockout import Knockout, MatchFormat, MatchRules, TieRule
from crosstable.core.pairing.knockout_bracket import random_bracket, round_name
from crosstable.service import NotFoundError, PlayerInfo, Regulations, Service
from crosstable.service.knockout import check_knockout_correction, knockout_places
from crosstable.service.loading import Loaded
from crosstable.service.unit import Tx
from crosstable.store import Store
from crosstable.store.models import GameRow, TournamentRow

NAMES = ("Anna", "Boris", "Clara", "Dmitri", "Eva", "Fyodor", "Gayane", "Hovhannes")


def knockout(service: Service, players: int, **details: str) -> int:
    """A registered knockout; ratings 2400, 2390… so that lots by rating give 1…N."""
    created = service.create_tournament(
        Regulations(name="Cup", system=System.KNOCKOUT, details=details)
    )
    tid = created.tournament_id
    for index in range(players):
        name = NAMES[index] if index < len(NAMES) else f"Player {index + 1}"
        service.add_player(tid, PlayerInfo(name, rating=2400 - 10 * index))
    service.draw_lots(tid, LotsMethod.RATING)
    return tid


def started(service: Service, players: int, **details: str) -> int:
    tid = knockout(service, players, **details)
    service.start(tid)
    return tid


def open_games(service: Service, tid: int) -> list[tuple[int, int, int, int]]:
    """(round, board, white, black) of the stored games without a result."""
    return [
        (g.round, g.board, g.white or 0, g.black or 0)
        for g in service.overview(tid).games
        if g.result is None
    ]


def win(service: Service, tid: int, rnd: int, board: int, winner: int) -> None:
    """The player with starting number ``winner`` wins the game at ``rnd``/``board``."""
    game = next(g for g in service.overview(tid).games if (g.round, g.board) == (rnd, board))
    assert winner in (game.white, game.black)
    service.record_result(tid, rnd, board, "1-0" if game.white == winner else "0-1")


def matches(view: dict[str, Any], rnd: int) -> list[dict[str, Any]]:
    return list(view["rounds"][rnd - 1]["matches"])


def players_of(match: dict[str, Any]) -> tuple[int, int]:
    top, bottom = match["players"]
    return (top["start"], bottom["start"])


def places(service: Service, tid: int) -> dict[int, int]:
    with service.store.transaction() as session:
        row = session.get(TournamentRow, tid)
        assert row is not None
        return knockout_places(Tx(session, row), Loaded(session, row))


def higher_seed_wins(service: Service, tid: int) -> None:
    """Every open game: the lower starting number wins."""
    for rnd, board, white, black in open_games(service, tid):
        win(service, tid, rnd, board, min(white, black))


# -- one game per match, the portal's rule ---------------------------------------------


def test_eight_players_seeded_one_game_to_the_end(service: Service) -> None:
    tid = started(service, 8, finish="confirm")  # the organiser finishes it
    view = service.bracket_view(tid)
    assert view["order"] == "seeded" and view["format"] == "1"
    assert view["tie_rule"] == "lower-rated"
    first = matches(view, 1)
    assert [players_of(m) for m in first] == [(1, 8), (4, 5), (2, 7), (3, 6)]
    # boards 1… in bracket order, one game per match, all in round 1
    assert [(g["round"], g["board"]) for m in first for g in m["games"]] == [
        (1, 1),
        (1, 2),
        (1, 3),
        (1, 4),
    ]
    assert service.overview(tid).settings["regulations"]["bracket"] == "seeded"
    # a draw sends the lower-rated player on (4 Dmitri 2370 v 5 Eva 2360)
    service.record_result(tid, 1, 2, "1/2-1/2")
    for board in (1, 3, 4):
        rnd, _, white, black = next(g for g in open_games(service, tid) if g[1] == board)
        win(service, tid, rnd, board, min(white, black))
    view = service.bracket_view(tid)
    assert matches(view, 1)[1]["winner"] == 5
    assert matches(view, 1)[1]["decided_by"] == "lower-rated"
    change = service.pair_next_round(tid)
    assert change.kind == "knockout" and change.data["paired_round"] == 2
    assert "semi-final paired" in change.summary
    view = service.bracket_view(tid)
    assert [players_of(m) for m in matches(view, 2)] == [(1, 5), (2, 3)]
    assert [(g[0], g[1]) for g in open_games(service, tid)] == [(2, 1), (2, 2)]
    higher_seed_wins(service, tid)
    service.pair_next_round(tid)
    assert [players_of(m) for m in matches(service.bracket_view(tid), 3)] == [(1, 2)]
    rnd, board, white, black = open_games(service, tid)[0]
    win(service, tid, rnd, board, 2)
    with pytest.raises(RuleError, match="the knockout is over: 2 Boris won; finish it"):
        service.pair_next_round(tid)
    ko = service.knockout_state(tid)
    assert ko.champion == 2 and ko.finished
    assert places(service, tid) == {2: 1, 1: 2, 5: 3, 3: 3, 8: 5, 4: 5, 7: 5, 6: 5}
    view = service.bracket_view(tid)
    assert view["champion"]["name"] == "Boris"
    assert [p["place"] for p in view["placings"]] == ["1", "2", "3-4", "3-4"] + ["5-8"] * 4
    service.finish(tid)
    assert service.overview(tid).status == "finished"


def test_next_round_refused_until_every_match_is_decided(service: Service) -> None:
    tid = started(service, 8)
    win(service, tid, 1, 1, 1)
    win(service, tid, 1, 3, 2)
    revision = service.overview(tid).revision
    message = r"the quarter-final is not over: enter the results of round 1 boards 2 and 4 first"
    with pytest.raises(RuleError, match=message):
        service.pair_next_round(tid)
    assert service.overview(tid).revision == revision  # nothing happened
    with pytest.raises(RuleError, match="the knockout is not over: enter the results of round 1"):
        places(service, tid)


# -- two-game matches, play-off tie-breaks ---------------------------------------------


def test_two_game_matches_playoff_then_armageddon(service: Service) -> None:
    tid = started(service, 4, match_format="2", tie_rule="playoff")
    view = service.bracket_view(tid)
    slot1, slot2 = matches(view, 1)
    assert players_of(slot1) == (1, 4) and players_of(slot2) == (2, 3)
    # both games of every match are set up at the start, one store round per game
    assert [(g["round"], g["board"]) for g in slot1["games"]] == [(1, 1), (2, 1)]
    assert [(g["round"], g["board"]) for g in slot2["games"]] == [(1, 2), (2, 2)]
    g1, g2 = slot1["games"]
    assert (g1["white"], g1["black"]) == (g2["black"], g2["white"])  # colours swapped
    # slot 1: each wins with White, 1-1; slot 2: 3 wins both
    service.record_result(tid, 1, 1, "1-0")
    service.record_result(tid, 2, 1, "1-0")
    win(service, tid, 1, 2, 3)
    win(service, tid, 2, 2, 3)
    change = service.pair_next_round(tid)
    assert change.data["paired_round"] is None
    assert [(g["round"], g["board"], g["kind"]) for g in change.data["games"]] == [
        (3, 1, "rapid"),
        (4, 1, "rapid"),
    ]
    with pytest.raises(RuleError, match=r"enter the results of round 3 board 1, round 4 board 1"):
        service.pair_next_round(tid)
    service.record_result(tid, 3, 1, "1/2-1/2")
    service.record_result(tid, 4, 1, "1/2-1/2")
    blitz = service.pair_next_round(tid).data["games"]
    assert [(g["round"], g["kind"]) for g in blitz] == [(5, "blitz"), (6, "blitz")]
    service.record_result(tid, 5, 1, "0-1")
    service.record_result(tid, 6, 1, "0-1")
    (armageddon,) = service.pair_next_round(tid).data["games"]
    assert (armageddon["round"], armageddon["kind"]) == (7, "armageddon")
    service.record_result(tid, 7, 1, "1/2-1/2")  # a draw: Black goes on
    view = service.bracket_view(tid)
    assert matches(view, 1)[0]["winner"] == armageddon["black"]
    assert matches(view, 1)[0]["decided_by"] == "armageddon"
    assert matches(view, 1)[0]["stage_scores"] == [[1, 1], [1, 1], [1, 1], [0.5, 0.5]]
    final = service.pair_next_round(tid)
    assert final.data["paired_round"] == 2
    # the final starts after the longest match of round 1 (seven games)
    assert [(g["round"], g["board"]) for g in final.data["games"]] == [(8, 1), (9, 1)]
    assert service.live_standings(tid) is not None  # one game per player per store round


def test_games_at_once_and_results_in_any_order(service: Service) -> None:
    tid = started(service, 2, match_format="2-at-once")
    assert [(g[0], g[1]) for g in open_games(service, tid)] == [(1, 1), (2, 1)]
    win(service, tid, 2, 1, 2)  # the second board finishes first
    assert service.knockout_state(tid).champion is None
    win(service, tid, 1, 1, 2)
    assert service.knockout_state(tid).champion == 2


# -- a longer final, a match for third place --------------------------------------------


def test_third_place_match_and_a_longer_final(
    service: Service, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    tid = started(
        service, 8, round_formats="final:4", third_place="yes", tie_rule="lots", finish="confirm"
    )
    regulations = service.overview(tid).settings["regulations"]
    assert (regulations["round_formats"], regulations["third_place"]) == ("final:4", "yes")
    higher_seed_wins(service, tid)
    service.pair_next_round(tid)
    higher_seed_wins(service, tid)  # semi-finals: 1 beats 4, 2 beats 3
    with pytest.raises(RuleError, match="the knockout is not over"):
        places(service, tid)
    change = service.pair_next_round(tid)
    assert change.data["paired_round"] == 3
    # the final (slot 7) plays four games from round 3 (three certain at once), the match
    # for third place (slot 8) too, after the final's boards
    setup = [(g["slot"], g["game"], g["round"], g["board"]) for g in change.data["games"]]
    assert setup == [
        (7, 1, 3, 1),
        (8, 1, 3, 2),
        (7, 2, 4, 1),
        (8, 2, 4, 2),
        (7, 3, 5, 1),
        (8, 3, 5, 2),
    ]
    view = service.bracket_view(tid)
    final, third = matches(view, 3)
    assert players_of(final) == (1, 2) and final["format"] == "4"
    assert third["third_place"] and players_of(third) == (4, 3) and third["format"] == "4"
    for rnd in (3, 4, 5):  # 2 wins the first three games of both matches
        win(service, tid, rnd, 1, 2)
        win(service, tid, rnd, 2, 3)
    ko = service.knockout_state(tid)
    assert ko.champion == 2 and ko.third_place == 3 and ko.finished
    assert len(ko.match(7).status(ko.rules).games) == 3  # 3–0: the fourth is not played
    assert places(service, tid) == {2: 1, 1: 2, 3: 3, 4: 4, 5: 5, 6: 5, 7: 5, 8: 5}
    with pytest.raises(RuleError, match="the knockout is over: 2 Boris won"):
        service.pair_next_round(tid)
    assert service.bracket_view(tid)["third_place"]["name"] == "Clara"
    assert main(["bracket", "--tournament", str(tid), "--db", db_url]) == 0
    out, _ = capsys.readouterr()
    assert "final 4, match for third place" in out and "8. (third place)" in out
    assert "third place: 3 Clara" in out


def test_the_knockout_is_not_over_until_third_place_is_decided(service: Service) -> None:
    tid = started(service, 4, third_place="yes")
    higher_seed_wins(service, tid)
    service.pair_next_round(tid)
    win(service, tid, 2, 1, 1)  # the final
    with pytest.raises(
        RuleError, match=r"the final is not over: enter the results of round 2 board 2"
    ):
        service.pair_next_round(tid)
    with pytest.raises(RuleError, match="the knockout is not over"):
        places(service, tid)
    win(service, tid, 2, 2, 4)
    assert places(service, tid) == {1: 1, 2: 2, 4: 3, 3: 4}


def test_no_third_place_match_when_a_semi_final_is_a_bye(service: Service) -> None:
    tid = started(service, 3, third_place="yes")
    higher_seed_wins(service, tid)  # 2 v 3 in the one semi-final; 1 has a bye
    service.pair_next_round(tid)
    assert [players_of(m) for m in matches(service.bracket_view(tid), 2)] == [(1, 2)]
    higher_seed_wins(service, tid)
    assert places(service, tid) == {1: 1, 2: 2, 3: 3}


# -- byes -------------------------------------------------------------------------------


def test_six_players_top_seeds_get_byes(service: Service) -> None:
    tid = started(service, 6)
    view = service.bracket_view(tid)
    assert [(b["start"], b["slot"]) for b in view["rounds"][0]["byes"]] == [(1, 1), (2, 3)]
    assert [players_of(m) for m in matches(view, 1)] == [(4, 5), (3, 6)]
    first = service.tournament(tid).rounds[0]
    assert [(b.player, b.kind.value) for b in first.byes] == [(1, "U"), (2, "U")]
    assert {p for g in first.games for p in (g.white, g.black)} == {3, 4, 5, 6}
    win(service, tid, 1, 1, 5)
    win(service, tid, 1, 2, 3)
    service.pair_next_round(tid)
    assert [players_of(m) for m in matches(service.bracket_view(tid), 2)] == [(1, 5), (2, 3)]
    higher_seed_wins(service, tid)
    service.pair_next_round(tid)
    higher_seed_wins(service, tid)
    assert places(service, tid) == {1: 1, 2: 2, 5: 3, 3: 3, 4: 5, 6: 5}


# -- random bracket -------------------------------------------------------------------


def test_random_bracket_from_the_recorded_seed(store: Store) -> None:
    first, again = make_service(store, seed=11), make_service(store, seed=11)
    a = started(first, 7, bracket="random")
    b = started(again, 7, bracket="random")
    regulations = first.overview(a).settings["regulations"]
    seed = int(regulations["lots_seed"])
    assert regulations["bracket"] == "random"
    assert int(again.overview(b).settings["regulations"]["lots_seed"]) == seed  # injected source
    players = tuple(Player(p.start or 0, p.name, p.rating) for p in first.overview(a).players)
    expected = random_bracket(tuple(sorted(players, key=lambda p: p.start)), seed)
    ko = first.knockout_state(a)
    assert ko.bracket.lines == expected.lines and ko.bracket.seed == seed
    assert [tuple(m.players) for m in ko.matches] == [
        s.players for s in expected.first_round_matches
    ]
    # a seed given in the regulations is the one used
    fixed = started(first, 7, bracket="random", lots_seed="20260725")
    assert first.knockout_state(fixed).bracket.lines == random_bracket(players, 20260725).lines


# -- R-KO-2 and R-KO-4 over random results --------------------------------------------

RESULTS = ("1-0", "0-1", "1/2-1/2", "1-0", "0-1", "+-", "-+")


@settings(
    max_examples=8,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    players=st.integers(min_value=2, max_value=9),
    fmt=st.sampled_from(["1", "2", "2-at-once"]),
    tie=st.sampled_from(["lower-rated", "lots", "playoff", "rapid:2,sudden-death"]),
    seed=st.integers(min_value=0, max_value=10**6),
    third=st.booleans(),
)
def test_knockout_properties(
    service: Service, players: int, fmt: str, tie: str, seed: int, third: bool
) -> None:
    rng = random.Random(seed)
    tid = started(
        service,
        players,
        match_format=fmt,
        tie_rule=tie,
        lots_seed=str(seed),
        third_place="yes" if third else "no",
        round_formats="final:3" if seed % 2 else "",
        finish="confirm",  # pair_next_round's answers after the final are checked below
    )
    for _ in range(400):
        ko = service.knockout_state(tid)
        if ko.finished:
            break
        waiting = open_games(service, tid)
        for rnd, board, _, _ in rng.sample(waiting, rng.randint(0, len(waiting))):
            service.record_result(tid, rnd, board, rng.choice(RESULTS))
        before = service.knockout_state(tid)
        revision = service.overview(tid).revision
        try:
            change = service.pair_next_round(tid)
        except RuleError as error:
            # R-KO-2: refused (and nothing changed) only while a match is undecided
            assert service.overview(tid).revision == revision
            if before.finished:
                assert "the knockout is over" in str(error)
                break
            assert before.undecided() and "not over" in str(error)
            continue
        if change.data["paired_round"] is not None:  # R-KO-2: a new round only when all done
            assert not before.undecided()
    else:  # pragma: no cover - the loop always ends
        raise AssertionError("the knockout did not end")
    ko = service.knockout_state(tid)
    champion = ko.champion
    assert champion is not None
    for m in ko.matches:  # R-KO-4: the champion never lost a match
        if champion in m.players:
            assert ko.winner_of(m.slot) == champion
    with_third = third and players >= 4  # (3 players: one semi-final is a bye)
    assert len(ko.matches) == players - 1 + with_third
    assert not open_games(service, tid)
    final = places(service, tid)
    assert final[champion] == 1 and sorted(final) == list(range(1, players + 1))
    if with_third:
        assert sorted(final.values())[:4] == [1, 2, 3, 4]


# -- undo, corrections ------------------------------------------------------------------


def test_undo_takes_back_a_pairing(service: Service) -> None:
    tid = started(service, 4, match_format="2", tie_rule="playoff")
    for board in (1, 2):
        service.record_result(tid, 1, board, "1-0")
        service.record_result(tid, 2, board, "1-0")  # 1-1 in both matches
    games = len(service.overview(tid).games)
    added = service.pair_next_round(tid)
    assert len(service.overview(tid).games) == games + 4
    service.undo(tid)
    assert len(service.overview(tid).games) == games
    assert [r.number for r in service.tournament(tid).rounds] == [1, 2]
    again = service.pair_next_round(tid)
    assert again.data["games"] == added.data["games"]  # the same games, the same colours
    for rnd, board, white, black in open_games(service, tid):
        win(service, tid, rnd, board, min(white, black))
    paired = service.pair_next_round(tid)
    assert paired.data["paired_round"] == 2
    service.undo(tid)
    assert service.knockout_state(tid).round == 1
    assert service.history(tid)[-1].summary.startswith(f"undo #{paired.seq}")
    assert service.verify(tid) == []


def test_correction_after_the_next_round_is_paired(service: Service) -> None:
    tid = started(service, 4, finish="confirm")  # corrections after the final
    higher_seed_wins(service, tid)  # 1 beats 4, 2 beats 3
    paired = service.pair_next_round(tid)
    win(service, tid, 2, 1, 1)
    # slot 1 corrected: 4 beat 1, but the final 1 v 2 is already paired and played
    game = next(g for g in service.overview(tid).games if (g.round, g.board) == (1, 1))
    flipped = "0-1" if game.white == 1 else "1-0"
    with pytest.raises(RuleError, match=r"correction refused: .*Undo back to"):
        service.correct_result(tid, 1, 1, flipped)
    # a database changed behind the service's back (or by an older version) is caught too
    with service.store.transaction() as session:
        row = session.get(GameRow, (tid, 1, 1))
        assert row is not None
        row.result = "01" if flipped == "0-1" else "10"
    hint = f"undo back to #{paired.seq - 1}, just before the final was paired"
    with pytest.raises(RuleError, match=hint):
        service.knockout_state(tid)
    with pytest.raises(RuleError, match=r"a result .* was changed after the pairing"):
        service.pair_next_round(tid)
    view = service.bracket_view(tid)
    assert view["problem"] is not None and "4 Dmitri" in view["problem"]
    with pytest.raises(RuleError, match="undo back to"):
        places(service, tid)
    # do what it says: revert, correct again, pair again
    service.revert_to(tid, paired.seq - 1)
    assert service.knockout_state(tid).round == 1
    service.correct_result(tid, 1, 1, flipped)
    service.pair_next_round(tid)
    assert [players_of(m) for m in matches(service.bracket_view(tid), 2)] == [(4, 2)]


def corrected(service: Service, tid: int, rnd: int, board: int, code: str | None) -> None:
    """What Play.correct_result would do with the hook: update, then check (rolled back
    when refused)."""
    with service.store.transaction() as session:
        row = session.get(TournamentRow, tid)
        game = session.get(GameRow, (tid, rnd, board))
        assert row is not None and game is not None
        tx = Tx(session, row)
        tx.update(game, result=code)
        check_knockout_correction(tx)


def test_the_correction_hook_refuses_what_would_change_a_paired_round(service: Service) -> None:
    tid = started(service, 4, match_format="2", tie_rule="playoff")
    for board in (1, 2):
        service.record_result(tid, 1, board, "1-0")
        service.record_result(tid, 2, board, "0-1")  # 2-0 for the White of game 1
    paired = service.pair_next_round(tid)
    message = (
        rf"correction refused: .* this correction changes who went on\. "
        rf"Undo back to #{paired.seq - 1} first, just before the final was paired"
    )
    with pytest.raises(RuleError, match=message):
        corrected(service, tid, 1, 1, "01")
    assert service.bracket_view(tid)["problem"] is None  # rolled back
    # inside the current round a correction passes: 1-1 now, tie-breaks follow
    service.undo(tid)
    service.correct_result(tid, 2, 1, "1-0")
    check_knockout_correction_passes(service, tid)
    assert [d["kind"] for d in service.bracket_view(tid)["due"]] == ["rapid", "rapid"]
    service.pair_next_round(tid)
    service.record_result(tid, 3, 1, "1-0")
    with pytest.raises(RuleError, match=r"would leave round 3 board 1 \(slot 1, game 3\)"):
        corrected(service, tid, 2, 1, "01")  # back to 2-0: game 3's result would be outside
    assert service.verify(tid) == []  # the refused corrections left nothing behind


def check_knockout_correction_passes(service: Service, tid: int) -> None:
    with service.store.transaction() as session:
        row = session.get(TournamentRow, tid)
        assert row is not None
        check_knockout_correction(Tx(session, row))


def test_correction_that_makes_tie_breaks_unnecessary(service: Service) -> None:
    tid = started(service, 2, match_format="2", tie_rule="playoff")
    service.record_result(tid, 1, 1, "1-0")
    service.record_result(tid, 2, 1, "1-0")
    service.pair_next_round(tid)  # rapid games 3 and 4
    service.correct_result(tid, 2, 1, "0-1")  # game 2 corrected: 2-0, decided
    view = service.bracket_view(tid)
    assert view["problem"] is None
    assert view["surplus"] == [{"round": 3, "board": 1}, {"round": 4, "board": 1}]
    with pytest.raises(RuleError, match="no longer needed: continue the knockout"):
        places(service, tid)
    change = service.pair_next_round(tid)
    assert "round 3 board 1, round 4 board 1 no longer needed, removed" in change.summary
    assert "the knockout is over" in change.summary
    assert [(g.round, g.board) for g in service.overview(tid).games] == [(1, 1), (2, 1)]
    winner = service.knockout_state(tid).champion
    assert winner is not None and places(service, tid)[winner] == 1


def test_a_result_on_a_game_no_longer_needed_is_named(service: Service) -> None:
    tid = started(service, 2, match_format="2", tie_rule="playoff")
    service.record_result(tid, 1, 1, "1-0")
    service.record_result(tid, 2, 1, "1-0")
    service.pair_next_round(tid)
    service.record_result(tid, 3, 1, "1-0")
    refused = r"correction refused: .*round 3 board 1 \(slot 1, game 3\) .* clear that result first"
    with pytest.raises(RuleError, match=refused):
        service.correct_result(tid, 2, 1, "0-1")
    with service.store.transaction() as session:  # as a database changed behind our back
        row = session.get(GameRow, (tid, 2, 1))
        assert row is not None
        row.result = "01"
    message = r"round 3 board 1 \(slot 1, game 3\) has a result \(1-0\), but the match was decided"
    with pytest.raises(RuleError, match=message):
        service.knockout_state(tid)
    service.correct_result(tid, 3, 1, None)  # what it says: clear it
    assert service.knockout_state(tid).champion is not None


# -- withdrawals --------------------------------------------------------------------------


def test_tie_break_games_of_a_withdrawn_player_are_forfeits(service: Service) -> None:
    tid = started(service, 2, match_format="2", tie_rule="playoff")
    win(service, tid, 1, 1, 1)
    service.withdraw(tid, 1)  # game 2 is forfeited: 1-1
    change = service.pair_next_round(tid)
    assert [g["result"] for g in change.data["games"]] == ["-+", "+-"] or [
        g["result"] for g in change.data["games"]
    ] == ["+-", "-+"]
    ko = service.knockout_state(tid)
    assert ko.champion == 2 and ko.match(1).status(ko.rules).decided_by == "rapid"


def test_a_player_waiting_for_the_next_round_withdraws(service: Service) -> None:
    tid = started(service, 4)  # semi-finals 1 v 4 and 2 v 3
    win(service, tid, 1, 1, 1)
    service.withdraw(tid, 1)  # 1 waits for the final: it becomes a forfeit
    with pytest.raises(RuleError, match="is out of the knockout already"):
        service.withdraw(tid, 4)
    win(service, tid, 1, 2, 3)
    final = service.pair_next_round(tid)
    assert [g["result"] for g in final.data["games"]] in (["-+"], ["+-"])
    assert service.knockout_state(tid).champion == 3
    with pytest.raises(RuleError, match="the knockout is over"):
        service.withdraw(tid, 2)


def test_finish_takes_the_places_from_the_bracket(service: Service) -> None:
    tid = started(service, 4)
    win(service, tid, 1, 1, 4)  # the lowest seed beats the top seed
    with pytest.raises(RuleError, match="the knockout is not over"):
        service.finish(tid)
    win(service, tid, 1, 2, 2)
    service.pair_next_round(tid)
    win(service, tid, 2, 1, 4)
    service.finish(tid)
    placed = {p.start: p.place for p in service.overview(tid).players}
    assert placed == {4: 1, 2: 2, 1: 3, 3: 3}


def test_a_correction_that_changes_who_went_on_is_refused(service: Service) -> None:
    tid = started(service, 4)
    win(service, tid, 1, 1, 1)
    win(service, tid, 1, 2, 2)
    service.pair_next_round(tid)
    game = next(g for g in service.overview(tid).games if (g.round, g.board) == (1, 1))
    before = game.result
    with pytest.raises(RuleError, match="correction refused"):
        service.correct_result(tid, 1, 1, "0-1" if game.white == 1 else "1-0")
    game = next(g for g in service.overview(tid).games if (g.round, g.board) == (1, 1))
    assert game.result == before  # the refused correction left nothing behind


# -- errors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("details", "message"),
    [
        ({"match_format": "three"}, "regulations, match_format 'three': "),
        ({"tie_rule": "coin"}, "regulations, tie_rule 'coin': "),
        ({"bracket": "swiss"}, "regulations, bracket 'swiss': use seeded or random"),
        ({"lots_seed": "x1"}, "regulations, lots_seed 'x1': not a whole number"),
        ({"round_formats": "finals:4"}, "regulations, round_formats 'finals:4': .*unknown round"),
        ({"third_place": "maybe"}, "regulations, third_place 'maybe': use yes or no"),
    ],
)
def test_bad_settings_refuse_the_start(
    service: Service, details: dict[str, str], message: str
) -> None:
    tid = knockout(service, 4, **details)
    with pytest.raises(RuleError, match=message):
        service.start(tid)
    assert service.overview(tid).status == "registration"
    assert service.overview(tid).games == ()


def test_errors(service: Service) -> None:
    with pytest.raises(NotFoundError, match="there is no tournament 99"):
        service.pair_next_round(99)
    with pytest.raises(NotFoundError, match="there is no tournament 99"):
        service.bracket_view(99)
    tid = knockout(service, 4)
    with pytest.raises(RuleError, match="the knockout has not started"):
        service.pair_next_round(tid)
    with pytest.raises(RuleError, match="the knockout has not started"):
        service.knockout_state(tid)
    robin = service.create_tournament(Regulations(name="RR")).tournament_id
    with pytest.raises(RuleError, match="is a round-robin tournament, not a knockout"):
        service.pair_next_round(robin)
    service.start(tid)
    higher_seed_wins(service, tid)
    service.pair_next_round(tid)
    higher_seed_wins(service, tid)
    service.finish(tid)
    with pytest.raises(RuleError, match="the knockout is finished; undo the finish first"):
        service.pair_next_round(tid)
    assert service.knockout_state(tid).champion == 1


# -- the command line ----------------------------------------------------------------------


def test_cli_shows_a_stored_bracket(
    service: Service, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    tid = started(service, 6, match_format="2")
    higher_seed_wins(service, tid)
    assert main(["bracket", "--tournament", str(tid), "--db", db_url, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and json.loads(out) == service.bracket_view(tid)
    assert main(["bracket", "--tournament", str(tid), "--db", db_url]) == 0
    out, _ = capsys.readouterr()
    assert "Quarter-final" in out and "1. 1 Anna — bye" in out and "4 Dmitri v 5 Eva" in out
    assert "g2, R2 B1: 5–4 0-1" in out or "g2, R2 B1: 4–5 1-0" in out
    assert "goes on (score)" in out
    code = main(["bracket", "--tournament", "99", "--db", db_url])
    _, err = capsys.readouterr()
    assert code == 2 and "there is no tournament 99" in err
    code = main(["bracket", "--tournament", str(tid), "--players", "4", "--db", db_url])
    _, err = capsys.readouterr()
    assert code == 2 and "--players makes a new bracket; --tournament shows a stored one" in err


# -- the core options the store uses ---------------------------------------------------------


@settings(max_examples=25)
@given(
    players=st.integers(min_value=2, max_value=40),
    seed=st.integers(min_value=0, max_value=10**6),
    final=st.sampled_from(["", "final:4", "final:2-at-once,semi-final:3,third-place:1"]),
)
def test_core_third_place_and_round_formats(players: int, seed: int, final: str) -> None:
    from test_knockout_helpers import play_out

    from crosstable.core.pairing.knockout import parse_round_formats

    rules = MatchRules(
        MatchFormat(1),
        TieRule.playoff(),
        seed,
        round_formats=parse_round_formats(final),
        third_place=True,
    )
    ko = play_out(Knockout.start(random_bracket(players, seed), rules), random.Random(seed))
    assert ko.finished and ko.champion is not None
    with_third = ko.bracket.rounds >= 2 and not any(
        ko.bracket.slot(n).is_bye for n in (ko.bracket.slot(ko.bracket.size - 1).feeders or ())
    )
    assert len(ko.matches) == players - 1 + with_third
    places = ko.placings()
    firsts = sorted(int(place.split("-")[0]) for place in places.values())
    assert firsts[:2] == [1, 2]
    if with_third:
        third = ko.match(ko.third_place_slot)
        assert set(third.players) == {
            ko.loser_of(n) for n in ko.bracket.slot(ko.bracket.size - 1).feeders or ()
        }
        assert places[ko.third_place or 0] == "3" and firsts[2:4] == [3, 4]
        assert "3-4" not in places.values()
    for m in ko.matches:
        name = round_name(ko.bracket.size >> (m.round - 1))
        if m.slot == ko.third_place_slot:
            name = "third-place"
        fmt = rules.format_of(name)
        regular = [g for g in m.status(rules).games if g.stage == 0]
        assert len(regular) <= fmt.games and (m.format or rules.format) == fmt


# -- the ahead option ------------------------------------------------------------------------


@given(
    outcomes=st.lists(st.sampled_from(["1-0", "0-1", "1/2-1/2"]), max_size=14),
    games=st.integers(min_value=1, max_value=6),
    tie=st.sampled_from([TieRule(), TieRule.playoff(), TieRule.parse("rapid:3,sudden-death")]),
    seed=st.integers(min_value=0, max_value=999),
)
def test_games_set_up_ahead_are_always_played(
    outcomes: list[str], games: int, tie: TieRule, seed: int
) -> None:
    """``MatchRules(ahead=True)`` sets up only games certain to be played, and entering the
    results in order ends the same way as one game at a time."""
    from crosstable.core.pairing.knockout_bracket import seeded_bracket

    one = MatchRules(MatchFormat(games), tie, seed)
    ahead = MatchRules(MatchFormat(games), tie, seed, ahead=True)
    a = Knockout.start(seeded_bracket(2), one)
    b = Knockout.start(seeded_bracket(2), ahead)
    for text in outcomes:
        pending = a.pending_games()
        if not pending:
            break
        planned = {g.number for _, g in b.pending_games()}
        number = pending[0][1].number
        assert number in planned  # what is played next was set up ahead
        a = a.record(1, number, GameResult.parse(text))
        b = b.record(1, number, GameResult.parse(text))
        played = {g.number for g in a.match(1).status(one).games}
        set_up = {g.number for g in b.match(1).status(ahead).games}
        assert played <= set_up
    assert a.champion == b.champion
    if a.champion is not None:
        assert a.match(1).status(one).games == b.match(1).status(ahead).games


def test_settings_the_pairings_depend_on_are_fixed_at_the_start(service: Service) -> None:
    tid = started(service, 4, match_format="2")
    regulations = service.export_json(tid)["tournament"]["regulations"]
    assert regulations["match_format"] == "2"
    with pytest.raises(RuleError, match="match format cannot change after the start"):
        service.edit_regulations(tid, details={**regulations, "match_format": "1"})
    service.edit_regulations(tid, details={**regulations, "venue": "Club"})  # others may
    assert service.export_json(tid)["tournament"]["regulations"]["venue"] == "Club"
