"""A round robin against its own table: FIDE Berger, or the circle method or the
Crenshaw-Berger tables when the file says so (``### Schedule: circle``).

The players' starting numbers are the table's numbers: round ``r`` of the file
must hold the games of round ``r`` of the table, with the table's colours, and
the table's free round in an odd field. A double (or multiple) round robin plays
the table again with every colour reversed; FIDE advises exchanging the last two
rounds of the first cycle, and the arbiter may or may not have done it: both
orders are tried and the one closer to the file is the one checked (the
regulations' choice when both fit as well). The cycles are the regulations',
or as many as the rounds played fill.
"""

from __future__ import annotations

from crosstable.core.checker.compare import compare_round
from crosstable.core.checker.findings import RoundVerdict
from crosstable.core.model import ByeKind, Tournament
from crosstable.core.schedule.crenshaw import crenshaw_fits
from crosstable.core.schedule.kinds import ScheduleKind, round_robin_table
from crosstable.core.schedule.types import Schedule

__all__ = ["check_round_robin", "played_rounds"]

_FREE = frozenset({ByeKind.FREE, ByeKind.PAIRING})


def played_rounds(
    tournament: Tournament,
) -> list[tuple[int, tuple[tuple[int, int], ...], int | None]]:
    """Every round with a game or a free round: its number, boards and free player."""
    out = []
    for rnd in tournament.rounds:
        free = next((b.player for b in rnd.byes if b.kind in _FREE), None)
        if not rnd.games and free is None:
            continue
        out.append((rnd.number, tuple((g.white, g.black) for g in rnd.games), free))
    return out


def check_round_robin(
    tournament: Tournament, schedule: ScheduleKind = ScheduleKind.BERGER
) -> tuple[tuple[RoundVerdict, ...], tuple[str, ...]]:
    """Each played round against its own table (Berger, or the circle method the file
    states), and the notes on the order assumed."""
    players = len(tournament.players)
    played = played_rounds(tournament)
    name = {
        ScheduleKind.BERGER: "FIDE Berger table",
        ScheduleKind.CIRCLE: "circle method",
        ScheduleKind.CRENSHAW: "Crenshaw-Berger table",
    }[schedule]
    unpublished = schedule is ScheduleKind.CRENSHAW and not crenshaw_fits(players)
    if players < 3 or unpublished:
        why = "it is published for 3-4 and 7 or more" if unpublished else "it needs 3 or more"
        note = f"{players} players: no {name} ({why})"
        unchecked = tuple(RoundVerdict(n, boards, bye, None, None) for n, boards, bye in played)
        return unchecked, (note,)
    settings = tournament.settings
    last = max((n for n, _, _ in played), default=0)
    per_cycle = round_robin_table(schedule, players).rounds
    cycles = max(settings.cycles, -(-last // len(per_cycle)), 1)
    orders = [settings.swap_last_rounds, not settings.swap_last_rounds] if cycles > 1 else [True]
    best: tuple[RoundVerdict, ...] | None = None
    chosen = orders[0]
    for swap in orders:
        table = round_robin_table(schedule, players, cycles, swap_last_rounds=swap)
        verdicts = _against(table, played)
        if best is None or _count(verdicts) < _count(best):
            best, chosen = verdicts, swap
    assert best is not None
    notes = [f"{name} for {players} players, {cycles} cycle(s)"]
    if cycles > 1:
        if schedule is ScheduleKind.CRENSHAW:
            exchanged = "the first two rounds of each even cycle exchanged"
        else:
            exchanged = "the last two rounds of cycle 1 exchanged"
        notes.append(exchanged if chosen else "cycle 1 in the table's own round order")
    return best, tuple(notes)


def _count(verdicts: tuple[RoundVerdict, ...]) -> int:
    return sum(len(v.findings) for v in verdicts)


def _against(
    schedule: Schedule, played: list[tuple[int, tuple[tuple[int, int], ...], int | None]]
) -> tuple[RoundVerdict, ...]:
    by_number = {r.number: r for r in schedule.rounds}
    verdicts = []
    for number, boards, free in played:
        table = by_number[number]  # the cycles cover the last round played
        found = compare_round(
            number,
            boards,
            free if free is not None else table.bye,
            table.boards,
            table.bye,
            bye_word="the free round",
            unplayed_is_absence=True,
        )
        verdicts.append(RoundVerdict(number, boards, free, table.boards, table.bye, found))
    return tuple(verdicts)
