"""From the per-player round entries of ``001`` lines to core games and byes.

Each game is written twice in a TRF, once on each player's line; the two
entries must agree (opponents point at each other, opposite colours, results
that mirror). TRF carries no board numbers: in a round robin whose round is a
round of the FIDE Berger table for its field, the games take that table's board
order (board 1 first); otherwise they are numbered in the order of White's
starting number.
"""

from __future__ import annotations

import datetime as dt
import math
from collections import Counter
from dataclasses import dataclass

from crosstable.core.errors import RuleError
from crosstable.core.model import (
    Bye,
    ByeKind,
    Colour,
    Game,
    GameResult,
    Outcome,
    Round,
    Settings,
    System,
)
from crosstable.core.schedule.berger import berger_round
from crosstable.core.scoring import PointSystem
from crosstable.formats.limits import is_number_text
from crosstable.formats.trf_codes import system_from_text
from crosstable.formats.trf_text import Line, number_problem

_COLOURS = {
    "w": Colour.WHITE,
    "W": Colour.WHITE,
    "b": Colour.BLACK,
    "B": Colour.BLACK,
    "-": Colour.NONE,
    " ": Colour.NONE,
}
_RESULT_CODES = {
    **{outcome.value: outcome for outcome in Outcome},
    **{outcome.value.lower(): outcome for outcome in Outcome},
    "?": Outcome.UNKNOWN,  # TRF-2026: an adjourned game, or a result not known yet
}
_BYES = {
    Outcome.HALF_BYE: ByeKind.HALF,
    Outcome.FULL_BYE: ByeKind.FULL,
    Outcome.PAIRING_BYE: ByeKind.PAIRING,
    Outcome.ZERO_BYE: ByeKind.ZERO,
}
_GROUPS = (
    frozenset({Outcome.WIN, Outcome.DRAW, Outcome.LOSS}),
    frozenset({Outcome.SHORT_WIN, Outcome.SHORT_DRAW, Outcome.SHORT_LOSS}),
    frozenset({Outcome.UNKNOWN}),
)
# twice the points on the 1-½-0 scale, to test that a game gives at most one point
_DOUBLED = {outcome: int(2 * outcome.points(PointSystem())) for outcome in Outcome}


@dataclass(frozen=True, slots=True)
class RawEntry:
    """One round of one ``001`` line: ``OOOO C R`` starting at ``column``."""

    line: Line
    player: int
    round: int
    column: int
    opponent: int | None  # None: 0000 or blank
    colour: Colour
    outcome: Outcome

    @classmethod
    def parse(
        cls,
        line: Line,
        player: int,
        round_number: int,
        column: int,
        block: str,
        warnings: list[str],
    ) -> RawEntry | None:
        """The entry in ``block`` (columns ``column…column+7``), or None when all blank."""
        opponent_field, colour_char, result_char = block[:4], block[5], block[7]
        text = opponent_field.strip()
        if not text and colour_char == " " and result_char == " ":
            return None
        if text and not is_number_text(text):
            offset = len(opponent_field) - len(opponent_field.lstrip())
            raise line.error(
                f"round {round_number}: opponent {number_problem(text)}", column + offset
            )
        colour = _COLOURS.get(colour_char)
        if colour is None:
            raise line.error(
                f"round {round_number}: colour {colour_char!r}: use w, b or -", column + 5
            )
        outcome = _RESULT_CODES.get(result_char)
        if outcome is None:
            if not text:
                raise line.error(
                    f"round {round_number}: result {result_char!r} is not a TRF result code "
                    "(1 = 0 + - W D L H F U Z ? or blank)",
                    column + 7,
                )
            # a symbol of a later edition or another program: an unknown result, said
            warnings.append(
                f"line {line.number}: round {round_number}: result {result_char!r} in column "
                f"{column + 7} is not a TRF result code: read as a result not known yet (?)"
            )
            outcome = Outcome.UNKNOWN
        return cls(line, player, round_number, column, int(text or 0) or None, colour, outcome)

    def fail(self, message: str, offset: int = 0, *, recoverable: bool = False) -> Exception:
        return self.line.error(
            f"round {self.round}: {message}", self.column + offset, recoverable=recoverable
        )


