"""TRF-2026's team records besides 310 (docs/trf.md, "Team records"):

* ``300`` a team played out of its default order: round, team, scheduled opponent, then
  the players board by board (``0000`` an unoccupied board);
* ``320`` the team pairing-allocated byes: the match points and game points of a PAB,
  then the team that had it in round 1, 2, … (``000`` none);
* ``330`` a forfeited match: ``+-`` won by the White team, ``-+`` by the Black team,
  ``--`` lost by both; round, White team, Black team;
* ``802`` (informative) a team's round-by-round line: team, nickname, match points, game
  points, then for each round the opponent (or ``PAB FPB HPB ZPB``), the colour, the game
  points and ``f`` for a forfeit, in blocks of 13 columns from column 29;
* ``801`` (informative, a layout FIDE's text does not spell out: ours, docs/trf.md) the same
  head as 802, then for each round the opponent, the colour, one result a board and the
  roster positions of the players on the boards.

The records are read from their lines (errors name the line and the column) and written
back column-exact; what they say about the games is checked by the team import
(:mod:`crosstable.service.teams.trf_plan`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from crosstable.core.errors import InputError
from crosstable.formats.limits import is_number_text
from crosstable.formats.trf_records import tokens
from crosstable.formats.trf_text import Line, format_fixed, parse_points

#: the team records this module reads (besides 310 and 013, read with the teams)
TEAM_TAGS = ("300", "320", "330", "801", "802")
#: those checked as the file is read (801's layout is not FIDE's to check: kept as text)
CHECKED_TAGS = ("300", "320", "330")
#: the kinds of a forfeited match (330)
FORFEIT_KINDS = ("+-", "-+", "--")
#: the bye words of an 801/802 round
BYE_WORDS = ("PAB", "FPB", "HPB", "ZPB")
#: the roster positions 801 writes, one character each (1…9, then A…Z)
POSITIONS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: the most rounds or boards a team record lists
MAX_LISTED = 999


@dataclass(frozen=True, slots=True)
class OutOfOrder:
    """300: ``team`` played ``round`` against ``opponent`` with ``players`` board by
    board (0: an unoccupied board)."""

    round: int
    team: int
    opponent: int
    players: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TeamByes:
    """320: the points of a team PAB and the team that had it in each round (0: none)."""

    match_points: Fraction
    game_points: Fraction
    teams: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ForfeitedMatch:
    """330: a match forfeited (``kind`` ``+-``, ``-+`` or ``--``)."""

    kind: str
    round: int
    white: int
    black: int


@dataclass(frozen=True, slots=True)
class TeamRound:
    """One round of an 802 line: ``opponent`` or a bye word, the colour (``w``/``b``/
    blank), the team's game points, whether forfeited."""

    opponent: int | None
    bye: str
    colour: str
    game_points: Fraction
    forfeit: bool


@dataclass(frozen=True, slots=True)
class TeamLine:
    """An 802 line (or the head of an 801 line: ``rounds`` empty)."""

    tag: str
    team: int
    nickname: str
    match_points: Fraction
    game_points: Fraction
    rounds: tuple[TeamRound, ...] = ()


@dataclass(frozen=True, slots=True)
class TeamRecords:
    """A file's team records besides 310/013, each with the line it came from (0: not
    read from a file)."""

    out_of_order: tuple[tuple[OutOfOrder, int], ...] = ()
    byes: tuple[tuple[TeamByes, int], ...] = ()
    forfeited: tuple[tuple[ForfeitedMatch, int], ...] = ()
    lines: tuple[tuple[TeamLine, int], ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.out_of_order or self.byes or self.forfeited or self.lines)


def _whole(line: Line, word: tuple[str, int], what: str) -> int:
    text, column = word
    if not is_number_text(text) or len(text) > 6:
        raise line.error(f"record {line.tag}: {what} {text!r} is not a whole number", column)
    return int(text)


def _words(line: Line, least: int, what: str) -> list[tuple[str, int]]:
    words = tokens(line, 5)
    if len(words) < least:
        raise line.error(f"record {line.tag} needs {what}", 5)
    if len(words) > MAX_LISTED + 4:
        raise line.error(f"record {line.tag}: more than {MAX_LISTED} values", 5)
    return words


