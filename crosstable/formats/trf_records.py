"""TRF-2026 and TRF(x) records other than ``001``: read and written side by side.

Each ``read_*`` takes a :class:`~crosstable.formats.trf_text.Line` and returns a
value; each ``format_*`` returns the line for a value, column-exact as the
TRF-2026 text (records 013, 240, 250, 260, 299, 310, NRS) or JaVaFo's manual
(``XXA``, ``XXP``, ``XXZ``) lays it out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction

from crosstable.core.model import ByeKind
from crosstable.formats.limits import is_number_text
from crosstable.formats.trf_model import (
    AbnormalPoints,
    Acceleration,
    ByeRecord,
    NationalRecord,
    ProhibitedPairing,
    Team,
)
from crosstable.formats.trf_text import Line, format_fixed, number_problem, parse_points

_BYE_KINDS = {"F": ByeKind.FULL, "H": ByeKind.HALF, "Z": ByeKind.ZERO}


def tokens(line: Line, first: int) -> list[tuple[str, int]]:
    """Blank-separated words from column ``first`` on, each with its 1-based column."""
    start = first - 1
    return [(m.group(), start + m.start() + 1) for m in re.finditer(r"\S+", line.text[start:])]


def _number(line: Line, word: tuple[str, int], what: str) -> int:
    text, column = word
    if not is_number_text(text):
        raise line.error(f"{what} {number_problem(text)}", column)
    return int(text)


def _numbers(line: Line, words: list[tuple[str, int]], what: str) -> tuple[int, ...]:
    return tuple(_number(line, word, what) for word in words)


def _points(line: Line, word: tuple[str, int], what: str) -> Fraction:
    text, column = word
    return parse_points(text, lambda message: line.error(f"{what}: {message}", column))


def _ids(values: tuple[int, ...], width: int = 4) -> str:
    return " ".join(str(v).rjust(width) for v in values)


# ---------------------------------------------------------------- 240 byes


def read_240(line: Line) -> ByeRecord:
    """``240 H 003  026  047``: type (F/H/Z), round, then the players."""
    words = tokens(line, 5)
    if len(words) < 3:
        raise line.error("record 240 needs a bye type, a round and at least one player", 5)
    kind = _BYE_KINDS.get(words[0][0].upper())
    if kind is None:
        raise line.error(f"bye type {words[0][0]!r}: use F, H or Z", words[0][1])
    return ByeRecord(kind, _number(line, words[1], "round"), _numbers(line, words[2:], "player"))


def format_240(record: ByeRecord) -> str:
    return f"240 {record.kind.value} {record.round:03d} {_ids(record.players)}"


# ---------------------------------------------------------------- 250 accelerations


def read_250(line: Line) -> Acceleration:
    """``250 MMMM GGGG RRF RRL PPPF PPPL``; the match points may be blank."""
    words = tokens(line, 5)
    if len(words) == 5:
        match_points = None
    elif len(words) == 6:
        match_points = _points(line, words.pop(0), "match points")
    else:
        raise line.error(
            "record 250 needs: [match points] points, first round, last round, "
            "first player, last player",
            5,
        )
    points = _points(line, words[0], "fictitious points")
    first_round, last_round, first, last = _numbers(line, words[1:], "round or player")
    return Acceleration(points, first_round, last_round, first, last, match_points)


def format_250(record: Acceleration) -> str:
    match = "    " if record.match_points is None else format_fixed(record.match_points, 4)
    return (
        f"250 {match} {format_fixed(record.points, 4)} {record.first_round:03d} "
        f"{record.last_round:03d} {record.first_player:04d} {record.last_player:04d}"
    )


# ---------------------------------------------------------------- 260 prohibited pairings


def read_260(line: Line) -> ProhibitedPairing:
    """``260 001 002  125  180``: first round, last round, two or more players."""
    words = tokens(line, 5)
    if len(words) < 4:
        raise line.error("record 260 needs a first round, a last round and two players", 5)
    first, last = _numbers(line, words[:2], "round")
    return ProhibitedPairing(first, last, _numbers(line, words[2:], "player"))


def format_260(record: ProhibitedPairing) -> str:
    return f"260 {record.first_round:03d} {record.last_round:03d} {_ids(record.players)}"


# ---------------------------------------------------------------- 299 abnormal points


def read_299(line: Line) -> AbnormalPoints:
    """Type at column 5 (may be blank), match points 8–11, points 14–17, round 20–22,
    then players from column 24."""
    kind = line.char(5).strip().upper()
    if kind and kind not in "WDLFHZ+-":
        raise line.error(f"abnormal assignment type {kind!r}: use W D L F H Z + - or blank", 5)
    match_points = line.points(7, 11, "match points")
    points = line.points(13, 17, "points")
    round_number = line.integer(19, 22, "round")
    players = _numbers(line, tokens(line, 24), "player")
    return AbnormalPoints(kind, points, round_number or None, players, match_points)


def format_299(record: AbnormalPoints) -> str:
    match = "" if record.match_points is None else format_fixed(record.match_points, 5)
    points = "" if record.points is None else format_fixed(record.points, 5)
    round_text = "000" if record.round is None else f"{record.round:03d}"
    return (
        f"299 {record.kind or ' '} {match.rjust(5)} {points.rjust(5)}  {round_text} "
        f"{_ids(record.players)}"
    ).rstrip()


# ---------------------------------------------------------------- 013 and 310 teams


def read_013(line: Line) -> Team:
    """Name in columns 5–36, member starting numbers from column 37."""
    members = _numbers(line, tokens(line, 37), "team member")
    return Team(line.field(5, 36).strip(), members)


def format_013(team: Team) -> str:
    return f"013 {team.name[:32].ljust(32)}{_ids(team.members)}".rstrip()


def read_310(line: Line) -> Team:
    return Team(
        name=line.field(9, 40).strip(),
        members=_numbers(line, tokens(line, 73), "team member"),
        record="310",
        number=line.integer(5, 7, "team number"),
        nickname=line.field(42, 46).strip(),
        strength=line.field(48, 53).strip(),
        match_points=line.points(55, 60, "match points"),
        game_points=line.points(62, 67, "game points"),
        rank=line.integer(69, 71, "team rank"),
    )


def format_310(team: Team) -> str:
    number = "" if team.number is None else str(team.number)
    match = "" if team.match_points is None else format_fixed(team.match_points, 6)
    game = "" if team.game_points is None else format_fixed(team.game_points, 6)
    rank = "" if team.rank is None else str(team.rank)
    return (
        f"310 {number.rjust(3)} {team.name[:32].ljust(32)} {team.nickname[:5].ljust(5)} "
        f"{team.strength[:6].rjust(6)} {match.rjust(6)} {game.rjust(6)} {rank.rjust(3)}  "
        f"{_ids(team.members)}"
    ).rstrip()


# ---------------------------------------------------------------- NRS national ratings


def read_nrs(line: Line) -> NationalRecord:
    """Same columns as the static part of ``001``, with a federation code in 1–3."""
    start = line.integer(5, 8, "starting number", blank_ok=False)
    assert start is not None
    return NationalRecord(
        federation=line.tag,
        start=start,
        sex=line.char(10).strip(),
        classification=line.field(11, 13).strip(),
        name=line.field(15, 47).strip(),
        rating=line.integer(49, 52, "national rating"),
        origin=line.field(54, 56).strip(),
        number=line.field(58, 68).strip(),
        birth_date=line.field(70, 79).strip(),
    )


def format_nrs(record: NationalRecord) -> str:
    rating = "" if record.rating is None else str(record.rating)
    return (
        f"{record.federation} {record.start:4d} {record.sex[:1] or ' '}"
        f"{record.classification[:3].rjust(3)} {record.name[:33].ljust(33)} {rating.rjust(4)} "
        f"{record.origin[:3].ljust(3)} {record.number[:11].rjust(11)} {record.birth_date[:10]}"
    ).rstrip()


# ---------------------------------------------------------------- TRF(x)


def read_ids(line: Line) -> tuple[int, ...]:
    """``XXZ 3 7`` / ``XXP 13 68``: a list of starting numbers."""
    return _numbers(line, tokens(line, 5), "player")


def format_ids(tag: str, players: tuple[int, ...]) -> str:
    return f"{tag} " + " ".join(str(p) for p in players)


def read_xxa(line: Line) -> tuple[int, tuple[Fraction | None, ...]]:
    """``XXA NNNN pp.p pp.p …``: player at 5–8, round r's points at column 10 + 5(r−1)."""
    player = line.integer(5, 8, "player", blank_ok=False)
    assert player is not None
    values: list[Fraction | None] = []
    column = 10
    while column <= len(line.text):
        if line.char(column + 4) != " ":
            raise line.error(
                f"XXA: unexpected {line.char(column + 4)!r} in column {column + 4}: "
                "each round's points take 4 columns and a blank",
                column + 4,
            )
        values.append(
            line.points(column, column + 3, f"fictitious points, round {len(values) + 1}")
        )
        column += 5
    while values and values[-1] is None:
        values.pop()
    return player, tuple(values)