def infer_settings(
    headers: dict[str, str],
    raw: dict[int, list[RawEntry]],
    size: int,
    rounds: int | None,
    point_system: PointSystem,
    tiebreaks: tuple[str, ...],
    warnings: list[str],
) -> Settings:
    """System from 192, then 092; else from the games: everybody met everybody
    equally often → round robin, otherwise Swiss. Cycles of a round robin: the
    most of (the text's cycles, rounds ÷ rounds per cycle, meetings of a pair)."""
    found = None
    for tag in ("192", "092"):
        text = headers.get(tag, "")
        if text.strip():
            found = system_from_text(text)
            if found is not None:
                break
    meetings = _meetings(raw)
    if found is None:
        system = system_from_meetings(meetings, size)
        text_cycles = None
        warnings.append(
            f"the tournament type (092/192) names no system: read as {system.value} "
            "from the games (round robin when everybody met everybody equally often)"
        )
    else:
        system, text_cycles = found
    cycles = 1
    if system is System.ROUND_ROBIN and size >= 2:
        per_cycle = size - 1 if size % 2 == 0 else size
        played = max((e.round for entries in raw.values() for e in entries), default=0)
        total = max(played, rounds or 0)
        cycles = max(
            text_cycles or 1, math.ceil(total / per_cycle), max(meetings.values(), default=1)
        )
    return Settings(
        system=system, cycles=cycles, point_system=point_system, tiebreaks=tiebreaks, rounds=rounds
    )


def system_from_meetings(meetings: Counter[tuple[int, int]], size: int) -> System:
    """Round robin when every pair of the ``size`` players met, all equally often."""
    everyone = size >= 2 and len(meetings) == size * (size - 1) // 2
    equal = len(set(meetings.values())) == 1
    return System.ROUND_ROBIN if everyone and equal else System.SWISS_DUTCH


def _meetings(raw: dict[int, list[RawEntry]]) -> Counter[tuple[int, int]]:
    meetings: Counter[tuple[int, int]] = Counter()
    for start, entries in raw.items():
        for entry in entries:
            if entry.opponent is not None and start < entry.opponent:
                meetings[(start, entry.opponent)] += 1
    return meetings


def build_rounds(
    raw: dict[int, list[RawEntry]],
    size: int,
    settings: Settings,
    dates: dict[int, dt.date],
    warnings: list[str],
    lenient: bool = False,
    decided: frozenset[tuple[int, int, int]] = frozenset(),
) -> tuple[Round, ...]:
    """The rounds 1…(the last one any line has); ``lenient`` turns the recoverable
    contradictions between the two entries of a game into warnings; a game in
    ``decided`` (round, White, Black: an arbiter's ½-0, 0-½, 0-0) is read as written."""
    by_round: dict[int, dict[int, RawEntry]] = {}
    for start, entries in raw.items():
        for entry in entries:
            by_round.setdefault(entry.round, {})[start] = entry
    rounds: list[Round] = []
    berger = settings.system is System.ROUND_ROBIN and size >= 3
    free_zero = settings.system.has_predetermined_pairings and size % 2 == 1
    for number in range(1, max(by_round, default=0) + 1):
        table = by_round.get(number, {})
        pairs: list[tuple[int, int, GameResult | None]] = []
        byes: list[Bye] = []
        for start in sorted(table):
            entry = table[start]
            if entry.opponent is None:
                kind = _bye_kind(entry, settings, warnings)
                if kind is ByeKind.ZERO and free_zero and settings.free_round_points == 0:
                    # an odd round robin's free round as the format writes it: Z, zero points
                    kind = ByeKind.FREE
                byes.append(Bye(number, start, kind))
                continue
            other = table.get(entry.opponent)
            elsewhere = None if other is None else other.opponent
            third = None
            if elsewhere is not None and elsewhere != start:
                third = table.get(elsewhere)
            if other is not None and third is not None and third.opponent == entry.opponent:
                raise entry.fail(
                    f"player {entry.opponent} would be paired twice: with player {start} here "
                    f"and with player {other.opponent} (line {third.line.number}), whose "
                    f"entries point at each other"
                )
            if other is None or other.opponent != start:
                said = (
                    "has no entry"
                    if other is None
                    else f"names {'no opponent' if other.opponent is None else other.opponent}"
                )
                raise entry.fail(
                    f"player {start} is listed against player {entry.opponent}, but player "
                    f"{entry.opponent}'s round {number} entry "
                    f"{'' if other is None else f'(line {other.line.number}) '}{said}"
                )
            if entry.opponent > start:
                pairs.append(_game(entry, other, warnings, lenient, decided))
        pairs.sort()
        if berger:
            _in_berger_order(pairs, size)
        games = tuple(
            Game(number, board, white, black, result)
            for board, (white, black, result) in enumerate(pairs, start=1)
        )
        date = dates.get(number)
        rounds.append(Round(number, games, tuple(byes), date))
    return tuple(rounds)


