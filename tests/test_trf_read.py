"""Reading TRF files: every reference file, the round entries, and errors with line/column."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from crosstable.core.errors import InputError
from crosstable.core.model import (
    Bye,
    ByeKind,
    Colour,
    Game,
    GameResult,
    Outcome,
    Player,
    Round,
    Settings,
    System,
    Tournament,
)
from crosstable.formats.trf import parse_trf, read_trf
from tests.conftest import DATA

REFERENCE = sorted(DATA.glob("**/*.trf"))


def line(start: int, rounds: str, points: str = "", name: str = "", rank: str = "") -> str:
    """A ``001`` line with the round blocks ``rounds`` from column 92."""
    text = f"001 {start:4d}      {(name or f'Player {start}'):<33} {'':4} {'':3} {'':11} {'':10}"
    text += f" {points:>4} {rank:>4}  {rounds}"
    return text.rstrip()


def test_reference_files_found() -> None:
    assert len(REFERENCE) >= 86


@pytest.mark.parametrize("path", REFERENCE, ids=lambda p: p.name)
def test_reference_file_reads_and_scores_match(path: Path) -> None:
    doc = read_trf(path)
    tournament = doc.tournament
    assert tournament.players, "players"
    assert len(tournament.rounds) >= 1
    # The points column, as written, equals the score computed from the games:
    # every reference file uses 1-½-0 with byes worth their face value.
    for start, written in doc.file_points.items():
        assert tournament.score(start) == written, start
    # every game is seen from both sides exactly as the file wrote it
    entries = {p.start: tournament.entries(p.start) for p in tournament.players}
    for start, rows in entries.items():
        for entry in rows:
            if entry.opponent is not None:
                back = entries[entry.opponent][entry.round - 1]
                assert back.opponent == start
                assert back.colour is entry.colour.opposite()
                assert back.outcome is entry.outcome.mirror() or {
                    back.outcome,
                    entry.outcome,
                } == {Outcome.FORFEIT_LOSS}
    # (a few real files write a club's abbreviation as the federation: reported, kept)
    assert [w for w in doc.warnings if "is not a FIDE code" not in w] == []


def test_systems_of_reference_files() -> None:
    rr = read_trf(DATA / "tiebreaks/real/tcec_season_12_division_4.trf").tournament
    assert rr.settings.system is System.ROUND_ROBIN
    assert rr.settings.cycles == 4  # 8 players, 28 rounds
    swiss = read_trf(DATA / "swiss-dutch/p03_n009_r06_byes.trf")
    assert swiss.tournament.settings.system is System.SWISS_DUTCH
    assert swiss.tournament.settings.rounds == 6
    assert swiss.initial_colour is Colour.WHITE


def test_latin1_file_and_non_ascii_name_keep_columns() -> None:
    doc = read_trf(DATA / "tiebreaks/real/fr_avoine_2024.trf")
    assert "é" in doc.tournament.name
    text = (
        "012 Échecs à Zürich\n"
        + line(1, "   2 w 1", "1.0", name="Müller, Jürgen")
        + "\n"
        + line(2, "   1 b 0", "0.0", name="Ødegård, Åse")
        + "\n"
    )
    for data in (text.encode("latin-1"), text.encode("utf-8")):
        from crosstable.formats.trf import decode_trf

        doc = parse_trf(decode_trf(data))
        assert doc.tournament.players[0].name == "Müller, Jürgen"
        assert doc.tournament.rounds[0].games[0].result == GameResult.WHITE_WINS()


def test_round_entries_to_games_and_byes() -> None:
    text = "\n".join(
        [
            "092 Individual: Swiss-System",
            line(1, "   2 w 1     3 b =  0000 - H"),
            line(2, "   1 b 0  0000 - U     3 w -"),
            line(3, "0000 - Z     1 w =     2 b +"),
        ]
    )
    t = parse_trf(text).tournament
    r1, r2, r3 = t.rounds
    assert [(g.white, g.black, g.result) for g in r1.games] == [(1, 2, GameResult.WHITE_WINS())]
    assert [(b.player, b.kind) for b in r1.byes] == [(3, ByeKind.ZERO)]
    assert [(g.white, g.black, g.result) for g in r2.games] == [(3, 1, GameResult.DRAW())]
    assert [(b.player, b.kind) for b in r2.byes] == [(2, ByeKind.PAIRING)]
    forfeit = GameResult(Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN)
    assert [(g.white, g.black, g.result) for g in r3.games] == [(2, 3, forfeit)]
    assert [(b.player, b.kind) for b in r3.byes] == [(1, ByeKind.HALF)]


def test_full_bye_lowercase_codes_and_short_titles() -> None:
    def titled(text: str, sex_and_title: str) -> str:
        return text[:9] + sex_and_title + text[13:]

    text = "\n".join(
        [
            titled(line(1, "0000 - f     2 W d"), "m  g"),
            titled(line(2, "   3 b 1     1 B d"), "f wf"),
            line(3, "   2 w 0  0000 - z"),
        ]
    )
    t = parse_trf(text).tournament
    assert t.players[0].title == "GM" and t.players[1].title == "WFM"
    assert t.players[1].sex == "w" and t.players[0].sex == "m"
    assert t.rounds[0].byes[0].kind is ByeKind.FULL
    assert t.rounds[1].games[0].result == GameResult(Outcome.SHORT_DRAW, Outcome.SHORT_DRAW)


def test_double_forfeit() -> None:
    text = line(1, "   2 w -") + "\n" + line(2, "   1 b -")
    game = parse_trf(text).tournament.rounds[0].games[0]
    assert game.result == GameResult(Outcome.FORFEIT_LOSS, Outcome.FORFEIT_LOSS)


def test_free_round_in_odd_round_robin() -> None:
    text = "\n".join(
        [
            "092 Individual: Round-Robin",
            line(1, "   3 w 1     2 b =  0000 -"),
            line(2, "0000 -       1 w =     3 b 0"),
            line(3, "   1 b 0  0000 -       2 w 1"),
        ]
    )
    t = parse_trf(text).tournament
    assert t.settings.system is System.ROUND_ROBIN
    assert [(b.round, b.player, b.kind) for r in t.rounds for b in r.byes] == [
        (1, 2, ByeKind.FREE),
        (2, 3, ByeKind.FREE),
        (3, 1, ByeKind.FREE),
    ]
    assert t.score(1) == Fraction(3, 2)


def test_round_robin_inferred_from_games_when_type_unknown() -> None:
    text = "\n".join(
        [
            line(1, "   3 w 1     2 b =  0000 -"),
            line(2, "0000 -       1 w =     3 b 0"),
            line(3, "   1 b 0  0000 -       2 w 1"),
        ]
    )
    doc = parse_trf(text)
    assert doc.tournament.settings.system is System.ROUND_ROBIN
    assert doc.warnings  # the inference is reported
    swiss = parse_trf(line(1, "   2 w 1") + "\n" + line(2, "   1 b 0") + "\n" + line(3, "0000 - U"))
    assert swiss.tournament.settings.system is System.SWISS_DUTCH


def test_scheduled_game_without_result() -> None:
    text = line(1, "   2 w  ") + "\n" + line(2, "   1 b")
    game = parse_trf(text).tournament.rounds[0].games[0]
    assert (game.white, game.black, game.result) == (1, 2, None)


def test_points_and_ranks_as_written() -> None:
    text = line(1, "   2 w 1", "1.0", rank="1") + "\n" + line(2, "   1 b 0", " 0", rank="")
    doc = parse_trf(text)
    assert doc.file_points == {1: Fraction(1), 2: Fraction(0)}
    assert doc.file_ranks == {1: 1, 2: None}


# ---------------------------------------------------------------- errors


def error_of(text: str) -> InputError:
    with pytest.raises(InputError) as caught:
        parse_trf(text, source="t.trf")
    return caught.value


def test_error_opponents_do_not_point_at_each_other() -> None:
    text = "\n".join([line(1, "   2 w 1"), line(2, "   3 b 0"), line(3, "   2 w 1")])
    error = error_of(text)
    assert (error.source, error.line, error.column) == ("t.trf", 1, 92)
    assert "player 2 would be paired twice: with player 1 here and with player 3" in str(
        error.message
    )


def test_error_both_white() -> None:
    error = error_of(line(1, "   2 w 1") + "\n" + line(2, "   1 w 0"))
    assert (error.line, error.column) == (1, 97)
    assert "both have colour w" in error.message


def test_error_results_do_not_mirror() -> None:
    error = error_of(line(1, "   2 w 1") + "\n" + line(2, "   1 b 1"))
    assert (error.line, error.column) == (1, 99)
    assert "do not match" in error.message


def test_games_short_of_a_point_are_errors_unless_lenient() -> None:
    """Issue 15 item 4: `4 w 0` against `1 b 0` is a contradiction, not a result."""
    text = line(1, "   2 w =     2 b 0") + "\n" + line(2, "   1 b 0     1 w 0")
    error = error_of(text)
    assert (error.line, error.column) == (1, 99)
    assert "results contradict each other" in error.message
    assert "one player drew and the other lost" in error.message
    error = error_of(line(1, "   2 w 1     2 b 0") + "\n" + line(2, "   1 b 0     1 w 0"))
    assert (error.line, error.column, error.message) == (
        1,
        109,
        "round 2: results contradict each other: player 1 has '0', player 2 has '0' "
        "(line 2): both players lost",
    )
    doc = parse_trf(text, lenient=True)
    t = doc.tournament
    assert t.rounds[0].games[0].result == GameResult(Outcome.DRAW, Outcome.LOSS)
    assert t.rounds[1].games[0].result == GameResult(Outcome.LOSS, Outcome.LOSS)
    assert [w for w in doc.warnings if "contradict" in w or "lost" in w] == [
        "line 1: round 1: player 1 has '=', player 2 has '0' (line 2): "
        "one player drew and the other lost; read as written",
        "line 1: round 2: player 1 has '0', player 2 has '0' (line 2): "
        "both players lost; read as written",
    ]


def test_error_bad_result_code_column() -> None:
    error = error_of(line(1, "   2 w 1     2 b x") + "\n" + line(2, "   1 b 0     1 w 1"))
    assert (error.line, error.column) == (1, 109)


def test_error_bad_rating_column() -> None:
    bad = "001    1      Name" + " " * 30 + "20x0"
    error = error_of(bad)
    assert (error.line, error.column) == (1, 49)
    assert "rating" in error.message


def test_error_misaligned_round_block() -> None:
    error = error_of(line(1, "  2 w  1") + "\n" + line(2, "   1 b 0"))
    assert error.line == 1 and error.column == 96


def test_error_gap_in_starting_numbers() -> None:
    error = error_of(line(1, "") + "\n" + line(3, ""))
    assert error.line == 2 and "2 is missing" in error.message


def test_error_unknown_opponent() -> None:
    error = error_of(line(1, "   9 w 1"))
    assert (error.line, error.column) == (1, 92)
    assert "no player 9" in error.message


def test_error_result_without_opponent() -> None:
    error = error_of(line(1, "0000 - 1"))
    assert (error.line, error.column) == (1, 99)


def test_crlf_bom_and_lines_out_of_order() -> None:
    text = "\ufeff012 Club\r\n" + line(2, "   1 b 0") + "\r\n" + line(1, "   2 w 1") + "\r\n"
    doc = parse_trf(text)
    assert doc.tournament.name == "Club"
    assert [p.start for p in doc.tournament.players] == [1, 2]
    assert doc.tournament.rounds[0].games[0].white == 1


def test_error_starting_number_twice() -> None:
    error = error_of(line(1, "") + "\n" + line(1, ""))
    assert (error.line, error.column) == (2, 5)
    assert "used twice (also on line 1)" in error.message


def test_workarounds_are_reported() -> None:
    text = "\n".join(
        [
            "092 Swiss",
            line(1, "   2 - +  0000 - +     3 w 1"),
            line(2, "   1 - -  0000 - -     4 w 1"),
            line(3, "0000 - U  0000 - U     1 - 0"),
            line(4, "0000 - H  0000 - H     2 b 0"),
        ]
    )
    doc = parse_trf(text)
    game = doc.tournament.rounds[0].games[0]
    assert (game.white, game.black) == (1, 2)  # no colours: the lower number is White
    assert [(b.player, b.kind) for b in doc.tournament.rounds[1].byes] == [
        (1, ByeKind.FULL),
        (2, ByeKind.ZERO),
        (3, ByeKind.PAIRING),
        (4, ByeKind.HALF),
    ]
    assert doc.tournament.rounds[2].games[0].black == 3  # colour taken from player 1
    assert len(doc.warnings) == 6  # the number of rounds taken from the file's own too
    assert any("no XXR or 142" in w for w in doc.warnings)
    assert any(
        "forfeit win without an opponent read as a full-point bye" in w for w in doc.warnings
    )
    assert doc.warnings[-1] == (
        "line 4: round 2: player 3 gets a second pairing-allocated bye (the first in round 1);"
        " the Dutch system gives one"
    )


def test_error_played_game_without_colours() -> None:
    error = error_of(line(1, "   2 - 1") + "\n" + line(2, "   1 - 0"))
    assert (error.line, error.column) == (1, 97)
    assert "only a forfeit may be written without them" in error.message


def test_error_bye_with_opponent() -> None:
    error = error_of(line(1, "   2 w H") + "\n" + line(2, "   1 b H"))
    assert (error.line, error.column) == (1, 99)
    assert "a bye (H) cannot have an opponent" in error.message


def test_round_robin_games_take_the_berger_boards() -> None:
    """No board numbers in TRF: a round of the Berger table gets that table's board order."""
    from crosstable.core.schedule import berger_schedule
    from crosstable.formats.trf import parse_trf, write_trf
    from crosstable.formats.trf_model import TrfDocument

    schedule = berger_schedule(7, cycles=2)
    rounds = tuple(
        Round(
            r.number,
            tuple(
                Game(r.number, board, white, black, GameResult.DRAW())
                for board, (white, black) in enumerate(r.boards, start=1)
            ),
            (Bye(r.number, r.bye, ByeKind.FREE),) if r.bye else (),
        )
        for r in schedule.rounds
    )
    players = tuple(Player(i, f"Player {i}") for i in range(1, 8))
    settings = Settings(system=System.ROUND_ROBIN, cycles=2)
    tournament = Tournament(settings=settings, players=players, rounds=rounds)
    text = write_trf(TrfDocument.from_tournament(tournament))
    read = parse_trf(text, source="rr7.trf").tournament
    for scheduled, played in zip(schedule.rounds, read.rounds, strict=True):
        assert [(g.white, g.black) for g in played.games] == list(scheduled.boards)


