"""Issue 13 item 4, 15 item 4 and 18 item 3: every reproducer of a traceback, a hang or
a lax check in the TRF and tournament-JSON readers, as a test.

Each bad input must give one line on stderr naming the file (and line and column for
a TRF) with exit status 2 — never a traceback, a hang or a partial output — and
whatever is accepted must be written back and read again.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from crosstable.cli import main
from crosstable.core.errors import InputError
from crosstable.formats.json_io import dump_json, load_json, tournament_from_json
from crosstable.formats.json_io import tournament_to_json as to_json
from crosstable.formats.trf import decode_trf, parse_trf, read_trf, write_trf
from crosstable.formats.trf_rounds import _berger_round_of
from tests.conftest import DATA

SWISS = DATA / "swiss-dutch/p01_n007_r05_clean.trf"
ROUND_ROBIN = DATA / "tiebreaks/seed-examples/vibe_chess_rr6.trf"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def refused(capsys: pytest.CaptureFixture[str], path: Path, *command: str) -> str:
    """Run ``command`` on ``path``: exit 2, one line naming the file, no traceback."""
    status, out, err = run(capsys, *command, str(path))
    assert status == 2, (out, err)
    assert out == ""
    assert err.startswith(f"crosstable: {path}") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def swiss_text() -> str:
    return SWISS.read_text(encoding="utf-8")


def written(tmp_path: Path, text: str | bytes, name: str = "bad.trf") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    ("old", "new", "where", "words"),
    [
        ("2561", "²874", ":2:49: rating '²874'", "is not a whole number (digits 0–9)"),
        ("XXR 5", "XXR ６", ":10:5: XXR number of rounds '６'", "is not a whole number"),
        ("XXR 5", "XXR " + "9" * 5000, ":10:5: XXR number of rounds", "more than 12 digits"),
        ("     4 b 1", "     ４ b 1", ":2:95: round 1: opponent '４'", "not a whole number"),
    ],
)
def test_unicode_and_huge_digits(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, old: str, new: str, where: str, words: str
) -> None:
    path = written(tmp_path, swiss_text().replace(old, new, 1))
    err = refused(capsys, path, "trf", "validate")
    assert err.startswith(f"crosstable: {path}{where}") and words in err


def test_unicode_digits_in_records_and_points() -> None:
    base = swiss_text()
    for extra, words in (
        ("240 H 00１ 0001", "round '00１' is not a whole number"),
        ("XXZ ²", "player '²' is not a whole number"),
        ("250 1.0 001 001 0001 0001" + "0" * 40, "more than 12 digits"),
        ("162 W ３", "is not a number of points"),
        ("162 W 1" + "0" * 5000, "is not a number of points"),
    ):
        with pytest.raises(InputError, match=words):
            parse_trf(base + extra + "\n")
    with pytest.raises(InputError, match="132: round 1 date"):
        parse_trf(base + "132" + " " * 88 + "２５/01/01\n")


# ---------------------------------------------------------------- records 240 250 260


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("250      10.25 001 001 0001 0001", "record 250: 10.25 does not fit in 4 columns"),
        ("250 1.0 001 001 0001 999999999999", "250: there is no player 999999999999"),
        ("250 1.0 001 001 0005 0002", "250: the first player (5) is after the last (2)"),
        ("250 1.0 000 001 0001 0002", "250: round 0: rounds are 1…999"),
        ("250 1.0 003 001 0001 0002", "the first round (3) is after the last (1)"),
        ("240 H 001 0099", "240: there is no player 99 (the file has 7)"),
        ("240 H 1000 0001", "240: round 1000: rounds are 1…999"),
        ("260 001 002 0001 0099", "260: there is no player 99"),
        ("299 W   1.0   1.0  001 0042", "299: there is no player 42"),
        ("XXA   42  1.0", "XXA: there is no player 42"),
        ("162 W 12.25", "162: W 12.25: 12.25 does not fit in 4 columns"),
        ("142 1000", "142: 1000 rounds: at most 999"),
    ],
)
def test_records_that_could_not_be_written_or_name_nobody(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, extra: str, message: str
) -> None:
    text = swiss_text().replace("XXR 5\n", "") if extra.startswith("142") else swiss_text()
    path = written(tmp_path, text + extra + "\n")
    line = text.count("\n") + 1
    err = refused(capsys, path, "trf", "validate")
    assert err.startswith(f"crosstable: {path}:{line}:") and message in err, err


def test_records_the_reader_accepts_are_written_back_and_read_again() -> None:
    text = swiss_text() + (
        "240 H 006 0001 0007\n250    1.0 001 003 0001 0004\n260 001 005    2    5\n"
    )
    doc = parse_trf(text)
    again = parse_trf(write_trf(doc))
    assert again == doc
    assert [a.points for a in again.accelerations] == [1]


def test_accelerated_pairing_of_a_big_record_is_refused_before_any_work(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The pairing looped over 10¹² players of a record 250: it is refused on reading."""
    path = written(tmp_path, swiss_text() + "250 1.0 001 001 0001 999999999999\n")
    err = refused(capsys, path, "pair", "--format", "json")
    assert "250: there is no player 999999999999" in err
    status, _, err = run(capsys, "pair", str(SWISS), "--round", str(10**12))
    assert status == 2 and "--round 1000000000000: at most 999" in err