def _berger_round_of(size: int, first: int, second: int) -> int:
    """The round of the Berger table for ``size`` (≥ 3) in which two players meet, in O(1).

    With ``n`` the table's even size and ``m = n − 1``: players ``i, j < n`` meet in
    the round ``r`` with ``i + j ≡ r + 1 (mod m)``, player ``x`` meets ``n`` in the
    round with ``2x ≡ r + 1`` (crosstable.core.schedule.berger).

    >>> [_berger_round_of(6, 1, 6), _berger_round_of(6, 2, 1), _berger_round_of(6, 3, 6)]
    [1, 2, 5]
    """
    n = size + (size & 1)
    m = n - 1
    low, high = min(first, second), max(first, second)
    partner = low if high == n else high
    return (low + partner - 2) % m + 1


def _in_berger_order(pairs: list[tuple[int, int, GameResult | None]], size: int) -> None:
    """Sort a round's games by the Berger table's boards when they are one of its rounds.

    Only the one round of the table the games could be is built (O(players)), never the
    whole table: a ``092 Round-Robin`` header over 9 999 players costs no more than its
    games.
    """
    if not pairs:
        return
    numbers = {_berger_round_of(size, white, black) for white, black, _ in pairs}
    if len(numbers) != 1:
        return
    scheduled = berger_round(size, numbers.pop())
    boards = {frozenset(pair): board for board, pair in enumerate(scheduled.boards)}
    places = [boards.get(frozenset((white, black))) for white, black, _ in pairs]
    if None in places:
        return
    order = sorted(range(len(pairs)), key=lambda i: places[i] or 0)
    pairs[:] = [pairs[i] for i in order]


def _bye_kind(entry: RawEntry, settings: Settings, warnings: list[str]) -> ByeKind:
    outcome = entry.outcome
    if entry.colour is not Colour.NONE:
        warnings.append(
            f"line {entry.line.number}: round {entry.round}: colour "
            f"{entry.colour.value} without an opponent ignored"
        )
    if outcome in _BYES:
        return _BYES[outcome]
    if outcome is Outcome.PENDING:
        if settings.system.has_predetermined_pairings:
            return ByeKind.FREE
        return ByeKind.ZERO
    if outcome is Outcome.FORFEIT_WIN:
        warnings.append(
            f"line {entry.line.number}: round {entry.round}: forfeit win without an opponent "
            "read as a full-point bye (F)"
        )
        return ByeKind.FULL
    if outcome is Outcome.FORFEIT_LOSS:
        warnings.append(
            f"line {entry.line.number}: round {entry.round}: forfeit loss without an opponent "
            "read as a zero-point bye (Z)"
        )
        return ByeKind.ZERO
    raise entry.fail(f"result {outcome.value!r} needs an opponent (0000 means none)", 7)


