"""The manual-pairing phase of a Swiss round: "Edit pairings", then "Validate pairings".

* :meth:`PairingPhase.edit_pairings` opens the phase for the next round (an event in
  the history; the round's state becomes ``editing``). Given the last published round
  while none of its games has a result, it reopens that round: its games and PAB are
  taken back and the ``### MPA`` record of its publication is discarded.
* :meth:`PairingPhase.validate_pairings` closes the phase: the pairing (the Dutch
  system's, or the organiser's boards) is published, compared with the engine's, and a
  difference is FIDE's level-3 warning and an ``### MPA`` line, as any hand pairing.
* :meth:`PairingPhase.pairing_phase` says where the phase stands.

While a phase is open the round is published only by validating it
(service/pairing_phase_state.py); undoing the opening closes it again.
"""

from __future__ import annotations

from sqlalchemy import select

from crosstable.core.errors import RuleError
from crosstable.core.pairing.dutch import next_round
from crosstable.core.text import Message
from crosstable.service.fide_mode import lock_free
from crosstable.service.frame import Change, ChangeFrame, Done, EventData
from crosstable.service.history import effective
from crosstable.service.loading import Loaded
from crosstable.service.pairing_phase_state import DISCARDS, phase_round, with_phase
from crosstable.service.swiss.plan import Board, check_running, check_swiss
from crosstable.service.swiss.play import SwissPlay
from crosstable.service.unit import Tx, apply_change, event_changes
from crosstable.store.models import EventRow

#: the event kind of an opened (or reopened) phase
EDIT = "pairing-edit"


class PairingPhase:
    """The use cases of a Swiss round's manual-pairing phase."""

    def __init__(self, frame: ChangeFrame, swiss: SwissPlay) -> None:
        self.frame = frame
        self.swiss = swiss

    def pairing_phase(self, tournament_id: int) -> dict[str, int | str | None]:
        """``{"round": n, "state": "editing", "opened": seq}`` while round n's pairings
        are open for editing, else ``{"round": None, "state": "closed", "opened": None}``."""
        with self.frame.store.reading() as session:
            row = lock_free(session, tournament_id)
            number = phase_round(row.regulations)
            opened = None
            if number is not None:
                events = list(
                    session.scalars(
                        select(EventRow)
                        .where(EventRow.tournament_id == tournament_id)
                        .order_by(EventRow.seq)
                    )
                )
                live = set(effective(events))
                opened = max(
                    (e.seq for e in events if e.kind == EDIT and e.seq in live), default=None
                )
            return {
                "round": number,
                "state": "closed" if number is None else "editing",
                "opened": opened,
            }

    def edit_pairings(
        self, tournament_id: int, round_number: int | None = None, *, actor: str = ""
    ) -> Change:
        """Open the manual-pairing phase of the next round, or (``round_number`` the last
        published round, none of its games played) reopen that round."""

        def body(tx: Tx) -> Done:
            loaded = Loaded(tx.session, tx.tournament)
            check_swiss(loaded)
            check_running(loaded)
            following = next_round(loaded.tournament())
            number = following if round_number is None else round_number
            current = phase_round(tx.tournament.regulations)
            if current is not None:
                raise RuleError(
                    "the pairings of round {round} are open for editing already", round=current
                )
            data: EventData = {"round": number}
            if number == following:
                summary = Message(
                    "round {round}: pairings opened for editing (manual pairing phase)",
                    round=number,
                )
            elif number == following - 1 and number >= 1:
                data[DISCARDS] = _unpair(tx, loaded, number)
                summary = Message(
                    "round {round}: pairings reopened for editing; the published pairing and "
                    "its manual-pairing record are discarded",
                    round=number,
                )
            else:
                raise RuleError(
                    "round {round} cannot be edited: the next round to pair is {next}",
                    round=number,
                    next=following,
                )
            row = tx.tournament
            tx.update(row, regulations=with_phase(row.regulations, number))
            return Done(summary, data)

        return self.frame.change(tournament_id, EDIT, body, actor=actor)

    def validate_pairings(
        self,
        tournament_id: int,
        boards: list[Board] | tuple[Board, ...] | None = None,
        bye: int | None = None,
        *,
        allow_rematch: bool = False,
        actor: str = "",
        confirm: str | None = None,
    ) -> Change:
        """Close the phase by publishing the round: the organiser's ``boards`` (and
        ``bye``) or, None, the Dutch system's pairing (service/swiss/play.py)."""
        return self.swiss.publish_round(
            tournament_id,
            boards,
            bye,
            allow_rematch=allow_rematch,
            actor=actor,
            confirm=confirm,
            validating=True,
        )


def _unpair(tx: Tx, loaded: Loaded, number: int) -> list[int]:
    """Take back round ``number``'s publication (its games, PAB and absences); the
    sequence numbers of the events whose records go with it."""
    played = [g for g in loaded.games if g.round == number and g.result is not None]
    if played:
        raise RuleError(
            "round {round} has results already (board {board}): it cannot be edited again",
            round=number,
            board=played[0].board,
        )
    events = list(
        tx.session.scalars(
            select(EventRow)
            .where(EventRow.tournament_id == tx.tournament_id)
            .order_by(EventRow.seq)
        )
    )
    live = set(effective(events))
    published = [
        e
        for e in events
        if e.kind == "pairing" and e.seq in live and (e.data or {}).get("round") == number
    ]
    if not published:
        raise RuleError("round {round} is not published", round=number)
    event = published[-1]
    for change in reversed(event_changes(event)):
        if change.table in ("games", "byes", "rounds") and change.before is None:
            apply_change(tx, change.inverse())
    return [event.seq]


__all__ = ["EDIT", "PairingPhase"]
