"""What the clock reads of a running knockout: whether games are due, whether the
round is over, when its round was paired and when the next one may be.

A knockout run by the clock (it has a ``starts_at`` or a ``round_time``) goes on by
itself: tie-break games are added as soon as they are due, and the next round is
paired when every match of the round is decided — at once, or, with a ``round_time``,
at the first round time on a later day than the round before (one round a day; the
round's results are due by then). :func:`knockout_clock` answers from the store.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.service.knockout.replay import replay
from crosstable.service.loading import Loaded
from crosstable.store.models import EventRow, TournamentRow

#: the events that pair a knockout round (the start pairs round 1)
PAIRING_KINDS = ("start", "knockout")


@dataclass(frozen=True)
class KnockoutClock:
    """A running knockout as the clock sees it."""

    #: the knockout round being played
    round: int
    #: tie-break games the bracket set up that are not stored yet
    due: bool
    #: every match of the round is decided (the next round can be paired)
    decided: bool
    finished: bool
    #: the games of the round still without a result, as "round r board b"
    unplayed: tuple[str, ...]
    #: when the round being played was paired (None: not known)
    paired_at: dt.datetime | None
    #: the replay found a problem (a changed result): the clock leaves it to the organiser
    problem: str | None = None


def knockout_clock(session: Session, row: TournamentRow) -> KnockoutClock:
    """The running knockout ``row`` as the clock sees it."""
    state = replay(session, Loaded(session, row))
    ko = state.knockout
    unplayed = tuple(
        f"round {game.round} board {game.board}"
        for game in sorted(state.stored.values(), key=lambda g: (g.round, g.board))
        if game.result is None
    )
    return KnockoutClock(
        round=ko.round,
        due=bool(state.due),
        decided=not ko.undecided(),
        finished=ko.finished,
        unplayed=unplayed,
        paired_at=paired_at(session, row.id),
        problem=state.problem,
    )


def paired_at(session: Session, tournament_id: int) -> dt.datetime | None:
    """When the latest knockout round was paired (the start, or a next round)."""
    query = (
        select(EventRow.at, EventRow.data)
        .where(EventRow.tournament_id == tournament_id, EventRow.kind.in_(PAIRING_KINDS))
        .order_by(EventRow.seq.desc())
    )
    for at, data in session.execute(query):
        if (data or {}).get("paired_round") is not None:
            return dt.datetime.fromisoformat(at)
    return None
