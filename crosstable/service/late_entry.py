"""A player who joins a Swiss after the start (a late entry), with FIDE's warning.

A Swiss takes a late entry: the player gets the next starting number, each round
already paired counts as an absence (a zero-point bye: ``0000 - Z`` in the TRF, as the
import reads it), and the player is paired from the next round on. It is a level-3
warning that says so, written to the TRF as ``### Late entry @ Round n: …`` (in FIDE
mode; outside it the entry goes in without a question). A round robin (or any system
paired before round 1) refuses: its schedule is made for the players it started with.
"""

from __future__ import annotations

from sqlalchemy import func, select

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.core.text import Message
from crosstable.service.fide_mode import in_fide_mode
from crosstable.service.field import check_field
from crosstable.service.frame import Done
from crosstable.service.past_results import last_round_played, paired_in_advance
from crosstable.service.players import EntryColumns
from crosstable.service.unit import Tx
from crosstable.service.warning_levels import FideWarning, Level, logged, settle
from crosstable.store.models import ByeRow, EntryRow, RoundRow


def check_late_entry(tx: Tx) -> None:
    """Refuse a late entry where there can be none: a finished tournament, a round robin
    (its schedule is made), a knockout (its bracket is drawn)."""
    row = tx.tournament
    if row.status == "finished":
        raise RuleError("the tournament is finished: no player can join it")
    if paired_in_advance(row.system):
        raise RuleError(
            "the tournament has started: a round robin's schedule is made for the players it "
            "started with, so nobody can join it now (undo the start to add a player)"
        )
    if row.system != System.SWISS_DUTCH.value:
        raise RuleError(
            "the tournament has started: players join a {system} only before round 1",
            system=row.system,
        )


def late_entry_warning(start: int, name: str, missed: int) -> FideWarning:
    """The level-3 warning of a player joining after ``missed`` rounds were paired."""
    rounds = f"rounds 1-{missed}" if missed > 1 else "round 1"
    absences = Message("for player {start} {name}: no round is missed", start=start, name=name)
    if missed == 1:
        absences = Message(
            "for player {start} {name}: round 1 counts as an absence, 0 points (0000 - Z in "
            "the TRF file)",
            start=start,
            name=name,
        )
    elif missed:
        absences = Message(
            "for player {start} {name}: rounds 1-{last} count as absences, 0 points each "
            "(0000 - Z in the TRF file)",
            start=start,
            name=name,
            last=missed,
        )
    return FideWarning(
        code="late-entry",
        level=Level.CONFIRM,
        message=Message(
            "late entry after the start: player {start} {name} joins from round {round}",
            start=start,
            name=name,
            round=missed + 1,
        ),
        consequences=(
            absences,
            Message(
                "for the pairings: the player has starting number {start}, after the players "
                "already registered, and is paired from round {round} on",
                start=start,
                round=missed + 1,
            ),
        ),
        trf=f"Late entry: player {start} {name} joins from round {missed + 1}"
        + (f"; {rounds} absent" if missed else ""),
        round=missed + 1,
    )


def late_entry(tx: Tx, columns: EntryColumns, confirm: str | None) -> Done:
    """Register the player of ``columns`` (an entry's columns) in a started Swiss: the
    next starting number, a zero-point bye for each round paired, FIDE's warning."""
    check_late_entry(tx)
    row = tx.tournament
    tid = tx.tournament_id
    number = int(
        tx.session.scalar(select(func.max(EntryRow.number)).where(EntryRow.tournament_id == tid))
        or 0
    )
    start = int(
        tx.session.scalar(select(func.max(EntryRow.start)).where(EntryRow.tournament_id == tid))
        or 0
    )
    check_field(System(row.system), number + 1, cycles=row.cycles)
    number, start = number + 1, start + 1
    missed = last_round_played(tx)
    warnings = []
    if in_fide_mode(tx.session, row):
        warnings.append(late_entry_warning(start, str(columns["name"]), missed))
    action = f"late-entry {columns!r}"
    confirmed = settle(tid, row.revision, action, warnings, confirm)
    tx.insert(EntryRow(number=number, start=start, **columns))
    tx.flush()
    for round_number in range(1, missed + 1):
        if tx.session.get(RoundRow, (tid, round_number)) is None:
            tx.insert(RoundRow(number=round_number, cycle=1))
            tx.flush()
        tx.insert(ByeRow(round=round_number, player=number, kind="Z"))
    tx.flush()
    summary = Message(
        "player {start} {name} registered late, paired from round {round}",
        start=start,
        name=columns["name"],
        round=missed + 1,
    )
    return logged(Done(summary, {"number": number, "start": start, "missed": missed}), confirmed)