def format_xxa(player: int, values: tuple[Fraction | None, ...]) -> str:
    cells = ["    " if v is None else format_fixed(v, 4) for v in values]
    return f"XXA {player:4d} " + " ".join(cells)


def acceleration_records(table: Mapping[int, Sequence[Fraction]]) -> tuple[Acceleration, ...]:
    """Records 250 for a table of fictitious points per player and round: one record
    per run of rounds with the same points, over a run of players with the same row.

    >>> row = [Fraction(1), Fraction(1, 2)]
    >>> [(str(a.points), a.first_round, a.last_round, a.first_player, a.last_player)
    ...  for a in acceleration_records({1: row, 2: row})]
    [('1', 1, 1, 1, 2), ('1/2', 2, 2, 1, 2)]
    """
    records: list[Acceleration] = []
    starts = sorted(table)
    index = 0
    while index < len(starts):
        first = starts[index]
        row = list(table[first])
        last = first
        while index + 1 < len(starts) and starts[index + 1] == last + 1:
            if list(table[starts[index + 1]]) != row:
                break
            index += 1
            last = starts[index]
        index += 1
        number = 0
        while number < len(row):
            end = number
            while end + 1 < len(row) and row[end + 1] == row[number]:
                end += 1
            if row[number]:
                records.append(Acceleration(row[number], number + 1, end + 1, first, last))
            number = end + 1
    return tuple(records)
