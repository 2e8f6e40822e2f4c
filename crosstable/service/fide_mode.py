"""FIDE mode: a tournament run by FIDE's rules for tournament programs, or not.

A tournament is in FIDE mode from its creation when its system is a round robin or
the Dutch Swiss (an imported TRF file is one of these), unless the regulations say
``fide_mode: off``; other systems start outside it unless they say ``fide_mode: on``.
The flag is read from the regulations (:data:`KEY`, fixed at the creation: an edit
of the regulations keeps it) and from the history: leaving FIDE mode is an event of
its own (:data:`LEFT`) that carries no row change, so no undo and no revert brings
the tournament back into FIDE mode. Leaving takes FIDE's level-4 two-step
confirmation and is written to the TRF as ``### FIDE mode @ Round n: left``.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.expulsion import EXPELLED
from crosstable.core.model import System
from crosstable.core.regulations import REPORT_CORRECTIONS
from crosstable.core.text import Message
from crosstable.service.details import Details, DetailsEdit, RegulationsEdit, given_details
from crosstable.service.errors import NotFoundError
from crosstable.service.frame import Change, ChangeFrame, Done, append_event, lock_tournament
from crosstable.service.pairing_phase_state import PHASE
from crosstable.service.read_views import JsonObject
from crosstable.service.warning_levels import FideWarning, Level, logged, settle
from crosstable.store.models import EventRow, GameRow, TournamentRow

#: the regulations' key of the flag (``on`` / ``off``)
KEY = "fide_mode"
#: the kind of the event that takes a tournament out of FIDE mode for good
LEFT = "fide-mode-left"
#: the systems in FIDE mode by default
DEFAULT_ON = (System.ROUND_ROBIN, System.SWISS_DUTCH)


def default_fide_mode(system: System) -> bool:
    """On for a round robin and the Dutch Swiss, off otherwise.

    >>> default_fide_mode(System.ROUND_ROBIN), default_fide_mode(System.KNOCKOUT)
    (True, False)
    """
    return system in DEFAULT_ON


def regulations_fide_mode(system: System, details: Details | None) -> bool:
    """What the regulations (and the system's default) say, before any leaving.

    >>> regulations_fide_mode(System.ROUND_ROBIN, {"fide_mode": "off"})
    False
    >>> regulations_fide_mode(System.KNOCKOUT, {"fide_mode": "on"})
    True
    """
    said = str((details or {}).get(KEY, "")).strip().lower()
    if said in ("on", "yes", "true", "1"):
        return True
    if said in ("off", "no", "false", "0"):
        return False
    if said:
        raise RuleError("regulations, {key}: say on or off, not {value}", key=KEY, value=said)
    return default_fide_mode(system)


def check_fide_setting(details: Details) -> None:
    """Refuse a ``fide_mode`` detail other than on or off (at the creation)."""
    regulations_fide_mode(System.ROUND_ROBIN, details)


def kept_flag(current: Details | None, new: Details) -> DetailsEdit:
    """The new details of an edit with the flag as it was: FIDE mode is left only by
    :meth:`FideMode.leave_fide_mode`, and never entered again.

    >>> kept_flag({"fide_mode": "off"}, {"venue": "Hall"})
    {'venue': 'Hall', 'fide_mode': 'off'}
    >>> kept_flag({}, {"fide_mode": "off", "venue": "Hall"})
    {'venue': 'Hall'}
    """
    kept = {k: v for k, v in new.items() if k not in (KEY, PHASE, REPORT_CORRECTIONS, EXPELLED)}
    # (and the open manual-pairing phase, the rating report's corrections, the expelled
    # players: never typed)
    for key in (KEY, PHASE, REPORT_CORRECTIONS, EXPELLED):
        if current and key in current:
            kept[key] = current[key]
    return kept


def with_kept_flag(values: RegulationsEdit, current: Details | None) -> RegulationsEdit:
    """An edit's values with :func:`kept_flag` applied to the details it replaces."""
    replaced = given_details(values)
    if replaced is not None:
        return {**values, "details": kept_flag(current, replaced)}
    return values


@dataclass(frozen=True, slots=True)
class FideStatus:
    """Where a tournament stands: in FIDE mode or not, and since which round it left."""

    on: bool
    #: the round in which FIDE mode was left (None: never left)
    left_in_round: int | None = None

    def as_json(self) -> JsonObject:
        return {"fide_mode": self.on, "left_in_round": self.left_in_round}


def status_of(session: Session, row: TournamentRow) -> FideStatus:
    """The tournament's FIDE-mode status, read in ``session``."""
    left = session.scalars(
        select(EventRow.data)
        .where(EventRow.tournament_id == row.id, EventRow.kind == LEFT)
        .order_by(EventRow.seq)
        .limit(1)
    ).first()
    if left is not None:
        return FideStatus(False, int((left or {}).get("round", 0)))
    try:
        return FideStatus(regulations_fide_mode(System(row.system), row.regulations))
    except RuleError:
        return FideStatus(False)


def in_fide_mode(session: Session, row: TournamentRow) -> bool:
    return status_of(session, row).on


def current_round(session: Session, row: TournamentRow) -> int:
    """The round being played: the first round with a game still without a result, else
    the last round with games; 0 before any pairing."""
    open_round = session.scalar(
        select(func.min(GameRow.round)).where(
            GameRow.tournament_id == row.id, GameRow.result.is_(None)
        )
    )
    if open_round is not None:
        return int(open_round)
    last = session.scalar(select(func.max(GameRow.round)).where(GameRow.tournament_id == row.id))
    return int(last or 0)


def leaving_warning(round_number: int) -> FideWarning:
    """The level-4 warning of leaving FIDE mode, with its consequences."""
    return FideWarning(
        code="leave-fide-mode",
        level=Level.TWO_STEP,
        message=Message("leaving FIDE mode is permanent: the tournament can never go back"),
        consequences=(
            Message(
                "for everybody: the tournament is no longer run by FIDE's rules for tournament "
                "programs; every organiser page says so from now on"
            ),
            Message(
                "for the rating officer: the TRF file says from which round (round {round})",
                round=round_number,
            ),
            Message("for the arbiter: actions FIDE mode refuses become possible"),
        ),
        trf="FIDE mode: left; the tournament is no longer run in FIDE mode",
        round=round_number,
    )


class FideMode:
    """The FIDE-mode use cases: the status, and leaving it (two-step confirmation)."""

    def __init__(self, frame: ChangeFrame) -> None:
        self.frame = frame

    def fide_mode(self, tournament_id: int) -> FideStatus:
        with self.frame.store.reading() as session:
            row = lock_free(session, tournament_id)
            return status_of(session, row)

    def leave_fide_mode(
        self, tournament_id: int, *, confirm: str | None = None, actor: str = ""
    ) -> Change:
        """Take the tournament out of FIDE mode for good (level 4: two confirmations).

        The event carries no row change, so undo and revert pass over it."""
        with self.frame.store.transaction() as session:
            row = lock_tournament(session, tournament_id)
            if not in_fide_mode(session, row):
                raise RuleError("the tournament is not in FIDE mode (it never goes back in)")
            number = current_round(session, row)
            warning = leaving_warning(number)
            confirmed = settle(row.id, row.revision, "leave-fide-mode", [warning], confirm)
            done = logged(
                Done(Message("left FIDE mode in round {round}", round=number), {}), confirmed
            )
            data = done.data | {"round": number}
            at = self.frame.now()
            seq = append_event(
                session,
                row,
                at=at,
                actor=actor,
                kind=LEFT,
                summary=done.summary,
                changes=[],
                data=data,
            )
        return Change(tournament_id, seq, LEFT, done.summary, at, actor, data=data)


def lock_free(session: Session, tournament_id: int) -> TournamentRow:
    """The tournament's row for reading; the service's not-found error if none."""
    row = session.get(TournamentRow, tournament_id)
    if row is None:
        raise NotFoundError(
            "there is no tournament {tournament} in this database", tournament=tournament_id
        )
    return row