def read_300(line: Line) -> OutOfOrder:
    """``300 RRR TTT OOO PPPP PPPP …``."""
    words = _words(line, 4, "a round, a team, its opponent and at least one player")
    round_, team, opponent = (
        _whole(line, w, what) for w, what in zip(words, ("round", "team", "opponent"), strict=False)
    )
    players = tuple(_whole(line, w, "player") for w in words[3:])
    return OutOfOrder(round_, team, opponent, players)


def format_300(record: OutOfOrder) -> str:
    players = " ".join("0000" if p == 0 else str(p).rjust(4) for p in record.players)
    team, opponent = str(record.team).rjust(3), str(record.opponent).rjust(3)
    return f"300 {record.round:03d} {team} {opponent} {players}"


def _amount(line: Line, word: tuple[str, int], what: str) -> Fraction:
    text, column = word
    return parse_points(text, lambda message: line.error(f"{what}: {message}", column))


def read_320(line: Line) -> TeamByes:
    """``320 MMMM GGGG TTT TTT …``: PAB match and game points, then a team a round."""
    words = _words(line, 3, "the match points, the game points and a team for round 1")
    mp = _amount(line, words[0], "record 320: match points")
    gp = _amount(line, words[1], "record 320: game points")
    teams = tuple(_whole(line, w, "team") for w in words[2:])
    return TeamByes(mp, gp, teams)


def format_320(record: TeamByes) -> str:
    teams = " ".join(f"{t:03d}" if t == 0 else str(t).rjust(3) for t in record.teams)
    return (
        f"320 {format_fixed(record.match_points, 4)} {format_fixed(record.game_points, 4)} {teams}"
    )


def read_330(line: Line) -> ForfeitedMatch:
    """``330 KK RRR WWW BBB``."""
    words = _words(line, 4, "a forfeit kind (+- -+ --), a round, the White and the Black team")
    kind, column = words[0]
    if kind not in FORFEIT_KINDS:
        raise line.error(
            f"record 330: forfeit kind {kind!r}: +- (White team wins), -+ (Black team wins) "
            "or -- (both lose)",
            column,
        )
    if len(words) > 4:
        raise line.error("record 330: one match a line", words[4][1])
    round_, white, black = (_whole(line, w, "round or team") for w in words[1:4])
    return ForfeitedMatch(kind, round_, white, black)


def format_330(record: ForfeitedMatch) -> str:
    return (
        f"330 {record.kind} {record.round:03d} {str(record.white).rjust(3)} "
        f"{str(record.black).rjust(3)}"
    )


def _head(line: Line) -> tuple[int, str, Fraction, Fraction]:
    team = line.integer(5, 7, f"record {line.tag}: team", blank_ok=False)
    assert team is not None
    mp = line.points(15, 20, f"record {line.tag}: match points")
    gp = line.points(22, 27, f"record {line.tag}: game points")
    if mp is None or gp is None:
        raise line.error(f"record {line.tag}: the match and game points (15–20, 22–27)", 15)
    return team, line.field(9, 13).strip(), mp, gp


def read_802(line: Line) -> TeamLine:
    """``802 TTT NNNNN MMMMMM GGGGGG`` then a block of 13 columns a round from 29."""
    team, nickname, mp, gp = _head(line)
    rounds: list[TeamRound] = []
    column = 29
    while column <= len(line.text.rstrip()):
        if len(rounds) >= MAX_LISTED:
            raise line.error(f"record 802: more than {MAX_LISTED} rounds", column)
        said = line.field(column, column + 2).strip()
        colour = line.char(column + 4).strip()
        points = line.points(column + 6, column + 9, "record 802: game points")
        mark = line.char(column + 10).strip()
        if said.upper() in BYE_WORDS:
            opponent, bye = None, said.upper()
        else:
            opponent = line.integer(column, column + 2, "record 802: opponent", blank_ok=False)
            bye = ""
            if colour.lower() not in ("w", "b"):
                raise line.error("record 802: the colour is w or b", column + 4)
        if points is None:
            raise line.error("record 802: the round's game points are missing", column + 6)
        if mark not in ("", "f", "F"):
            raise line.error("record 802: the forfeit mark is f or blank", column + 10)
        rounds.append(TeamRound(opponent, bye, colour.lower(), points, bool(mark)))
        column += 13
    return TeamLine("802", team, nickname, mp, gp, tuple(rounds))


