"""Reading TRF text (TRF-16, TRF-2026, TRF(x)) into a :class:`TrfDocument`.

The text is read by character columns after decoding, so names with
non-ASCII letters never shift a field. Every error is an
:class:`~crosstable.core.errors.InputError` naming source, line and column.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction

from crosstable.core.errors import InputError, RuleError
from crosstable.core.model import ByeKind, Colour, Outcome, Player, Tournament
from crosstable.core.scoring import PointSystem, format_points
from crosstable.formats import trf_records as rec
from crosstable.formats.limits import CONTROL, MAX_LINE, MAX_LINES, MAX_ROUNDS
from crosstable.formats.trf_checks import Findings, check_ranks, check_rounds
from crosstable.formats.trf_codes import (
    SCORE_162_SYMBOLS,
    point_system_from_162,
    point_system_from_xxs,
    sex_from_text,
    title_from_text,
    values_162,
    xxs_values,
)
from crosstable.formats.trf_decided import decided_games
from crosstable.formats.trf_extras import ExtraRecords, error_at
from crosstable.formats.trf_model import (
    Comment,
    TrfDocument,
)
from crosstable.formats.trf_rounds import RawEntry, build_rounds, infer_settings
from crosstable.formats.trf_text import Line, format_fixed, parse_points, split_lines

#: A record code: three digits (``001``, ``092``, ``240``), or three capital letters
#: (``XXR``, a national-rating federation such as ``FRA``, a program's own ``DAT``).
_RECORD_CODE = re.compile(r"^(?:[0-9]{3}|[A-Z]{3})$")
#: Tournament tags whose value is typed (not kept in ``headers``).
TYPED_TAGS = frozenset({"012", "132", "142", "152", "162", "202", "212"})
_HEADER_TAG = re.compile(r"^[0-9][0-9]2$")
_FEDERATION = re.compile(r"^[A-Z]{3}$")
#: a birth date as TRF files write it: the year, then month and day (00: not given)
_BIRTH = re.compile(r"^([0-9]{4})(?:[/.-]([0-9]{2}| {0,2})[/.-]([0-9]{2}| {0,2}))?$")


def parse_trf(text: str, source: str = "<input>", *, lenient: bool = False) -> TrfDocument:
    """Parse TRF text; ``source`` names it in error messages.

    ``lenient`` (the command line's ``--lenient``) reads files from sloppy programs:
    the recoverable inconsistencies — a game whose two entries give less than a game
    is worth (``0`` against ``0``), a points column that does not add up, a record
    code that is no TRF code — become warnings on the document instead of errors.

    >>> doc = parse_trf("012 Club\\n001    1      A" + " " * 68 + "1.0        2 w 1\\n"
    ...                 "001    2      B" + " " * 68 + "0.0        1 b 0\\n")
    >>> doc.tournament.name, [str(g.result.label()) for g in doc.tournament.rounds[0].games]
    ('Club', ['1-0'])
    """
    reader = _Reader(source, lenient)
    for number, raw in enumerate(split_lines(text), start=1):
        if number > MAX_LINES:
            raise InputError(
                f"more than {MAX_LINES} lines: no tournament report needs so many",
                source=source,
                line=number,
            )
        reader.feed(Line(raw, number, source))
    return reader.finish()


@dataclass
class _Tagged:
    key: str
    line: Line


class _Reader:
    def __init__(self, source: str, lenient: bool = False) -> None:
        self.source = source
        self.lenient = lenient
        self.headers: list[_Tagged] = []
        self.players: list[Line] = []
        self.records: list[_Tagged] = []
        self.comments: list[Comment] = []
        self.counts: Counter[str] = Counter()
        self.last_key: str | None = None
        self.warnings: list[str] = []

    def feed(self, line: Line) -> None:
        text = line.text
        if not text.strip():
            return
        if len(text) > MAX_LINE:
            raise line.error(
                f"the line has {len(text)} characters; a TRF line has at most {MAX_LINE} "
                f"({MAX_ROUNDS} rounds)",
                MAX_LINE + 1,
            )
        control = CONTROL.search(text)
        if control is not None:
            raise line.error(
                f"control character U+{ord(control.group()):04X} in column {control.start() + 1}"
                " (a TRF line holds text and blanks only; a tab shifts the columns)",
                control.start() + 1,
            )
        if text.startswith("###"):
            self.comments.append(Comment(text[3:].rstrip(), self.last_key))
            return
        if len(text) > 3 and text[3] != " ":
            raise line.error(f"record code {text[:3]!r} must be followed by a blank", 4)
        tag = text[:3]
        if not _RECORD_CODE.match(tag):
            problem = (
                f"record code {tag!r} is not a TRF code "
                "(three digits, or three capital letters such as XXR)"
            )
            if not self.lenient:
                raise line.error(problem, 1, recoverable=True)
            self.warnings.append(f"line {line.number}: {problem}: kept as text")
        if tag == "001":
            start = line.integer(5, 8, "starting number", blank_ok=False)
            key = f"001/{start}"
            self.players.append(line)
        else:
            index = self.counts[tag]
            self.counts[tag] += 1
            key = tag if index == 0 else f"{tag}#{index}"
            target = self.headers if _HEADER_TAG.match(tag) else self.records
            target.append(_Tagged(key, line))
        self.last_key = key

    # ------------------------------------------------------------ assembling

    def finish(self) -> TrfDocument:
        players, points, ranks, raw = self._players()
        size = len(players)
        typed: dict[str, list[Line]] = {}
        headers: dict[str, str] = {}
        for item in self.headers:
            tag = item.line.tag
            if tag in TYPED_TAGS:
                typed.setdefault(tag, []).append(item.line)
            else:
                previous = headers.get(tag)
                text = item.line.rest()
                headers[tag] = text if previous is None else previous + "\n" + text
        extras = ExtraRecords(self.source, size)
        for item in self.records:
            extras.read(item.line, headers)
        name = _single(typed, "012")
        rounds_declared = self._declared_rounds(typed, extras)
        initial = self._initial_colour(typed, extras)
        point_system, unknown_points = self._point_system(typed, extras)
        tiebreaks, standings = _tiebreaks(typed)
        dates = _round_dates(typed.get("132", []))
        if not players:  # an empty file is not an empty tournament
            raise InputError(
                "no player lines (001): this is not a tournament report file, or it is empty",
                source=self.source,
            )
        settings = infer_settings(
            headers, raw, size, rounds_declared, point_system, tiebreaks, self.warnings
        )
        decided = decided_games(self.comments)  # an arbiter's ½-0, 0-½, 0-0 said in ### lines
        built = build_rounds(raw, size, settings, dates, self.warnings, self.lenient, decided)
        if settings.rounds is None and built and not settings.system.has_predetermined_pairings:
            # without XXR/142 a Swiss has no number of rounds: take the file's own
            played = built[-1].number
            settings = replace(settings, rounds=played)
            self.warnings.append(
                f"the file does not say its number of rounds (no XXR or 142): "
                f"{played}, the rounds it holds, taken as the number of rounds"
            )
        try:
            tournament = Tournament(
                settings=settings,
                players=tuple(players),
                rounds=built,
                name=name.rest() if name else "",
            )
        except RuleError as error:
            raise InputError(str(error), source=self.source) from None
        points = self._check_points(tournament, points, bool(extras.abnormal))
        findings = Findings(self.lenient, self.warnings)
        check_ranks(ranks, self._player_lines(), findings)
        check_rounds(
            tournament,
            raw,
            self._declaring_line(typed, extras, rounds_declared),
            findings,
            [team.members for team in extras.teams],
        )
        return TrfDocument(
            tournament=tournament,
            headers=headers,
            comments=tuple(self.comments),
            file_points=points,
            file_ranks=ranks,
            initial_colour=initial,
            xxc_flags=tuple(extras.xxc_flags),
            standings_tiebreaks=standings,
            unknown_result_points=unknown_points,
            round_dates=dates,
            byes=tuple(extras.byes),
            accelerations=tuple(extras.accelerations),
            fictitious_points=extras.fictitious,
            prohibited=tuple(extras.prohibited),
            forbidden_pairs=tuple(extras.forbidden),
            absent=tuple(extras.absent),
            abnormal_points=tuple(extras.abnormal),
            teams=tuple(extras.teams),
            national_records=tuple(extras.national),
            other_records=tuple(extras.other),
            warnings=tuple(self.warnings),
        )

    def _check_points(
        self, tournament: Tournament, written: dict[int, Fraction], abnormal: bool
    ) -> dict[int, Fraction]:
        """The points column (81–84) must equal the score of the games.

        With records 299 (penalties, bonuses) a difference is a warning and the column
        is kept; with ``--lenient`` it is a warning and the column takes the score.
        """
        kept = dict(written)
        lines = {line.integer(5, 8, "starting number"): line for line in self.players}
        system = tournament.settings.point_system.label()
        # a file for pairing round r (ITDX) may carry round r's pre-assigned byes while
        # its points column counts rounds 1…r−1 only (data/README.md, before_round)
        pending = TrfDocument(tournament).pending_round
        scores = scores_of(tournament)
        before = scores_of(tournament, last=-1) if pending else {}
        for start in sorted(written):
            computed = scores[start]
            if computed == written[start] or before.get(start) == written[start]:
                continue
            problem = (
                f"player {start}: the points column (81–84) says "
                f"{format_points(written[start])}, the games give {format_points(computed)} "
                f"(scoring {system})"
            )
            line = lines[start]
            if not (self.lenient or abnormal):
                raise line.error(problem, 81, recoverable=True)
            if abnormal:
                self.warnings.append(f"line {line.number}: {problem}; records 299 may say why")
            else:
                self.warnings.append(f"line {line.number}: {problem}; the games' score is used")
                kept[start] = computed
        return kept

    def _players(
        self,
    ) -> tuple[list[Player], dict[int, Fraction], dict[int, int | None], dict[int, list[RawEntry]]]:
        by_start: dict[int, tuple[Player, Fraction | None, int | None, list[RawEntry]]] = {}
        lines: dict[int, Line] = {}
        for line in self.players:
            player, written, rank = _player(line, self.warnings)
            if player.start in lines:
                raise line.error(
                    f"starting number {player.start} is used twice "
                    f"(also on line {lines[player.start].number})",
                    5,
                )
            lines[player.start] = line
            by_start[player.start] = (
                player,
                written,
                rank,
                _entries(line, player.start, self.warnings),
            )
        starts = sorted(by_start)
        for expected, start in enumerate(starts, start=1):
            if start != expected:
                raise lines[start].error(
                    f"starting numbers must run 1…{len(starts)} without gaps: "
                    f"{expected} is missing",
                    5,
                )
        players = [by_start[s][0] for s in starts]
        points = {s: p for s in starts if (p := by_start[s][1]) is not None}
        ranks = {s: by_start[s][2] for s in starts}
        raw = {s: by_start[s][3] for s in starts}
        for start, entries in raw.items():
            for entry in entries:
                if entry.opponent is not None and entry.opponent > len(starts):
                    raise entry.line.error(
                        f"round {entry.round}: there is no player {entry.opponent} "
                        f"(the file has {len(starts)})",
                        entry.column,
                    )
                if entry.opponent == start:
                    raise entry.line.error(
                        f"round {entry.round}: player {start} cannot meet themself", entry.column
                    )
        return players, points, ranks, raw

    def _player_lines(self) -> dict[int, Line]:
        return {line.integer(5, 8, "starting number") or 0: line for line in self.players}

    @staticmethod
    def _declaring_line(
        typed: dict[str, list[Line]], extras: ExtraRecords, rounds: int | None
    ) -> tuple[Line, int] | None:
        """The line that declares the number of rounds (XXR, else 142), with the number."""
        if rounds is None:
            return None
        if extras.rounds is not None:
            return extras.rounds[0], rounds
        line = _single(typed, "142")
        return None if line is None else (line, rounds)

    def _declared_rounds(self, typed: dict[str, list[Line]], extras: ExtraRecords) -> int | None:
        line = _single(typed, "142")
        value = None if line is None else line.integer(5, 12, "number of rounds")
        if value is not None and value > MAX_ROUNDS and line is not None:
            raise line.error(f"142: {value} rounds: at most {MAX_ROUNDS}", 5)
        if extras.rounds is not None:
            xxr_line, xxr = extras.rounds
            if value is not None and value != xxr:
                raise xxr_line.error(f"XXR says {xxr} rounds but 142 says {value}", 5)
            value = xxr
        if value == 0:
            bad = line if line is not None else extras.rounds_line()
            raise bad.error("the number of rounds must be 1 or more", 5)
        return value

    def _initial_colour(self, typed: dict[str, list[Line]], extras: ExtraRecords) -> Colour | None:
        line = _single(typed, "152")
        colour = None
        if line is not None:
            text = line.rest().upper()
            if text not in ("W", "B"):
                raise line.error(f"initial colour {line.rest()!r}: use W or B", 5)
            colour = Colour.WHITE if text == "W" else Colour.BLACK
        if extras.initial is not None:
            xxc_line, xxc = extras.initial
            if colour is not None and colour is not xxc:
                raise xxc_line.error("XXC and record 152 name different initial colours", 5)
            colour = xxc
        return colour

    def _point_system(
        self, typed: dict[str, list[Line]], extras: ExtraRecords
    ) -> tuple[PointSystem, Fraction | None]:
        lines_162 = typed.get("162", [])
        given: dict[str, Fraction] = {}
        for line in lines_162:
            given.update(_read_162(line))
        unknown = given.pop("X", None)
        try:
            system = point_system_from_162(given) if given else PointSystem()
        except RuleError as error:
            raise lines_162[0].error(f"162: {error}", 5) from None
        if extras.xxs_line is not None:
            try:
                from_xxs = point_system_from_xxs(xxs_values(extras.xxs))
            except RuleError as error:
                raise extras.xxs_line.error(str(error), 5) from None
            implied = values_162(from_xxs)
            clash = [symbol for symbol, value in given.items() if implied[symbol] != value]
            if clash:
                raise lines_162[0].error(
                    f"record 162 and XXS give different points for {', '.join(clash)}", 5
                )
            system = from_xxs
        return system, unknown


def scores_of(tournament: Tournament, last: int | None = None) -> dict[int, Fraction]:
    """Every player's :meth:`Tournament.score` in one pass over the rounds (``last``: a
    slice end, ``-1`` leaves the last round out); ``score`` per player is O(rounds ×
    games) each, too slow for 1 000 players."""
    system = tournament.settings.point_system
    worth = {outcome: outcome.points(system) for outcome in Outcome}
    absent = worth[Outcome.ZERO_BYE]
    totals = {p.start: Fraction(0) for p in tournament.players}
    for rnd in tournament.rounds[:last]:
        seen: set[int] = set()
        for game in rnd.games:
            for start in (game.white, game.black):
                totals[start] += worth[game.outcome_of(start)]
                seen.add(start)
        for bye in rnd.byes:
            if bye.kind is ByeKind.FREE:
                totals[bye.player] += tournament.settings.free_round_points
            totals[bye.player] += worth[bye.kind.outcome]
            seen.add(bye.player)
        for start in totals.keys() - seen:
            totals[start] += absent
    return totals


def _single(typed: dict[str, list[Line]], tag: str) -> Line | None:
    lines = typed.get(tag, [])
    if len(lines) > 1:
        raise lines[1].error(f"tag {tag} is given twice (first on line {lines[0].number})", 1)
    return lines[0] if lines else None


def _player(line: Line, warnings: list[str]) -> tuple[Player, Fraction | None, int | None]:
    start = line.integer(5, 8, "starting number", blank_ok=False)
    assert start is not None
    if start < 1:
        raise line.error("starting number 0: numbers start at 1", 5)
    sex = sex_from_text(line.char(10))
    if sex is None:
        # sex plays no part in pairing or tie-breaks: never refuse a file for it
        warnings.append(
            f"line {line.number}: sex {line.char(10)!r} in column 10 is not m, w (f) or blank: "
            "read as not given"
        )
        sex = ""
    for column in (90, 91):
        if line.char(column) != " ":
            raise line.error(
                f"unexpected {line.char(column)!r} in column {column}: round 1 starts at column 92",
                column,
            )
    player = Player(
        start=start,
        name=line.field(15, 47).strip(),
        rating=line.integer(49, 52, "rating"),
        title=title_from_text(line.field(11, 13)),
        federation=_federation(line, warnings),
        fide_id=line.field(58, 68).strip(),
        birth_date=_birth_date(line, warnings),
        sex=sex,
    )
    return player, line.points(81, 84, "points"), line.integer(86, 89, "rank")


def _federation(line: Line, warnings: list[str]) -> str:
    """Columns 54–56, kept as written; anything but FIDE's three capital letters (or
    blank) is reported, as it plays no part in pairing or tie-breaks."""
    text = line.field(54, 56).strip()
    if text and not _FEDERATION.match(text):
        warnings.append(
            f"line {line.number}: federation {text!r} in columns 54–56 is not a FIDE code "
            "(three capital letters): kept as written"
        )
    return text


def _birth_date(line: Line, warnings: list[str]) -> str:
    """Columns 70–79, kept as written; anything but ``YYYY/MM/DD`` (or the year alone,
    ``YYYY``, ``YYYY/00/00``, or an empty ``    /  /  ``) is reported."""
    text = line.field(70, 79).strip()
    if not any(char.isdigit() for char in text) and not text.strip("./- "):
        return text
    match = _BIRTH.match(text)
    valid = match is not None
    if match is not None:
        year, month, day = (int(part) if part and part.strip() else 0 for part in match.groups())
        if month or day:
            try:
                dt.date(year, month or 1, day or 1)
            except ValueError:
                valid = False
    if not valid:
        warnings.append(
            f"line {line.number}: birth date {text!r} in columns 70–79 is not a date "
            "(YYYY/MM/DD): kept as written"
        )
    return text


def _entries(line: Line, start: int, warnings: list[str]) -> list[RawEntry]:
    """The round blocks of a ``001`` line (a wholly blank block gives no entry)."""
    text = line.text.rstrip()
    count = max(0, (len(text) - 82) // 10)  # a block starts at 92, 102, …
    padded = text.ljust(91 + 10 * count)
    entries: list[RawEntry] = []
    for index in range(count):
        base = 91 + 10 * index  # 0-based start of round index + 1
        block = padded[base : base + 10].ljust(10)
        column = base + 1
        if block[4] != " " or block[6] != " " or block[8] != " " or block[9] != " ":
            gap = next(column + i for i in (4, 6, 8, 9) if block[i] != " ")
            raise line.error(
                f"round {index + 1}: unexpected {block[gap - column]!r} in column {gap} "
                f"(the round's entry is columns {column}–{column + 7}: "
                "opponent, blank, colour, blank, result)",
                gap,
            )
        entry = RawEntry.parse(line, start, index + 1, column, block, warnings)
        if entry is not None:
            entries.append(entry)
    return entries


def _read_162(line: Line) -> dict[str, Fraction]:
    values: dict[str, Fraction] = {}
    words = rec.tokens(line, 5)
    index = 0
    while index < len(words):
        text, column = words[index]
        symbol, glued = text[:1].upper(), text[1:]
        if symbol not in SCORE_162_SYMBOLS:
            raise line.error(f"162: result symbol {text[:1]!r}: use W D L A P X", column)
        if glued:
            amount, amount_column = glued, column + 1
        elif index + 1 < len(words):
            index += 1
            amount, amount_column = words[index]
        else:
            raise line.error(f"162: no points after {symbol}", column)
        values[symbol] = parse_points(amount, error_at(line, "162", amount_column))
        try:
            format_fixed(values[symbol], 4)  # how the writer gives it back
        except ValueError as error:
            raise line.error(f"162: {symbol} {amount}: {error}", amount_column) from None
        index += 1
    return values


def _tiebreaks(typed: dict[str, list[Line]]) -> tuple[tuple[str, ...], tuple[str, ...] | None]:
    line_202, line_212 = _single(typed, "202"), _single(typed, "212")
    codes_202 = _codes(line_202.rest()) if line_202 else None
    codes_212 = _codes(line_212.rest()) if line_212 else None
    if codes_202 is not None:
        if codes_212 is not None and codes_212 != ("PTS", *codes_202):
            return codes_202, codes_212
        return codes_202, None
    if codes_212 is not None:
        if codes_212[:1] == ("PTS",):
            return codes_212[1:], None
        return (), codes_212
    return (), None


def _codes(text: str) -> tuple[str, ...]:
    return tuple(code for code in re.split(r"[,;\s]+", text.strip()) if code)


_DATE = re.compile(r"^(\d{2}|\d{4})[/.-](\d{1,2})[/.-](\d{1,2})$", re.ASCII)


def _round_dates(lines: list[Line]) -> dict[int, dt.date]:
    dates: dict[int, dt.date] = {}
    for line in lines:
        round_number = 0
        while 92 + 10 * round_number <= len(line.text.rstrip()):
            round_number += 1
            column = 92 + 10 * (round_number - 1)
            text = line.field(column, column + 9).strip()
            if not text:
                continue
            match = _DATE.match(text)
            try:
                if match is None:
                    raise ValueError
                year = int(match.group(1))
                if len(match.group(1)) == 2:
                    year += 2000 if year < 70 else 1900
                dates[round_number] = dt.date(year, int(match.group(2)), int(match.group(3)))
            except ValueError:
                raise line.error(
                    f"132: round {round_number} date {text!r}: write YY/MM/DD", column
                ) from None
    return dates


__all__ = ["TYPED_TAGS", "parse_trf"]
