"""Unusual results in TRF files and through the store (SQLite and PostgreSQL): an
arbiter's ½-0, 0-½, 0-0 and games played but not rated are exported with a ``###
Arbiter's decision`` line each, read back by the strict reading (without it the file
still needs --lenient), and export → import → export is identical; the history lines,
the crosstable's cells and the PGN's result tags (FIDE checklist Q180–186)."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.core.errors import InputError, RuleError
from crosstable.core.model import Game, GameResult, Outcome
from crosstable.formats.trf_decided import decided_games, decision_comment
from crosstable.formats.trf_export import kept_records
from crosstable.formats.trf_model import Comment
from crosstable.formats.trf_read import parse_trf
from crosstable.formats.trf_write import write_trf
from crosstable.service import Service
from crosstable.service.errors import NotFoundError
from tests.test_service_support import db_url, service, started, store  # noqa: F401

#: round 1 of a four-player round robin: 1-4 and 2-3; round 2: 4-3 and 1-2
UNUSUAL = {(1, 1): "0-0", (1, 2): "½-0", (2, 1): "0-½", (2, 2): "1-0u"}


def _played(service: Service) -> int:
    tid = started(service, 4)
    for (rnd, board), result in UNUSUAL.items():
        service.record_result(tid, rnd, board, result)
    return tid


def test_r_b_1_q180_export_import_export_is_identical(service: Service) -> None:
    tid = _played(service)
    text = service.export_trf(tid)
    marks = [line for line in text.splitlines() if line.startswith("###")]
    assert marks == [  # each after White's line; the unrated 1-0 gives a whole game
        "### Arbiter's decision @ Round 1: 1 - 4 0-0",
        "### Arbiter's decision @ Round 1: 2 - 3 0.5-0",
        "### Arbiter's decision @ Round 2: 4 - 3 0-0.5",
    ]
    doc = parse_trf(text)  # the strict reading takes the decided games as written
    results = {(g.round, g.board): g.result for r in doc.tournament.rounds for g in r.games}
    assert results[(1, 1)] == GameResult(Outcome.LOSS, Outcome.LOSS)
    assert results[(1, 2)] == GameResult(Outcome.DRAW, Outcome.LOSS)
    assert results[(2, 1)] == GameResult(Outcome.LOSS, Outcome.DRAW)
    assert results[(2, 2)] == GameResult(Outcome.SHORT_WIN, Outcome.SHORT_LOSS)
    assert write_trf(doc) == text
    again = service.import_tournament(doc.tournament, records=kept_records(doc)).tournament_id
    assert service.export_trf(again) == text
    # without the ### lines the contradiction is refused again, and read with --lenient
    bare = "\n".join(line for line in text.splitlines() if not line.startswith("###"))
    with pytest.raises(InputError, match="both players lost"):
        parse_trf(bare)
    assert parse_trf(bare, lenient=True).tournament == doc.tournament


def test_r_b_1_q180_a_corrected_result_loses_its_line(service: Service) -> None:
    tid = _played(service)
    doc = parse_trf(service.export_trf(tid))
    again = service.import_tournament(doc.tournament, records=kept_records(doc)).tournament_id
    service.correct_result(again, 2, 1, "1-0")  # (the last round: no warning)
    text = service.export_trf(again)
    assert "@ Round 2:" not in text and "Round 1: 2 - 3 0.5-0" in text
    assert parse_trf(text).tournament.rounds[1].games[0].result == GameResult.WHITE_WINS()


def test_r_b_1_q180_history_crosstable_and_pgn_show_the_result(service: Service) -> None:
    tid = _played(service)
    lines = [str(item.summary) for item in service.history(tid)]
    assert any(line.startswith("round 1 board 2: ½-0") for line in lines)
    assert any(line.startswith("round 2 board 1: 0-½") for line in lines)
    assert any(line.startswith("round 1 board 1: 0-0") for line in lines)
    assert any(line.startswith("round 2 board 2: WL") for line in lines)
    _, table = service.crosstable(tid)
    points = {line.start: line.points for line in table.lines}
    assert points == {1: 1, 2: Fraction(1, 2), 3: Fraction(1, 2), 4: 0}
    cells = {
        (line.start, c.round): c.text
        for line in table.lines
        for games in line.cells.values()
        for c in games
    }
    assert (cells[(2, 1)], cells[(3, 1)], cells[(1, 1)], cells[(4, 1)]) == ("½", "0", "0", "0")
    assert (cells[(1, 2)], cells[(2, 2)]) == ("1", "0")  # the unrated game counts as played
    pgn = service.export_pgn(tid)
    games = {block.split('[Round "')[1][:3]: block for block in pgn.split("\n\n[Event")}
    assert '[Result "*"]' in games["1.2"] and "the arbiter decided ½-0" in games["1.2"]
    assert "both players lose" in games["1.1"]
    assert '[Result "1-0"]' in games["2.2"] and "played, not rated" in games["2.2"]
    assert "battle chess" not in pgn


def test_r_b_1_q186_contradictions_and_a_bye_are_refused(service: Service) -> None:
    tid = started(service, 5)  # an odd round robin: a free round each round
    for bad in ("1-1", "½-1", "1-½u", "+-u", "1-"):
        with pytest.raises(RuleError):
            service.record_result(tid, 1, 1, bad)
    with pytest.raises(NotFoundError):  # the free round has no board to play unrated
        service.record_result(tid, 1, 3, "1-0u")
    assert all(g.result is None for g in service.overview(tid).games)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=80))
def test_any_comment_text_is_read_without_error(text: str) -> None:
    found = decided_games([Comment(text)])
    assert all(len(key) == 3 for key in found)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 999),
    st.integers(1, 9999),
    st.integers(1, 9998),
    st.sampled_from(["=0", "0=", "00", "DL", "LD", "LL"]),
)
def test_the_line_of_a_decided_game_reads_back(
    rnd: int, white: int, black: int, codes: str
) -> None:
    black = black + (black >= white)  # another player
    game = Game(rnd, 1, white, black, GameResult(Outcome(codes[0]), Outcome(codes[1])))
    assert decided_games([decision_comment(game)]) == {(rnd, white, black)}


def test_r_b_1_q186_a_played_result_on_a_bye_is_refused_with_its_line() -> None:
    player = "001    1      Anna                                                               1.0"
    other = "001    2      Boris                                                              0.0"
    text = f"{player.ljust(91)}0000 - W\n{other.ljust(91)}0000 - Z\n"
    with pytest.raises(InputError, match="needs an opponent") as refused:
        parse_trf(text)
    assert (refused.value.line, refused.value.column) == (1, 99)
