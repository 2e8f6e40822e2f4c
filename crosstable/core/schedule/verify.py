"""Verify any round-robin schedule, generated or entered by hand.

:func:`verify_schedule` cuts the rounds into cycles of ``N - 1`` rounds (even
field) or ``N`` rounds (odd field) and checks, listing every problem it finds:

* every board holds two different starting numbers 1…N, and nobody appears twice
  in a round (on a board or as the bye); an even field has no bye, an odd field
  exactly one player without a game each round;
* each cycle holds every pair exactly once: ``N(N-1)/2`` games;
* nobody gets one colour three times running (free rounds are skipped: a run is
  counted over the games a player actually plays, across cycle junctions too);
* nobody ends a cycle, or the whole schedule, more than one colour ahead.

The report also gives each player's Whites and Blacks, the players whose colours
alternate within every cycle, and whether the highest number is one of them
(in a FIDE Berger table it is: RULES.md §1.2).

>>> from crosstable.core.schedule.cycles import berger_schedule
>>> report = verify_schedule(berger_schedule(6))
>>> report.ok, report.games, report.highest_alternates
(True, 15, True)
>>> [(c.player, c.whites, c.blacks) for c in report.colours][:2]
[(1, 3, 2), (2, 3, 2)]
>>> bad = verify_schedule(berger_schedule(6, cycles=2, swap_last_rounds=False))
>>> [p.message for p in bad.problems][0]
'player 1 has Black 3 times running, rounds 5–7 (across cycles 1 and 2)'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from crosstable.core.errors import ScheduleError
from crosstable.core.model import Colour
from crosstable.core.schedule.types import Schedule, ScheduledRound

__all__ = [
    "ColourCount",
    "ColourRun",
    "Problem",
    "ScheduleReport",
    "verify_schedule",
]

LIMIT_PER_KIND = 25
"""At most this many problems of one kind are listed; a last entry counts the rest."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a schedule, in words for the arbiter.

    ``kind`` is one of ``player-number``, ``twice-in-round``, ``missing``, ``bye``,
    ``rounds``, ``pair-repeated``, ``pair-missing``, ``colour-run``,
    ``colour-balance``, ``not-alternating``, ``more``.
    """

    kind: str
    message: str
    round: int | None = None
    players: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class ColourCount:
    """A player's Whites, Blacks and free rounds over the whole schedule."""

    player: int
    whites: int
    blacks: int
    byes: int

    @property
    def balance(self) -> int:
        """Whites minus Blacks."""
        return self.whites - self.blacks


@dataclass(frozen=True, slots=True)
class ColourRun:
    """``length`` games in a row with one ``colour`` (3 or more), rounds ``first``…``last``."""

    player: int
    colour: Colour
    first: int
    last: int
    length: int
    cycles: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ScheduleReport:
    """What :func:`verify_schedule` found. ``ok`` when ``problems`` is empty."""

    players: int
    rounds: int
    rounds_per_cycle: int
    cycles: int
    games: int
    problems: tuple[Problem, ...]
    colours: tuple[ColourCount, ...]
    runs: tuple[ColourRun, ...]
    alternating: tuple[int, ...]

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def highest_alternates(self) -> bool:
        """The highest starting number alternates colours within every cycle."""
        return self.players in self.alternating

    def to_json(self) -> dict[str, object]:
        """Plain values for ``crosstable schedule verify --format json``."""
        return {
            "players": self.players,
            "rounds": self.rounds,
            "rounds_per_cycle": self.rounds_per_cycle,
            "cycles": self.cycles,
            "games": self.games,
            "ok": self.ok,
            "problems": [
                {"kind": p.kind, "message": p.message, "round": p.round, "players": list(p.players)}
                for p in self.problems
            ],
            "colours": [
                {"player": c.player, "whites": c.whites, "blacks": c.blacks, "byes": c.byes}
                for c in self.colours
            ],
            "highest_alternates": self.highest_alternates,
            "alternating": list(self.alternating),
        }


class _Problems:
    """Collects problems, listing at most :data:`LIMIT_PER_KIND` of each kind."""

    def __init__(self) -> None:
        self.listed: list[Problem] = []
        self.counts: Counter[str] = Counter()

    def add(self, kind: str, message: str, number: int | None = None, *who: int) -> None:
        self.counts[kind] += 1
        if self.counts[kind] <= LIMIT_PER_KIND:
            self.listed.append(Problem(kind, message, number, who))

    def result(self) -> tuple[Problem, ...]:
        extra = [
            Problem("more", f"… and {count - LIMIT_PER_KIND} more problems of kind {kind}")
            for kind, count in self.counts.items()
            if count > LIMIT_PER_KIND
        ]
        return (*self.listed, *extra)


