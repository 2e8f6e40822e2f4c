"""The warnings an edit of the regulations raises, given their FIDE levels.

* the tie-break list after the start: level 4, and a Buchholz for a round robin: level
  3 (:mod:`crosstable.service.tiebreak_order`);
* the number of rounds of a Dutch Swiss after the start: level 4 and a
  ``### Configuration @ Round n: …`` line. A change that makes the last paired round
  the final one, or no longer the final one, re-checks that round under the new number
  (:mod:`crosstable.service.fide_rounds`): a level-3 warning and its own line when its
  pairing now breaks the rules. Refused: fewer rounds than are paired, and any change
  under Baku acceleration (whose table is made for the planned number of rounds);
* a withdrawal: no level of its own (FIDE asks that the player is marked withdrawn), a
  note written to the TRF as ``### Withdrawal @ Round n: …``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select

from crosstable.core.errors import RuleError
from crosstable.core.model import Settings, System
from crosstable.core.text import Message
from crosstable.service.details import RegulationsEdit
from crosstable.service.fide_feasibility import edit_feasibility
from crosstable.service.fide_mode import current_round
from crosstable.service.fide_rounds import final_round_warning
from crosstable.service.long_events import long_event_warning
from crosstable.service.scoring_rules import scoring_warnings
from crosstable.service.swiss.settings import swiss_settings
from crosstable.service.tiebreak_order import tiebreak_warnings
from crosstable.service.unit import Tx
from crosstable.service.warning_levels import FideWarning, Level, settle
from crosstable.store.models import GameRow


def rounds_open(tx: Tx, name: str) -> bool:
    """True when ``name`` is the number of rounds of a started Dutch Swiss (a change
    that takes a level-4 warning instead of being refused)."""
    row = tx.tournament
    return name == "rounds" and row.system == System.SWISS_DUTCH.value


def paired_rounds(tx: Tx) -> int:
    last = tx.session.scalar(
        select(func.max(GameRow.round)).where(GameRow.tournament_id == tx.tournament_id)
    )
    return int(last or 0)


def rounds_warnings(tx: Tx, old: int | None, new: int | None) -> list[FideWarning]:
    """The level-4 warning of a new number of rounds of a started Swiss, after its checks,
    and the level-3 one of a last paired round that the change re-checks and finds wrong."""
    paired = paired_rounds(tx)
    if new is None or old is None:
        raise RuleError("a started Swiss keeps a number of rounds: give one")
    if swiss_settings(tx.tournament.regulations).baku:
        raise RuleError(
            "the number of rounds cannot change under Baku acceleration: its table is made "
            "for {rounds} rounds",
            rounds=old,
        )
    if new < paired:
        raise RuleError(
            "{paired} rounds are paired already: the tournament cannot have fewer", paired=paired
        )
    number = current_round(tx.session, tx.tournament)
    change = FideWarning(
        code="rounds-after-start",
        level=Level.TWO_STEP,
        message=Message(
            "changing the number of rounds after the start, from {old} to {new}", old=old, new=new
        ),
        consequences=(
            Message(
                "for every player: the tournament has {new} rounds; the rounds still to pair "
                "are paired for {new}",
                new=new,
            ),
            Message("for the rating officer: the TRF file gives {new} rounds (XXR)", new=new),
        ),
        trf=f"Configuration: number of rounds changed from {old} to {new}",
        round=number,
    )
    rechecked = final_round_warning(tx, paired, old, new)
    return [change] if rechecked is None else [change, rechecked]


def regulation_warnings(
    tx: Tx,
    settings: Settings,
    new: Settings,
    changing: Sequence[str],
    started: bool,
    given: RegulationsEdit | None = None,
) -> list[FideWarning]:
    """Every warning an edit of the regulations raises, in the order they are shown."""
    found = tiebreak_warnings(tx, settings, new, changing, started)
    found += scoring_warnings(tx, settings, new, changing, started)  # (scoring_rules.py)
    if started and "rounds" in changing and rounds_open(tx, "rounds"):
        found += rounds_warnings(tx, settings.rounds, new.rounds)
    if not started:  # before round 1: can the rounds (new, or with new prohibited pairs) be played?
        found += edit_feasibility(tx, new.rounds, changing, given or {})
    advice = long_event_warning(settings, new, current_round(tx.session, tx.tournament))
    if advice is not None:  # an event over 30 days: ratings change during it
        found.append(advice)
    return found


def confirm_regulations(
    tx: Tx,
    settings: Settings,
    new: Settings,
    changing: Sequence[str],
    started: bool,
    given: RegulationsEdit,
    confirm: str | None,
) -> tuple[FideWarning, ...]:
    """The edit's warnings once confirmed (service/warning_levels.py ``settle``): the
    token confirms exactly this edit of this revision."""
    warnings = regulation_warnings(tx, settings, new, changing, started, given)
    row = tx.tournament
    return settle(row.id, row.revision, f"regulations {given!r}", warnings, confirm)


def bye_warnings(
    byes: Sequence[Any], number: int, start: int, name: str, round_number: int, code: str
) -> list[FideWarning]:
    """A bye asked for ahead: a full-point bye is a level-2 notice (FIDE no longer
    recommends them for individuals), a player's second or later half-point bye a
    level-3 warning, a first half-point or a zero-point bye a note (no level); each is
    written to the TRF as a ``### Bye @ Round n`` line.

    ``byes`` are the tournament's stored byes (``round``, ``player``, ``kind``), the
    player's registration ``number`` and starting number ``start``.
    """
    who = Message("player {start} {name}", start=start, name=name)
    if code == "F":
        return [
            FideWarning(
                code="full-point-bye",
                level=Level.ACKNOWLEDGE,
                message=Message(
                    "{who}: a full-point bye in round {round}; FIDE no longer recommends "
                    "full-point byes for individual players",
                    who=who,
                    round=round_number,
                ),
                trf=f"Bye: full-point bye for player {start} in round {round_number}",
                round=round_number,
            )
        ]
    note = FideWarning(
        code="half-point-bye" if code == "H" else "zero-point-bye",
        level=Level.INFORM,
        message=Message(
            "{who}: a bye ({code}) in round {round}", who=who, code=code, round=round_number
        ),
        trf=f"Bye: {'half' if code == 'H' else 'zero'}-point bye for player {start} in round "
        f"{round_number}",
        round=round_number,
    )
    if code == "H":
        earlier = sorted(
            b.round
            for b in byes
            if b.player == number and b.kind == "H" and b.round != round_number
        )
        if earlier:
            rounds = ",".join(str(r) for r in earlier)
            return [
                FideWarning(
                    code="another-half-point-bye",
                    level=Level.CONFIRM,
                    message=Message(
                        "{who} already has a half-point bye (rounds {rounds}): another one in "
                        "round {round}",
                        who=who,
                        rounds=rounds,
                        round=round_number,
                    ),
                    trf=f"Bye: half-point bye number {len(earlier) + 1} for player {start} "
                    f"in round {round_number}",
                    round=round_number,
                )
            ]
    return [note] if code in ("H", "Z") else []  # (no level: a ### line only)


def withdrawal_note(start: int | None, name: str, from_round: int) -> FideWarning:
    """The note of a player withdrawn from ``from_round`` on: a ``### Withdrawal`` line.

    >>> withdrawal_note(4, "Dmitri", 3).trf
    'Withdrawal: player 4 Dmitri withdrew from round 3'
    """
    return FideWarning(
        code="withdrawal",
        level=Level.INFORM,
        message=Message(
            "player {start} {name} withdrew from round {round}",
            start=start,
            name=name,
            round=from_round,
        ),
        trf=f"Withdrawal: player {start} {name} withdrew from round {from_round}",
        round=from_round,
    )