# ---------------------------------------------------------------- sizes


def test_round_robin_header_over_9999_players_does_not_build_the_berger_table(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The reader asked for the whole Berger table (9 999 players: tens of GB)."""
    lines = ["012 Big", "092 Individual: Round-Robin"]
    lines += [f"001 {start:4d}      {'P' + str(start):<33}" for start in range(1, 10_000)]
    # round 1 of the Berger table for 9 999 players: 9 999 meets 1 … on board 1
    path = written(tmp_path, "\n".join(lines) + "\n")
    status, out, _ = run(capsys, "trf", "validate", str(path))
    assert status == 0 and "9999 players, 0 rounds, system round robin" in out


def test_berger_round_of_a_pair_agrees_with_the_table() -> None:
    from crosstable.core.schedule.berger import berger_table

    for size in (3, 4, 5, 6, 9, 10, 15, 16):
        for scheduled in berger_table(size).rounds:
            for white, black in scheduled.boards:
                assert _berger_round_of(size, white, black) == scheduled.number


def test_round_robin_games_keep_the_berger_board_order() -> None:
    doc = read_trf(ROUND_ROBIN)
    from crosstable.core.schedule.berger import berger_round

    for rnd in doc.tournament.rounds:
        expected = berger_round(6, rnd.number).boards
        assert [frozenset((g.white, g.black)) for g in rnd.games] == [
            frozenset(pair) for pair in expected
        ]


def test_long_line_and_big_file_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = written(tmp_path, swiss_text() + "801 " + "x" * 20_000 + "\n")
    err = refused(capsys, path, "trf", "validate")
    assert "the line has 20004 characters; a TRF line has at most 10081 (999 rounds)" in err
    big = tmp_path / "big.trf"
    with big.open("wb") as stream:
        stream.truncate(5 * 1024 * 1024)
    err = refused(capsys, big, "trf", "validate")
    assert "larger than 4 MiB" in err
    many = written(tmp_path, swiss_text() + "XXZ 1\n" * 50_000, "many.trf")
    err = refused(capsys, many, "trf", "validate")
    assert ":50001: more than 50000 lines" in err


def test_empty_file_is_an_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Issue 15 item 4: an empty file gave an empty table and exit 0."""
    for text in ("", "\n\n", "012 Only a name\n"):
        path = written(tmp_path, text, "empty.trf")
        for command in (("trf", "validate"), ("standings",), ("pair",), ("trf", "convert")):
            err = refused(capsys, path, *command)
            assert "no player lines (001)" in err
        err = refused(capsys, path, "trf", "validate", "--lenient")


# ---------------------------------------------------------------- validation (issue 15.4)


def test_a_game_both_players_lost_is_an_error_unless_lenient(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = swiss_text()
    first = "001    1      Test0001 Player0001               2561                             4.0"
    path = written(tmp_path, text.replace(first + "    2     4 b 1", first + "    2     4 b 0"))
    for command in (
        ("trf", "validate"),
        ("standings",),
        ("pair", "--format", "json"),
        ("trf", "convert"),
    ):
        err = refused(capsys, path, *command)
        assert err == (
            f"crosstable: {path}:2:99: round 1: results contradict each other: player 1 has "
            "'0', player 4 has '0' (line 5): both players lost (--lenient reads it with a "
            "warning)\n"
        )
    status, out, err = run(capsys, "trf", "validate", "--lenient", str(path))
    assert status == 0 and ": ok — 7 players" in out
    assert "line 2: round 1: player 1 has '0', player 4 has '0' (line 5): both players lost" in err
    assert "player 1: the points column (81–84) says 4, the games give 3" in err
    status, out, err = run(capsys, "standings", "--lenient", "--format", "json", str(path))
    assert status == 0 and "both players lost" in err
    rows = {row["start"]: row for row in json.loads(out)["rows"]}
    assert rows[1]["points"] == 3 and rows[4]["points"] == 3  # the loss stays a loss


def test_unknown_record_code_is_an_error_unless_lenient(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = written(tmp_path, swiss_text() + "x1z something\n")
    err = refused(capsys, path, "trf", "validate")
    assert ":12:1: record code 'x1z' is not a TRF code" in err
    status, _, err = run(capsys, "trf", "validate", "--lenient", str(path))
    assert status == 0 and "line 12: record code 'x1z' is not a TRF code" in err
    # records of other programs in capitals (Tornelo's DAT) and unknown numbers stay text
    assert parse_trf(swiss_text() + "DAT 2026\n801 x\n").other_records == (
        ("DAT", "2026"),
        ("801", "x"),
    )


def test_lenient_convert_writes_a_file_that_reads_strictly_when_only_points_differ(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = swiss_text().replace("  4.0    2     4 b 1", "  4.5    2     4 b 1")
    path = written(tmp_path, text)
    refused(capsys, path, "trf", "convert")
    status, out, err = run(capsys, "trf", "convert", "--lenient", str(path))
    assert status == 0 and "the games' score is used" in err
    assert parse_trf(out).file_points[1] == 4


# ---------------------------------------------------------------- sex and other fields (18.3)


@pytest.mark.parametrize("code", ["u", "U", "x", "1", "?"])
def test_unknown_sex_is_a_warning_not_a_refusal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, code: str
) -> None:
    """Issue 18 item 3: a whole file was refused for a sex code `u`."""
    text = swiss_text().replace("001    1      Test", f"001    1 {code}    Test")
    path = written(tmp_path, text)
    status, out, err = run(capsys, "trf", "validate", str(path))
    assert status == 0 and ": ok — 7 players" in out
    assert f"warning: line 2: sex {code!r} in column 10 is not m, w (f) or blank" in err
    doc = read_trf(path)
    assert doc.tournament.players[0].sex == ""
    assert parse_trf(write_trf(doc)) == doc
    assert run(capsys, "standings", str(path))[0] == 0


def test_titles_federations_and_birth_dates_are_read_as_written() -> None:
    lines = swiss_text().splitlines()
    first = list(lines[1])
    for column, text in ((11, " gm"), (54, "?x?"), (58, "   whatever"), (70, "31.02.199 ")):
        first[column - 1 : column - 1 + len(text)] = text
    lines[1] = "".join(first)
    doc = parse_trf("\n".join(lines) + "\n")
    player = doc.tournament.players[0]
    assert (player.title, player.federation, player.fide_id, player.birth_date) == (
        "GM",
        "?x?",
        "whatever",
        "31.02.199",
    )
    assert parse_trf(write_trf(doc)) == doc


# ---------------------------------------------------------------- encodings


@pytest.mark.parametrize("encoding", ["cp1251", "koi8_r"])
def test_cyrillic_files_are_recognised(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, encoding: str
) -> None:
    """They were read as Windows-1252: 'Èâàíîâ' and no warning."""
    text = swiss_text().replace("Test0001 Player0001", "Иванов Иван Петрови")
    text = text.replace("Test0002 Player0002", "СМИРНОВА Ольга Ёлки")
    path = written(tmp_path, text.encode(encoding))
    status, _, err = run(capsys, "trf", "validate", str(path))
    name = {"cp1251": "Windows-1251", "koi8_r": "KOI8-R"}[encoding]
    assert status == 0
    assert f"the file is not UTF-8; its letters read as Cyrillic in {name}" in err
    doc = read_trf(path)
    assert [p.name for p in doc.tournament.players[:2]] == [
        "Иванов Иван Петрови",
        "СМИРНОВА Ольга Ёлки",
    ]
    assert doc.warnings[0].startswith("the file is not UTF-8")


def test_west_european_files_stay_windows_1252() -> None:
    for path in sorted(DATA.glob("**/*.trf")):
        data = path.read_bytes()
        try:
            expected = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            expected = data.decode("cp1252")
        assert decode_trf(data) == expected, path.name
    assert decode_trf("Aurélien Médiathèque à Zürich".encode("cp1252")) == (
        "Aurélien Médiathèque à Zürich"
    )


# ---------------------------------------------------------------- tournament JSON


def good_json() -> dict[str, object]:
    return to_json(read_trf(SWISS))


def _set(data: dict[str, object], path: str, value: object) -> dict[str, object]:
    data = copy.deepcopy(data)
    target: object = data
    keys = path.split(".")
    for key in keys[:-1]:
        target = target[int(key)] if isinstance(target, list) else target[key]  # type: ignore[index]
    last = keys[-1]
    if isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value  # type: ignore[index]
    return data


@pytest.mark.parametrize(
    ("path", "value", "words"),
    [
        ("tournament.rounds.0.number", 10**12, "rounds[0].number: 1000000000000: rounds are"),
        ("tournament.rounds.0.games.0.round", 7, "games[0].round: 7 in round 1"),
        ("tournament.players.0.sex", "2", "players[0].sex: '2': use"),
        ("tournament.players.0.name", "Anna\nBerg", "players[0].name: 'Anna\\nBerg': a line"),
        ("tournament.players.0.title", "GMGM", "players[0].title: 'GMGM' is longer than 3"),
        ("tournament.players.0.federation", "FRAN", "federation: 'FRAN' is longer than 3"),
        ("tournament.players.0.rating", 10_000, "players[0].rating: 10000: at most 9999"),
        ("tournament.players.0.rating", 2**63, "players[0].rating: 9223372036854775808: too"),
        ("tournament.name", "A\rB", "$.tournament.name: 'A\\rB': a line break"),
        ("trf.file_points.1", 10.25, "file_points.1: 10.25 does not fit in 4 columns"),
        ("trf.file_points.1", "1/3", "file_points.1: 1/3 has no exact decimal form"),
        ("trf.file_points.1", "1e999999", "'1e999999' is not a number"),
        ("trf.absent", [99], "$.trf.absent: there is no player 99"),
        (
            "trf.byes",
            [{"kind": "H", "round": 1, "players": [42]}],
            "$.trf.byes[0].players: there is no player 42",
        ),
        ("trf.headers", {"abc": "x"}, "$.trf.headers.abc: a tournament tag is three digits"),
        (
            "tournament.settings.point_system.win",
            "1/3",
            "point_system",
        ),
    ],
)
def test_json_a_trf_cannot_hold_is_refused(path: str, value: object, words: str) -> None:
    bad = _set(good_json(), path, value)
    with pytest.raises(InputError) as caught:
        tournament_from_json(json.loads(json.dumps(bad)), source="t.json")
    assert str(caught.value).startswith("t.json: $") and words in str(caught.value)


def test_json_round_number_of_10_12_no_longer_hangs_convert_and_pair(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = _set(good_json(), "tournament.rounds.4.number", 10**12)
    path = written(tmp_path, json.dumps(bad), "bad.json")
    for command in (("trf", "validate"), ("trf", "convert"), ("pair",), ("standings",)):
        err = refused(capsys, path, *command)
        assert "rounds[4].number: 1000000000000: rounds are numbered 1, 2, 3" in err


def test_json_player_playing_themself_is_refused() -> None:
    bad = good_json()
    game = bad["tournament"]["rounds"][0]["games"][0]  # type: ignore[index]
    game["black"] = game["white"]
    with pytest.raises(InputError, match="cannot meet themself"):
        tournament_from_json(json.loads(json.dumps(bad)), source="t.json")


@pytest.mark.parametrize(
    "text",
    [
        '{"format": 1' + "1" * 5000 + "}",
        "[" * 100_000,
        '{"format": NaN}',
        '{"format": Infinity}',
    ],
)
def test_json_numbers_and_depth_are_bounded(text: str) -> None:
    with pytest.raises(InputError):
        load_json(text, source="t.json")


def test_whatever_json_accepts_is_written_as_trf_and_read_again() -> None:
    doc = load_json(dump_json(read_trf(SWISS)))
    assert parse_trf(write_trf(doc)) == doc
    assert parse_trf(write_trf(doc, "trf16")).tournament == doc.tournament


def test_json_with_a_game_both_players_lost_needs_lenient() -> None:
    text = swiss_text()
    first = "001    1      Test0001 Player0001               2561                             4.0"
    doc = parse_trf(
        text.replace(first + "    2     4 b 1", first + "    2     4 b 0"), lenient=True
    )
    data = dump_json(doc)
    with pytest.raises(InputError, match="both players lost"):
        load_json(data, source="t.json")
    assert load_json(data, lenient=True) == doc


# ---------------------------------------------------------------- found by the fuzz targets


def test_control_characters_in_a_line_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A tab read as one column then written back shifted nothing, but JSON refused it."""
    path = written(tmp_path, swiss_text().replace("Test0001 Player0001", "Test0001\tPlayer0001"))
    err = refused(capsys, path, "trf", "validate")
    assert ":2:23: control character U+0009 in column 23" in err


def test_a_tag_with_a_unicode_digit_is_not_a_tournament_tag() -> None:
    doc = parse_trf(swiss_text() + "６12 x\n", lenient=True)
    assert "６12" not in doc.headers
    assert doc.other_records == (("６12", "x"),)
    assert load_json(dump_json(doc), lenient=True) == doc


def test_xxa_points_keep_to_their_columns() -> None:
    """`XXA    1 10.25` was read as 10.2, the 5 in the blank column dropped."""
    with pytest.raises(InputError, match="XXA: unexpected '5' in column 14"):
        parse_trf(swiss_text() + "XXA    1 10.25\n")


@pytest.mark.parametrize("name", ["cycles", "rounds"])
def test_json_cycles_and_planned_rounds_are_bounded(name: str) -> None:
    bad = _set(good_json(), f"tournament.settings.{name}", 10**12)
    with pytest.raises(InputError, match=rf"settings\.{name}: 1000000000000: at most 999"):
        tournament_from_json(bad, source="t.json")


@pytest.mark.parametrize(
    "path",
    [SWISS, ROUND_ROBIN, DATA / "tiebreaks/real/icu_gonzaga_classic_2008.trf"],
    ids=lambda p: p.name,
)
def test_scores_in_one_pass_equal_the_tournament_s(path: Path) -> None:
    """The points-column check scores every player in one pass (score() per player was
    O(players × rounds × games): 18 s for 1 000 players of 80 rounds)."""
    from crosstable.formats.trf_read import scores_of

    tournament = read_trf(path).tournament
    assert scores_of(tournament) == {p.start: tournament.score(p.start) for p in tournament.players}
    shorter = tournament.__class__(
        tournament.settings, tournament.players, tournament.rounds[:-1], tournament.name
    )
    assert scores_of(tournament, last=-1) == {
        p.start: shorter.score(p.start) for p in tournament.players
    }