_NAMES = {Colour.WHITE: "White", Colour.BLACK: "Black"}


def _check_round(
    players: int, position: int, round_: ScheduledRound, problems: _Problems
) -> tuple[list[tuple[int, int]], int | None]:
    """Structural checks of one round; returns its valid boards and who has the bye."""
    seen: Counter[int] = Counter()
    valid: list[tuple[int, int]] = []
    for board, (white, black) in enumerate(round_.boards, start=1):
        good = True
        for who in (white, black):
            if isinstance(who, bool) or not isinstance(who, int) or not 1 <= who <= players:
                problems.add(
                    "player-number",
                    f"round {position}, board {board}: "
                    f"{who!r} is not a starting number 1…{players}",
                    position,
                )
                good = False
        if good and white == black:
            problems.add(
                "twice-in-round",
                f"round {position}, board {board}: player {white} plays against themselves",
                position,
                white,
            )
            good = False
        if good:
            seen[white] += 1
            seen[black] += 1
            valid.append((white, black))
    bye = round_.bye
    free: int | None = None
    if bye is not None:
        if isinstance(bye, bool) or not isinstance(bye, int) or not 1 <= bye <= players:
            problems.add(
                "player-number",
                f"round {position}: the bye {bye!r} is not a starting number 1…{players}",
                position,
            )
        elif players % 2 == 0:
            problems.add(
                "bye", f"round {position}: an even field has no bye, yet {bye} has one", position
            )
        else:
            seen[bye] += 1
            free = bye
    for who, count in seen.items():
        if count > 1:
            problems.add(
                "twice-in-round",
                f"round {position}: player {who} appears {count} times",
                position,
                who,
            )
    absent = [who for who in range(1, players + 1) if who not in seen]
    if players % 2 == 1 and bye is None and len(absent) == 1:
        free, absent = absent[0], []  # the one player without a game has the bye
    for who in absent:
        message = f"round {position}: player {who} has neither a game nor the bye"
        problems.add("missing", message, position, who)
    return valid, free


def _check_pairs(
    players: int,
    cycle: int,
    rounds: Sequence[tuple[int, list[tuple[int, int]]]],
    problems: _Problems,
) -> int:
    width = players + 1
    where: dict[int, list[int]] = {}
    games = 0
    for number, boards in rounds:
        for white, black in boards:
            key = white * width + black if white < black else black * width + white
            where.setdefault(key, []).append(number)
            games += 1
    expected = players * (players - 1) // 2
    for key, numbers in where.items():
        if len(numbers) > 1:
            low, high = divmod(key, width)
            listed = ", ".join(map(str, numbers))
            problems.add(
                "pair-repeated",
                f"cycle {cycle}: {low} and {high} meet {len(numbers)} times (rounds {listed})",
                numbers[0],
                low,
                high,
            )
    if len(where) < expected:
        for low in range(1, players):
            for high in range(low + 1, players + 1):
                if low * width + high not in where:
                    message = f"cycle {cycle}: {low} and {high} never meet"
                    problems.add("pair-missing", message, None, low, high)
    if games != expected:
        problems.add(
            "rounds",
            f"cycle {cycle} has {games} games; a round robin of {players} needs {expected}",
        )
    return games


_WHITE, _BLACK, _NO_GAME = ord("W"), ord("B"), ord(".")
_RUN = re.compile(rb"W{3,}|B{3,}")


def _fast_round(players: int, round_: ScheduledRound) -> tuple[list[tuple[int, int]], int | None]:
    """The boards and the bye of a well-formed round; ValueError sends it to the slow checks."""
    boards = list(round_.boards)
    flat = [who for board in boards for who in board]
    bye = round_.bye
    if len(flat) != 2 * len(boards) or not set(map(type, flat)) <= {int}:
        raise ValueError
    if flat and (min(flat) < 1 or max(flat) > players):
        raise ValueError
    if players % 2 == 0:
        if bye is not None or len(flat) != players:
            raise ValueError
    else:
        if len(flat) != players - 1:
            raise ValueError
        free = set(range(1, players + 1)).difference(flat)
        if len(free) != 1 or (bye is not None and {bye} != free):
            raise ValueError
        bye = free.pop()
    if len(set(flat)) != len(flat):
        raise ValueError
    return boards, bye


def _runs(players: int, rows: list[bytearray], cycle_of: Sequence[int]) -> list[ColourRun]:
    runs: list[ColourRun] = []
    for player in range(1, players + 1):
        row = rows[player]
        played = bytes(row).replace(b".", b"")
        if b"WWW" not in played and b"BBB" not in played:
            continue
        numbers = [i + 1 for i, code in enumerate(row) if code != _NO_GAME]
        for match in _RUN.finditer(played):
            first, last = numbers[match.start()], numbers[match.end() - 1]
            colour = Colour.WHITE if played[match.start()] == _WHITE else Colour.BLACK
            cycles = tuple(sorted({cycle_of[first], cycle_of[last]}))
            runs.append(ColourRun(player, colour, first, last, len(match.group()), cycles))
    return runs