def format_802(record: TeamLine) -> str:
    head = (
        f"802 {str(record.team).rjust(3)} {record.nickname[:5].ljust(5)} "
        f"{format_fixed(record.match_points, 6)} {format_fixed(record.game_points, 6)}"
    )
    blocks = []
    for rnd in record.rounds:
        said = rnd.bye if rnd.opponent is None else str(rnd.opponent).rjust(3)
        mark = "f" if rnd.forfeit else " "
        blocks.append(f"{said} {rnd.colour or ' '} {format_fixed(rnd.game_points, 4)}{mark}  ")
    return (head + " " + "".join(blocks)).rstrip()


def format_801(record: TeamLine, rounds: Iterable[tuple[str, str, str, str]]) -> str:
    """801: the head, then per round (opponent or bye word, colour, results, positions)."""
    head = (
        f"801 {str(record.team).rjust(3)} {record.nickname[:5].ljust(5)} "
        f"{format_fixed(record.match_points, 6)} {format_fixed(record.game_points, 6)}"
    )
    blocks = [
        f"{said.rjust(3)} {colour or ' '} {results} {positions.ljust(len(results))}  "
        for said, colour, results, positions in rounds
    ]
    return (head + " " + "".join(blocks)).rstrip()


def read_team_record(line: Line) -> object:
    """The value of a team record line (300, 320, 330, 802); InputError naming the column."""
    readers = {
        "300": read_300,
        "320": read_320,
        "330": read_330,
        "802": read_802,
    }
    return readers[line.tag](line)


def team_records_of(
    records: Iterable[tuple[str, str]], source: str, headers: Mapping[str, str] | None = None
) -> TeamRecords:
    """The team records among a document's records kept as text (``other_records``; 802
    lines are read as a ``??2`` tag, so from ``headers``), read again; a record that does
    not read is an InputError naming it."""
    found: dict[str, list[tuple[object, int]]] = {tag: [] for tag in TEAM_TAGS}
    for index, (tag, text) in enumerate(records, 1):
        if tag in CHECKED_TAGS:
            line = Line(f"{tag} {text}", 0, f"{source} (record {tag}, #{index})")
            found[tag].append((read_team_record(line), 0))
    for text in (headers or {}).get("802", "").split("\n"):  # (read as a ??2 tag)
        if text.strip():
            line = Line(f"802 {text}", 0, f"{source} (record 802)")
            found["802"].append((read_802(line), 0))
    return TeamRecords(
        out_of_order=tuple(found["300"]),  # type: ignore[arg-type]
        byes=tuple(found["320"]),  # type: ignore[arg-type]
        forfeited=tuple(found["330"]),  # type: ignore[arg-type]
        lines=tuple(found["801"] + found["802"]),  # type: ignore[arg-type]
    )


def without_team_records(records: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """``records`` less the team records this module reads."""
    return tuple((tag, text) for tag, text in records if tag not in TEAM_TAGS)


def position_char(position: int) -> str:
    """A roster position as 801 writes it (0 an empty board, then 1…9, A…Z)."""
    if not 0 <= position < len(POSITIONS):
        raise InputError(f"roster position {position} does not fit record 801 (at most 35)")
    return POSITIONS[position]


__all__ = [
    "BYE_WORDS",
    "CHECKED_TAGS",
    "FORFEIT_KINDS",
    "TEAM_TAGS",
    "ForfeitedMatch",
    "OutOfOrder",
    "TeamByes",
    "TeamLine",
    "TeamRecords",
    "TeamRound",
    "format_300",
    "format_320",
    "format_330",
    "format_801",
    "format_802",
    "position_char",
    "read_300",
    "read_320",
    "read_330",
    "read_802",
    "read_team_record",
    "team_records_of",
    "without_team_records",
]
