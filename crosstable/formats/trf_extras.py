"""The records of a TRF other than ``001`` lines and tournament tags (reading side)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TypeVar

from crosstable.core.errors import InputError
from crosstable.core.model import Colour
from crosstable.formats import trf_records as rec
from crosstable.formats.limits import MAX_ROUNDS
from crosstable.formats.trf_codes import XXS_CODES
from crosstable.formats.trf_model import (
    AbnormalPoints,
    Acceleration,
    ByeRecord,
    NationalRecord,
    ProhibitedPairing,
    Team,
)
from crosstable.formats.trf_team_records import CHECKED_TAGS, read_team_record
from crosstable.formats.trf_text import Line, parse_points

_T = TypeVar("_T")


def error_at(line: Line, prefix: str, column: int) -> Callable[[str], InputError]:
    """An error factory for a value at ``column`` of ``line``, prefixed with ``prefix``."""

    def error(message: str) -> InputError:
        return line.error(f"{prefix}: {message}", column)

    return error


class ExtraRecords:
    """Collects the records other than ``001`` and the tournament tags."""

    def __init__(self, source: str, size: int) -> None:
        self.source = source
        self.size = size
        self.rounds: tuple[Line, int] | None = None
        self.initial: tuple[Line, Colour] | None = None
        self.xxc_flags: list[str] = []
        self.xxs: list[tuple[str, Fraction]] = []
        self.xxs_line: Line | None = None
        self.byes: list[ByeRecord] = []
        self.accelerations: list[Acceleration] = []
        self.fictitious: dict[int, tuple[Fraction | None, ...]] = {}
        self.prohibited: list[ProhibitedPairing] = []
        self.forbidden: list[tuple[int, ...]] = []
        self.absent: list[int] = []
        self.abnormal: list[AbnormalPoints] = []
        self.teams: list[Team] = []
        self.national: list[NationalRecord] = []
        self.other: list[tuple[str, str]] = []

    def rounds_line(self) -> Line:
        assert self.rounds is not None
        return self.rounds[0]

    def _players(self, line: Line, players: tuple[int, ...]) -> tuple[int, ...]:
        for player in players:
            if not 1 <= player <= self.size:
                raise line.error(
                    f"{line.tag}: there is no player {player} (the file has {self.size})",
                    _column_of(line, player),
                )
        return players

    def _round_range(self, line: Line, first: int, last: int) -> None:
        for number in (first, last):
            if not 1 <= number <= MAX_ROUNDS:
                raise line.error(
                    f"{line.tag}: round {number}: rounds are 1…{MAX_ROUNDS}",
                    _column_of(line, number),
                )
        if first > last:
            raise line.error(
                f"{line.tag}: the first round ({first}) is after the last ({last})",
                _column_of(line, first),
            )

    def _writable(self, line: Line, write: Callable[[_T], str], value: _T) -> _T:
        """``value`` if the writer can write it back; else an error at ``line``."""
        try:
            write(value)
        except ValueError as error:
            raise line.error(
                f"record {line.tag}: {error}, so it cannot be written back", 5
            ) from None
        return value

    def read(self, line: Line, headers: dict[str, str]) -> None:
        tag = line.tag
        if tag == "XXR":
            value = line.integer(5, max(5, len(line.text)), "XXR number of rounds", blank_ok=False)
            assert value is not None
            if value > MAX_ROUNDS:
                raise line.error(f"XXR: {value} rounds: at most {MAX_ROUNDS}", 5)
            if self.rounds is not None and self.rounds[1] != value:
                raise line.error(
                    f"XXR given twice with different values (line {self.rounds[0].number})", 5
                )
            self.rounds = (line, value)
        elif tag == "XXC":
            self._xxc(line)
        elif tag == "XXS":
            self._xxs(line)
        elif tag == "XXZ":
            self.absent.extend(self._players(line, rec.read_ids(line)))
        elif tag == "XXP":
            self.forbidden.append(self._players(line, rec.read_ids(line)))
        elif tag == "XXA":
            player, values = rec.read_xxa(line)
            self._players(line, (player,))
            if len(values) > MAX_ROUNDS:
                raise line.error(f"XXA: more than {MAX_ROUNDS} rounds", 5)
            self._writable(line, lambda v: rec.format_xxa(player, v), values)
            if player in self.fictitious:
                raise line.error(f"XXA: player {player} is given twice", 5)
            self.fictitious[player] = values
        elif tag == "240":
            bye = rec.read_240(line)
            self._round_range(line, bye.round, bye.round)
            self._players(line, bye.players)
            self.byes.append(bye)
        elif tag == "250":
            acceleration = self._writable(line, rec.format_250, rec.read_250(line))
            self._round_range(line, acceleration.first_round, acceleration.last_round)
            self._players(line, (acceleration.first_player, acceleration.last_player))
            if acceleration.first_player > acceleration.last_player:
                raise line.error(
                    f"250: the first player ({acceleration.first_player}) is after the last "
                    f"({acceleration.last_player})",
                    _column_of(line, acceleration.first_player),
                )
            self.accelerations.append(acceleration)
        elif tag == "260":
            prohibited = rec.read_260(line)
            self._round_range(line, prohibited.first_round, prohibited.last_round)
            self._players(line, prohibited.players)
            self.prohibited.append(prohibited)
        elif tag == "299":
            abnormal = self._writable(line, rec.format_299, rec.read_299(line))
            if abnormal.round is not None:
                self._round_range(line, abnormal.round, abnormal.round)
            self._players(line, abnormal.players)
            self.abnormal.append(abnormal)
        elif tag == "013":
            self.teams.append(self._team(line, rec.read_013(line)))
        elif tag == "310":
            self.teams.append(self._team(line, rec.read_310(line)))
        elif tag.isalpha() and tag.isupper() and tag in _nrs_federations(headers):
            national = rec.read_nrs(line)
            self._players(line, (national.start,))
            self.national.append(national)
        else:
            if tag in CHECKED_TAGS:
                read_team_record(line)  # checked here, by line and column; kept as text
            self.other.append((tag, line.text[4:].rstrip()))

    def _team(self, line: Line, team: Team) -> Team:
        self._players(line, team.members)
        return self._writable(line, rec.format_310, team)

    def _xxc(self, line: Line) -> None:
        for word, column in rec.tokens(line, 5):
            lowered = word.lower()
            if lowered in ("white1", "black1"):
                colour = Colour.WHITE if lowered == "white1" else Colour.BLACK
                if self.initial is not None and self.initial[1] is not colour:
                    raise line.error("XXC names both white1 and black1", column)
                self.initial = (line, colour)
            elif word not in self.xxc_flags:
                self.xxc_flags.append(word)

    def _xxs(self, line: Line) -> None:
        self.xxs_line = self.xxs_line or line
        for word, column in rec.tokens(line, 5):
            code, sep, value = word.partition("=")
            code = code.upper()
            if not sep or code not in (*XXS_CODES, "W", "D"):
                raise line.error(
                    f"XXS {word!r}: write CODE=VALUE with CODE one of "
                    + " ".join((*XXS_CODES, "W", "D")),
                    column,
                )
            amount = parse_points(value, error_at(line, f"XXS {code}", column))
            self.xxs.append((code, amount))


def _column_of(line: Line, number: int) -> int:
    """The column of the first word of ``line`` (from column 5) that reads as ``number``."""
    for word, column in rec.tokens(line, 5):
        if word.lstrip("0") == str(number).lstrip("0") and word.isascii() and word.isdigit():
            return column
    return 5


def _nrs_federations(headers: dict[str, str]) -> set[str]:
    """Federations named by 172 lines (``FRA NRO``): their lines are NRS records."""
    return {text[:3] for text in headers.get("172", "").split("\n") if len(text) >= 3}
