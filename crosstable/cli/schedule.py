"""`crosstable schedule berger|circle|crenshaw|verify` — round-robin schedules.

    crosstable schedule berger 6 --format json
    crosstable schedule berger 8 --double            # cycle 1 with rounds 6 and 7 exchanged
    crosstable schedule berger 8 --cycles 4 --no-swap
    crosstable schedule circle 6
    crosstable schedule crenshaw 8 --format json     # US Chess: Berger's rounds reversed
    crosstable schedule verify my-schedule.txt --players 7

JSON: ``{"players": N, "rounds": [{"round": 1, "boards": [[white, black], …],
"bye": k|null}, …]}``. ``verify`` reads that JSON or the text format of
docs/schedules.md (one round a line, ``1-6 2-5 3-4``); it exits 0 when the
schedule is sound, 1 when it lists problems, 2 when the file cannot be read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from crosstable.cli import counted, schedule_groups, schedule_variants
from crosstable.core.errors import InputError, RuleError
from crosstable.core.schedule import (
    Schedule,
    ScheduledRound,
    ScheduleReport,
    berger_schedule,
    circle_schedule,
    crenshaw_schedule,
    verify_schedule,
)
from crosstable.core.schedule.kinds import ScheduleKind, check_schedule_fits

MAX_PLAYERS = 9999
"""Four-digit starting numbers, as in a TRF file; the engine itself has no limit."""
MAX_CYCLES = 12

schedule_app = typer.Typer(
    name="schedule",
    help="Round-robin schedules: FIDE Berger tables, the circle method, Crenshaw-Berger "
    "tables, checks.",
    no_args_is_help=True,
)


class OutputFormat(StrEnum):
    TABLE = "table"
    JSON = "json"


def register(app: typer.Typer) -> None:
    """Add ``crosstable schedule …`` (with the variant schedules) to ``app``."""
    if any(group.typer_instance is schedule_app for group in app.registered_groups):
        return
    schedule_variants.register(schedule_app)
    schedule_groups.register(schedule_app)
    app.add_typer(schedule_app, name="schedule")


PlayersArgument = Annotated[int, typer.Argument(help="Number of players (3 or more).")]
DoubleOption = Annotated[
    bool, typer.Option("--double", help="Double round robin: a second cycle, colours reversed.")
]
SwapOption = Annotated[
    bool,
    typer.Option(
        "--swap/--no-swap",
        help="Exchange the last two rounds of odd cycles (FIDE's advice; on by default).",
    ),
]
CyclesOption = Annotated[
    int | None, typer.Option("--cycles", help="Number of cycles (1 single, 2 double, …).")
]
FormatOption = Annotated[
    OutputFormat, typer.Option("--format", "-f", help="table (readable) or json.")
]


def _cycles(players: int, double: bool, cycles: int | None) -> int:
    if not 3 <= players <= MAX_PLAYERS:
        raise RuleError(f"a round robin needs 3 to {MAX_PLAYERS} players, not {players}")
    if cycles is None:
        return 2 if double else 1
    if double and cycles != 2:
        raise RuleError(f"--double means 2 cycles, but --cycles {cycles} was given")
    if not 1 <= cycles <= MAX_CYCLES:
        raise RuleError(f"--cycles must be 1 to {MAX_CYCLES}, not {cycles}")
    return cycles


@schedule_app.command("berger")
def berger_command(
    players: PlayersArgument,
    double: DoubleOption = False,
    swap: SwapOption = True,
    cycles: CyclesOption = None,
    output: FormatOption = OutputFormat.TABLE,
) -> None:
    """The FIDE Berger table (C.05 Annex 1); an odd field uses the next even table."""
    count = _cycles(players, double, cycles)
    schedule = berger_schedule(players, count, swap_last_rounds=swap)
    _show(schedule, output, f"Berger table, {players} players")


@schedule_app.command("circle")
def circle_command(
    players: PlayersArgument,
    double: DoubleOption = False,
    swap: SwapOption = True,
    cycles: CyclesOption = None,
    output: FormatOption = OutputFormat.TABLE,
) -> None:
    """The circle method: player 1 stays, the others move one place a round."""
    count = _cycles(players, double, cycles)
    schedule = circle_schedule(players, count, swap_last_rounds=swap)
    _show(schedule, output, f"Circle method, {players} players")


@schedule_app.command("crenshaw")
def crenshaw_command(
    players: PlayersArgument,
    double: DoubleOption = False,
    swap: SwapOption = True,
    cycles: CyclesOption = None,
    output: FormatOption = OutputFormat.TABLE,
) -> None:
    """US Chess's Crenshaw-Berger tables: the quad table for 3-4 players, Berger's rounds
    in the opposite order for 7 or more (5-6 refused: that table is not published)."""
    count = _cycles(players, double, cycles)
    check_schedule_fits(ScheduleKind.CRENSHAW, players)
    schedule = crenshaw_schedule(players, count, swap_last_rounds=swap)
    _show(schedule, output, f"Crenshaw-Berger table, {players} players")


@schedule_app.command("verify")
def verify_command(
    file: Annotated[Path, typer.Argument(help="Schedule as JSON or text (docs/schedules.md).")],
    players: Annotated[
        int | None,
        typer.Option("--players", "-n", help="Field size (default: from the file)."),
    ] = None,
    pivot: Annotated[
        int | None,
        typer.Option("--pivot", help="Require this player to alternate colours in every cycle."),
    ] = None,
    output: FormatOption = OutputFormat.TABLE,
) -> None:
    """Check a schedule: every pair once a cycle, nobody twice a round, colours."""
    text = _read_text(file)
    schedule = read_schedule(text, source=str(file), players=players)
    if pivot is not None and not 1 <= pivot <= schedule.players:
        raise RuleError(f"--pivot {pivot} is not a starting number 1…{schedule.players}")
    report = verify_schedule(schedule, pivot=pivot)
    if output is OutputFormat.JSON:
        typer.echo(json.dumps(report.to_json(), indent=2))
    else:
        _print_report(report, str(file))
    if not report.ok:
        raise typer.Exit(1)


# --- output ------------------------------------------------------------------------------


def _show(schedule: Schedule, output: OutputFormat, title: str) -> None:
    if output is OutputFormat.JSON:
        typer.echo(json.dumps(schedule.to_json(), separators=(", ", ": ")))
        return
    console = Console()
    console.print(schedule_table(schedule, title))
    console.print(schedule_caption(schedule), soft_wrap=True)  # one line, not the table's width


def pairing_list(round_: ScheduledRound) -> str:
    """A round as the seeds print it: ``1 — 6, 2 — 5, 3 — 4`` (White first).

    >>> pairing_list(ScheduledRound(2, ((5, 3), (1, 2)), bye=4))
    '5 — 3, 1 — 2'
    """
    return ", ".join(f"{white} — {black}" for white, black in round_.boards)


def schedule_caption(schedule: Schedule) -> str:
    """What the table shows, in words: ``5 rounds, 15 games; White first, left``."""
    games = sum(len(r.boards) for r in schedule.rounds)
    return f"{counted(len(schedule.rounds), 'round')}, {counted(games, 'game')}; White first, left"


def schedule_table(schedule: Schedule, title: str) -> Table:
    """A Rich table: one row a round, its pairings White first, and the bye."""
    rounds = schedule.rounds
    several = len({r.cycle for r in rounds}) > 1
    table = Table(title=title)
    table.add_column("Round", justify="right")
    if several:
        table.add_column("Cycle", justify="right")
    table.add_column("Pairings")
    if any(r.bye is not None for r in rounds):
        table.add_column("Bye", justify="right")
    for r in rounds:
        cells = [str(r.number), *([str(r.cycle)] if several else []), pairing_list(r)]
        if table.columns[-1].header == "Bye":
            cells.append("" if r.bye is None else str(r.bye))
        table.add_row(*cells)
    return table


def _print_report(report: ScheduleReport, source: str) -> None:
    console = Console()
    verdict = "sound" if report.ok else counted(len(report.problems), "problem")
    console.print(
        f"{source}: {counted(report.players, 'player')}, {counted(report.rounds, 'round')} "
        f"({counted(report.cycles, 'cycle')} of {report.rounds_per_cycle}), "
        f"{counted(report.games, 'game')}: {verdict}"
    )
    for problem in report.problems:
        console.print(f"  - {problem.message}", markup=False)
    alternates = "yes" if report.highest_alternates else "no"
    console.print(f"Highest number ({report.players}) alternates colours: {alternates}")
    table = Table(title="Colours per player")
    for header in ("Player", "White", "Black", "Bye", "Alternates"):
        table.add_column(header, justify="right")
    alternating = set(report.alternating)
    for count in report.colours:
        table.add_row(
            str(count.player),
            str(count.whites),
            str(count.blacks),
            str(count.byes),
            "yes" if count.player in alternating else "no",
        )
    console.print(table)


# --- input -------------------------------------------------------------------------------


def _read_text(file: Path) -> str:
    data = file.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(
            f"not UTF-8 text (byte {error.start + 1})", source=str(file), line=None
        ) from None


def read_schedule(text: str, *, source: str = "<input>", players: int | None = None) -> Schedule:
    """A schedule from JSON (starts with ``{`` or ``[``) or from the text format."""
    if text.lstrip().startswith(("{", "[")):
        return parse_schedule_json(text, source=source, players=players)
    return parse_schedule_text(text, source=source, players=players)


_SEPARATOR = re.compile(r"[\s,;.]+")
_PAIR = re.compile(r"\(?(\d+)\)?\s*[-–—]\s*\(?(\d+)\)?")
_BYE = re.compile(r"(?i:bye)\s*:?\s*\(?(\d+)\)?")
_LABEL = re.compile(r"\s*(?i:round|r)?\s*(\d+)\s*:")
_PLAYERS = re.compile(r"\s*(?i:players)\s*:?\s*(\d+)\s*$")


def parse_schedule_text(
    text: str, *, source: str = "<input>", players: int | None = None
) -> Schedule:
    """One round a line: ``1-6 2-5 3-4`` (White first), optional ``bye 7`` and ``3:`` label.

    ``#`` starts a comment; a ``players: N`` line may come first. With an odd N, a
    pair with the number N + 1 (the table's ghost, as the seeds print ``1 — (8)``)
    gives the other player the bye.

    >>> s = parse_schedule_text("players: 3\\n1-4 2-3\\n4-3 1-2\\n2-4 3-1\\n")
    >>> [(r.boards, r.bye) for r in s.rounds]
    [(((2, 3),), 1), (((1, 2),), 3), (((3, 1),), 2)]
    """
    declared: tuple[int, int] | None = None  # (players, line)
    raw_rounds: list[tuple[int, list[tuple[int, int, int]], tuple[int, int] | None]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        body = line.split("#", 1)[0]
        if not body.strip():
            continue
        header = _PLAYERS.match(body)
        if header:
            if raw_rounds or declared:
                raise InputError(
                    "'players' must come once, before the first round", source=source, line=number
                )
            declared = (int(header.group(1)), number)
            continue
        raw_rounds.append(_parse_round_line(body, number, len(raw_rounds) + 1, source))
    if not raw_rounds:
        raise InputError("no rounds: expected one round a line, like 1-6 2-5 3-4", source=source)
    field = _field_size(players, declared, raw_rounds, source)
    rounds = []
    for position, (line_number, pairs, bye) in enumerate(raw_rounds, start=1):
        boards: list[tuple[int, int]] = []
        free = bye[0] if bye else None
        for white, black, column in pairs:
            if field % 2 and field + 1 in (white, black) and white != black:
                if free is not None:
                    raise InputError(
                        f"round {position} has two byes",
                        source=source,
                        line=line_number,
                        column=column,
                    )
                free = black if white == field + 1 else white
                continue
            boards.append((white, black))
        rounds.append(ScheduledRound(position, tuple(boards), free))
    return Schedule(field, tuple(rounds))


def _parse_round_line(
    body: str, line: int, position: int, source: str
) -> tuple[int, list[tuple[int, int, int]], tuple[int, int] | None]:
    at = 0
    label = _LABEL.match(body)
    if label:
        if int(label.group(1)) != position:
            raise InputError(
                f"this is round {position}, but the line says {label.group(1)}",
                source=source,
                line=line,
                column=label.start(1) + 1,
            )
        at = label.end()
    pairs: list[tuple[int, int, int]] = []
    bye: tuple[int, int] | None = None
    while True:
        gap = _SEPARATOR.match(body, at)
        if gap:
            at = gap.end()
        if at >= len(body):
            break
        pair = _PAIR.match(body, at)
        if pair:
            pairs.append((int(pair.group(1)), int(pair.group(2)), at + 1))
            at = pair.end()
            continue
        free = _BYE.match(body, at)
        if free:
            if bye is not None:
                raise InputError("a second bye", source=source, line=line, column=at + 1)
            bye = (int(free.group(1)), at + 1)
            at = free.end()
            continue
        found = body[at:].split()[0]
        raise InputError(
            f"expected a pair like 1-6 or 'bye 7', found {found!r}",
            source=source,
            line=line,
            column=at + 1,
        )
    if not pairs and bye is None:
        raise InputError("a round with no games", source=source, line=line, column=1)
    return line, pairs, bye


def _field_size(
    players: int | None,
    declared: tuple[int, int] | None,
    raw_rounds: list[tuple[int, list[tuple[int, int, int]], tuple[int, int] | None]],
    source: str,
) -> int:
    if declared is not None and players is not None and declared[0] != players:
        raise InputError(
            f"the file says {declared[0]} players, --players says {players}",
            source=source,
            line=declared[1],
        )
    field = players if players is not None else declared[0] if declared else None
    if field is None:
        numbers = [n for _, pairs, bye in raw_rounds for p in pairs for n in p[:2]]
        numbers += [bye[0] for _, _, bye in raw_rounds if bye]
        field = max(numbers)
    if field < 2:
        raise InputError(f"a schedule needs 2 players or more, not {field}", source=source)
    return field


def parse_schedule_json(
    text: str, *, source: str = "<input>", players: int | None = None
) -> Schedule:
    """The JSON that ``crosstable schedule berger --format json`` prints.

    >>> text = '{"players": 3, "rounds": [{"round": 1, "boards": [[2, 3]], "bye": 1}]}'
    >>> parse_schedule_json(text).rounds
    (ScheduledRound(number=1, boards=((2, 3),), bye=1, cycle=1),)
    """
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(error.msg, source=source, line=error.lineno, column=error.colno) from None
    root = _Located.parse(text)

    def fail(node: _Located, message: str) -> InputError:
        line, column = node.where(text)
        return InputError(message, source=source, line=line, column=column)

    members = root.object(fail, "the file must be an object with 'players' and 'rounds'")
    for key, node in members.items():
        if key not in ("players", "rounds"):
            raise fail(node, f"unknown key {key!r} (expected 'players' and 'rounds')")
    if "rounds" not in members:
        raise fail(root, "missing 'rounds'")
    field = None
    if "players" in members:
        field = members["players"].integer(fail, "'players' must be a whole number")
        if players is not None and players != field:
            raise fail(members["players"], f"the file says {field} players, --players {players}")
    rounds: list[ScheduledRound] = []
    for position, node in enumerate(members["rounds"].array(fail, "'rounds' must be a list"), 1):
        rounds.append(_json_round(node, position, fail))
    if field is None:
        field = players
    if field is None:
        numbers = [p for r in rounds for b in r.boards for p in b] + [
            r.bye for r in rounds if r.bye is not None
        ]
        if not numbers:
            raise fail(root, "no games and no 'players'")
        field = max(numbers)
    if field < 2:
        raise fail(members.get("players", root), f"a schedule needs 2 players or more, not {field}")
    return Schedule(field, tuple(rounds))


_Fail = Callable[["_Located", str], InputError]


def _json_round(node: _Located, position: int, fail: _Fail) -> ScheduledRound:
    fields = node.object(fail, f"round {position} must be an object with 'boards'")
    for key, value in fields.items():
        if key not in ("round", "boards", "bye", "cycle"):
            raise fail(value, f"unknown key {key!r} in a round")
    if "round" in fields and fields["round"].integer(fail, "'round' must be a number") != position:
        raise fail(fields["round"], f"rounds must be numbered 1, 2, …; expected {position}")
    if "boards" not in fields:
        raise fail(node, f"round {position} has no 'boards'")
    boards = []
    for board in fields["boards"].array(fail, "'boards' must be a list of [white, black]"):
        pair = board.array(fail, "a board must be [white, black]")
        if len(pair) != 2:
            raise fail(board, "a board must be [white, black]")
        white, black = (p.integer(fail, "a player must be a starting number") for p in pair)
        boards.append((white, black))
    bye = None
    if "bye" in fields and fields["bye"].value is not None:
        bye = fields["bye"].integer(fail, "'bye' must be a starting number or null")
    cycle = 1
    if "cycle" in fields:
        cycle = fields["cycle"].integer(fail, "'cycle' must be a number")
    return ScheduledRound(position, tuple(boards), bye, cycle)


_SPACE = re.compile(r"[ \t\r\n]*")


def _skip(text: str, at: int) -> int:
    """The offset of the next non-blank character (JSON whitespace only)."""
    match = _SPACE.match(text, at)
    return match.end() if match else at


class _Located:
    """A JSON value with the offset where it starts, to name line and column in errors."""

    _DECODER = json.JSONDecoder()

    def __init__(self, value: object, offset: int) -> None:
        self.value = value
        self.offset = offset

    @classmethod
    def parse(cls, text: str) -> _Located:
        node, _ = cls._read(text, _skip(text, 0))
        return node

    @classmethod
    def _read(cls, text: str, at: int) -> tuple[_Located, int]:
        """The value starting at ``at`` (valid JSON: json.loads has checked it)."""
        start = at
        if text[at] == "{":
            members: dict[str, _Located] = {}
            at = _skip(text, at + 1)
            while text[at] != "}":
                key, at = cls._DECODER.raw_decode(text, at)
                at = _skip(text, _skip(text, at) + 1)  # past the ':'
                members[key], at = cls._read(text, at)
                at = _skip(text, at)
                if text[at] == ",":
                    at = _skip(text, at + 1)
            return cls(members, start), at + 1
        if text[at] == "[":
            items: list[_Located] = []
            at = _skip(text, at + 1)
            while text[at] != "]":
                item, at = cls._read(text, at)
                items.append(item)
                at = _skip(text, at)
                if text[at] == ",":
                    at = _skip(text, at + 1)
            return cls(items, start), at + 1
        value, end = cls._DECODER.raw_decode(text, at)
        return cls(value, start), end

    def where(self, text: str) -> tuple[int, int]:
        line = text.count("\n", 0, self.offset) + 1
        return line, self.offset - (text.rfind("\n", 0, self.offset) + 1) + 1

    def object(self, fail: _Fail, message: str) -> dict[str, _Located]:
        if not isinstance(self.value, dict):
            raise fail(self, message)
        return self.value

    def array(self, fail: _Fail, message: str) -> list[_Located]:
        if not isinstance(self.value, list):
            raise fail(self, message)
        return self.value

    def integer(self, fail: _Fail, message: str) -> int:
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            raise fail(self, message)
        return self.value