def verify_schedule(schedule: Schedule, *, pivot: int | None = None) -> ScheduleReport:
    """Check ``schedule`` (any number of cycles) and report everything found.

    ``pivot``, when given, must alternate colours within every cycle (the highest
    number of a Berger table, player 1 of the circle method).
    """
    players = schedule.players
    if isinstance(players, bool) or not isinstance(players, int) or players < 2:
        raise ScheduleError(
            "a schedule needs 2 players or more, not {players}", players=repr(players)
        )
    per_cycle = players - 1 if players % 2 == 0 else players
    problems = _Problems()
    total = len(schedule.rounds)
    if total == 0 or total % per_cycle:
        problems.add(
            "rounds",
            f"{total} rounds is not a whole number of cycles: "
            f"{players} players play {per_cycle} rounds a cycle",
        )
    cycles = max(1, -(-total // per_cycle))
    cycle_of = [0] + [(i - 1) // per_cycle + 1 for i in range(1, total + 1)]
    rows = [bytearray(b".") * total for _ in range(players + 1)]
    byes = [0] * (players + 1)
    checked: list[tuple[int, list[tuple[int, int]]]] = []
    for index, round_ in enumerate(schedule.rounds):
        position = index + 1
        try:
            boards, free = _fast_round(players, round_)
        except (ValueError, TypeError):
            boards, free = _check_round(players, position, round_, problems)
        checked.append((position, boards))
        for white, black in boards:
            rows[white][index] = _WHITE
            rows[black][index] = _BLACK
        if free is not None:
            byes[free] += 1
    games = 0
    width = players + 1
    for cycle in range(1, cycles + 1):
        part = checked[(cycle - 1) * per_cycle : cycle * per_cycle]
        keys: set[int] = set()
        count = 0
        for _, boards in part:
            keys.update([w * width + b if w < b else b * width + w for w, b in boards])
            count += len(boards)
        if count == len(keys) == players * (players - 1) // 2:
            games += count
        else:
            games += _check_pairs(players, cycle, part, problems)
    runs = _runs(players, rows, cycle_of)
    for run in runs:
        across = (
            f" (across cycles {run.cycles[0]} and {run.cycles[-1]})" if len(run.cycles) > 1 else ""
        )
        problems.add(
            "colour-run",
            f"player {run.player} has {_NAMES[run.colour]} {run.length} times running, "
            f"rounds {run.first}–{run.last}{across}",
            run.first,
            run.player,
        )
    colours, alternating = _colour_report(players, rows, byes, per_cycle, cycles, problems)
    if pivot is not None and pivot not in alternating:
        problems.add(
            "not-alternating",
            f"player {pivot} does not alternate colours within every cycle",
            None,
            pivot,
        )
    return ScheduleReport(
        players=players,
        rounds=total,
        rounds_per_cycle=per_cycle,
        cycles=cycles,
        games=games,
        problems=problems.result(),
        colours=tuple(colours),
        runs=tuple(runs),
        alternating=tuple(alternating),
    )


def _colour_report(
    players: int,
    rows: list[bytearray],
    byes: list[int],
    per_cycle: int,
    cycles: int,
    problems: _Problems,
) -> tuple[list[ColourCount], list[int]]:
    colours: list[ColourCount] = []
    alternating: list[int] = []
    for player in range(1, players + 1):
        row = bytes(rows[player])
        whites, blacks = row.count(b"W"), row.count(b"B")
        colours.append(ColourCount(player, whites, blacks, byes[player]))
        alternates = True
        for cycle in range(1, cycles + 1):
            part = row[(cycle - 1) * per_cycle : cycle * per_cycle].replace(b".", b"")
            if b"WW" in part or b"BB" in part:
                alternates = False
            balance = part.count(b"W") - part.count(b"B")
            if abs(balance) > 1:
                more, fewer = ("Whites", "Blacks") if balance > 0 else ("Blacks", "Whites")
                problems.add(
                    "colour-balance",
                    f"player {player} has {abs(balance)} more {more} than {fewer} in cycle {cycle}",
                    None,
                    player,
                )
        if alternates:
            alternating.append(player)
        if cycles > 1 and abs(whites - blacks) > 1:
            problems.add(
                "colour-balance",
                f"player {player} has {whites} Whites and {blacks} Blacks over the schedule",
                None,
                player,
            )
    return colours, alternating
