"""Expelling a player (FIDE's checklist Q197-198).

An arbiter expels a player from a given round with a reason: a withdrawal (their games
without a result from that round on are forfeited, no later round pairs them) whose
reason is "expelled", kept in the regulations (:mod:`crosstable.core.expulsion`), in
the history with its reason, and undone by undo like any change. A Swiss leaves the
player out of its standings' ranking and shows them apart with the word expelled,
their games still counting for their opponents' tie-breaks; a round robin applies
its withdrawal rule. The TRF export writes ``### Expelled @ Round n: player s name
expelled from round n (reason)``; the rounds they miss are marked as a withdrawn
player's are.
"""

from __future__ import annotations

from crosstable.core.errors import RuleError
from crosstable.core.expulsion import REASON_LENGTH, Expulsion, expulsions_in, with_expulsion
from crosstable.core.model import System
from crosstable.core.text import Message
from crosstable.service.errors import NotFoundError
from crosstable.service.finishing import finish_by_itself
from crosstable.service.frame import Change, ChangeFrame, Done
from crosstable.service.loading import Loaded
from crosstable.service.play import still_playing
from crosstable.service.systems import rules_of
from crosstable.service.unit import Tx
from crosstable.service.warning_levels import FideWarning, Level, logged
from crosstable.store.models import TournamentRow

#: the systems a player is expelled from (a knockout's loser simply leaves)
SYSTEMS = (System.SWISS_DUTCH.value, System.ROUND_ROBIN.value)


def expulsion_note(expulsion: Expulsion, name: str) -> FideWarning:
    """The note of an expulsion: its ``### Expelled`` line in the TRF.

    >>> expulsion_note(Expulsion(4, 3, "insulted the arbiter"), "Dmitri").trf
    'Expelled: player 4 Dmitri expelled from round 3 (insulted the arbiter)'
    """
    return FideWarning(
        code="expulsion",
        level=Level.INFORM,
        message=Message(
            "player {start} {name} expelled from round {round} ({reason})",
            start=expulsion.start,
            name=name,
            round=expulsion.from_round,
            reason=expulsion.reason,
        ),
        trf=f"Expelled: player {expulsion.start} {name} expelled from round "
        f"{expulsion.from_round} ({expulsion.reason})",
        round=expulsion.from_round,
    )


class Expulsions:
    """The use cases of expelled players."""

    def __init__(self, frame: ChangeFrame) -> None:
        self.frame = frame

    def expulsions(self, tournament_id: int) -> tuple[Expulsion, ...]:
        """The players expelled, by starting number."""
        with self.frame.store.reading() as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                raise NotFoundError(
                    "there is no tournament {tournament} in this database", tournament=tournament_id
                )
            return expulsions_in(row.regulations)

    def expel(
        self,
        tournament_id: int,
        start: int,
        *,
        reason: str,
        from_round: int | None = None,
        actor: str = "",
    ) -> Change:
        """Expel player ``start`` from ``from_round`` on (default: their first round without
        a result, or the next round to pair) for ``reason``."""
        why = " ".join(reason.split())
        if not why:
            raise RuleError("an expulsion needs its reason")
        if len(why) > REASON_LENGTH:
            raise RuleError("the reason is longer than {count} characters", count=REASON_LENGTH)

        def body(tx: Tx) -> Done:
            row = tx.tournament
            if row.system not in SYSTEMS:
                raise RuleError("a player is expelled from a Swiss or a round robin only")
            if row.status == "registration":
                raise RuleError("the tournament has not started: remove the player instead")
            if row.status == "finished":
                raise RuleError("the tournament is finished: a player can no longer be expelled")
            loaded = Loaded(tx.session, row)
            entry = still_playing(loaded, start)
            done = rules_of(row).withdraw(tx, loaded, entry, from_round)
            first = entry.withdrawn_from if entry.withdrawn_from is not None else from_round
            expulsion = Expulsion(start, int(first or 1), why)
            tx.update(row, regulations=with_expulsion(row.regulations, expulsion))
            note = expulsion_note(expulsion, entry.name)
            summary = Message(
                "{expelled}; {withdrawal}", expelled=note.message, withdrawal=done.summary
            )
            data = done.data | {"expelled": expulsion.as_json()}
            return logged(Done(summary, data), [note])

        return self.frame.change(
            tournament_id, "expulsion", lambda tx: finish_by_itself(tx, body(tx)), actor=actor
        )


__all__ = ["SYSTEMS", "Expulsions", "expulsion_note"]