def _line(start: int, points: str, opponent: int, colour: str, result: str) -> str:
    head = f"001 {start:>4}      {'P' + str(start):<33} {'':4} {'':3} {'':11} {'':10} {points:>4}"
    return f"{head} {'':>4}  {opponent:>4} {colour} {result}"


def test_round_robin_round_off_the_table_keeps_whites_order() -> None:
    from crosstable.formats.trf import parse_trf

    def games(entries: list[tuple[int, str, int, str, str]]) -> list[tuple[int, int, int]]:
        text = "092 Individual: Round-Robin\n" + "\n".join(_line(*e) for e in entries) + "\n"
        round_one = parse_trf(text, source="x.trf").tournament.rounds[0]
        return [(g.board, g.white, g.black) for g in round_one.games]

    # Berger round 1 for four is 1-4, 2-3: with other colours the pairs still place the boards
    table = [(1, "0.0", 4, "b", "0"), (2, "1.0", 3, "w", "1"), (3, "0.0", 2, "b", "0"),
             (4, "1.0", 1, "w", "1")]  # fmt: skip
    assert games(table) == [(1, 4, 1), (2, 2, 3)]
    # six players: 1-2 is a pair of Berger round 2, 3-4 and 5-6 of rounds 1 and 4 —
    # no single round of the table, so the games stay in White's order
    mixed = [(1, "1.0", 2, "w", "1"), (2, "0.0", 1, "b", "0"), (3, "0.0", 4, "b", "0"),
             (4, "1.0", 3, "w", "1"), (5, "1.0", 6, "w", "1"), (6, "0.0", 5, "b", "0")]  # fmt: skip
    assert games(mixed) == [(1, 1, 2), (2, 4, 3), (3, 5, 6)]