def _game(
    first: RawEntry,
    second: RawEntry,
    warnings: list[str],
    lenient: bool = False,
    decided: frozenset[tuple[int, int, int]] = frozenset(),
) -> tuple[int, int, GameResult | None]:
    for entry in (first, second):
        if entry.outcome.is_bye:
            raise entry.fail(
                f"a bye ({entry.outcome.value}) cannot have an opponent ({entry.opponent})", 7
            )
    white, black = _colours(first, second, warnings)
    said = (
        f"player {first.player} has {first.outcome.value!r}, "
        f"player {second.player} has {second.outcome.value!r} (line {second.line.number})"
    )
    try:
        result = _result(white.outcome, black.outcome)
    except (RuleError, ValueError) as error:
        raise first.fail(f"results do not match: {said}: {error}", 7) from None
    short = _short_of_a_game(result)
    if short and (first.round, white.player, black.player) not in decided:
        if not lenient:
            raise first.fail(f"results contradict each other: {said}: {short}", 7, recoverable=True)
        warnings.append(
            f"line {first.line.number}: round {first.round}: {said}: {short}; read as written"
        )
    return white.player, black.player, result


def _short_of_a_game(result: GameResult | None) -> str:
    """Why two entries of a played game do not add up to one game's points, or ``""``.

    ``0 0``, ``= 0``, ``0 =`` (and the same with ``W D L``) give less than a game is
    worth: the two sides contradict each other unless an arbiter decided so, which a
    TRF cannot say. A double forfeit ``- -`` is a result of its own.
    """
    if result is None or result.is_forfeit or Outcome.UNKNOWN in (result.white, result.black):
        return ""
    total = _DOUBLED[result.white] + _DOUBLED[result.black]
    if total == 0:
        return "both players lost"
    if total == 1:
        return "one player drew and the other lost"
    return ""


def _colours(first: RawEntry, second: RawEntry, warnings: list[str]) -> tuple[RawEntry, RawEntry]:
    a, b = first.colour, second.colour
    if a is not Colour.NONE and b is not Colour.NONE:
        if a is b:
            raise first.fail(
                f"players {first.player} and {second.player} both have colour {a.value} "
                f"(line {second.line.number})",
                5,
            )
        return (first, second) if a is Colour.WHITE else (second, first)
    if a is not Colour.NONE or b is not Colour.NONE:
        known, other = (first, second) if a is not Colour.NONE else (second, first)
        warnings.append(
            f"line {other.line.number}: round {other.round}: colour of player {other.player} "
            f"taken from player {known.player}'s entry"
        )
        return (known, other) if known.colour is Colour.WHITE else (other, known)
    if first.outcome.is_forfeit and second.outcome.is_forfeit:
        warnings.append(
            f"line {first.line.number}: round {first.round}: forfeit between players "
            f"{first.player} and {second.player} has no colours: "
            f"the lower starting number ({first.player}) is written as White"
        )
        return first, second
    raise first.fail(
        f"players {first.player} and {second.player} have no colours (w/b): "
        "only a forfeit may be written without them",
        5,
    )


def _result(white: Outcome, black: Outcome) -> GameResult | None:
    if white is Outcome.PENDING and black is Outcome.PENDING:
        return None
    if Outcome.PENDING in (white, black):
        raise ValueError("one side has a result and the other none")
    if white.is_forfeit or black.is_forfeit:
        return GameResult(white, black)
    for group in _GROUPS:
        if white in group and black in group:
            if _DOUBLED[white] + _DOUBLED[black] > 2:
                raise ValueError("together they score more than one game is worth")
            return GameResult(white, black)
    raise ValueError("a normal result, a game of less than one move (W D L) and * do not mix")
