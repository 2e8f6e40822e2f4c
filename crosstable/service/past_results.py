"""Correcting a result of an earlier round in FIDE mode, with FIDE's warning levels.

FIDE's checklist for tournament programs lets FIDE mode change only the previous
round's results: a result of the round before the last one played (a Swiss: the last
one paired; a round robin, paired from the start: the last one with a result) is a
level-3 warning that says what changes — the two players' points and the standings,
and, in a Swiss, that the rounds paired since on the old result are not paired again —
and is written to the TRF as ``### Correction @ Round n: …``. A result of an older
round is refused in FIDE mode (level 5): leave FIDE mode first. The results of the
last round played, and every result outside FIDE mode, are corrected as before.
"""

from __future__ import annotations

from sqlalchemy import func, select

from crosstable.core.model import System
from crosstable.core.text import Message
from crosstable.service.fide_mode import in_fide_mode
from crosstable.service.loading import result_label
from crosstable.service.unit import Tx
from crosstable.service.warning_levels import FideWarning, Level
from crosstable.store.models import EntryRow, GameRow


def paired_in_advance(system: str) -> bool:
    """True for a system whose every round is paired before round 1 (a round robin).

    >>> paired_in_advance("round-robin"), paired_in_advance("dutch")
    (True, False)
    """
    try:
        return System(system).has_predetermined_pairings
    except ValueError:
        return False


def last_round_played(tx: Tx) -> int:
    """The last round played: a Swiss's (or knockout's) last round paired; a round
    robin's, whose games all exist from the start, the last one with a result (not
    counting the forfeits a withdrawal gave in advance)."""
    tid = tx.tournament_id
    if not paired_in_advance(tx.tournament.system):
        asked = select(func.max(GameRow.round)).where(GameRow.tournament_id == tid)
        return int(tx.session.scalar(asked) or 0)
    gone = dict(
        tx.session.execute(
            select(EntryRow.number, EntryRow.withdrawn_from).where(
                EntryRow.tournament_id == tid, EntryRow.withdrawn_from.is_not(None)
            )
        ).all()
    )
    rounds = tx.session.execute(
        select(GameRow.round, GameRow.white, GameRow.black).where(
            GameRow.tournament_id == tid, GameRow.result.is_not(None)
        )
    )
    return max(
        (
            number
            for number, white, black in rounds
            if all((gone.get(p) or number + 1) > number for p in (white, black))
        ),
        default=0,
    )


def correction_warnings(tx: Tx, game: GameRow, code: str | None) -> list[FideWarning]:
    """The warning of changing ``game``'s result to ``code`` (None: clearing it): none
    for the last round played or outside FIDE mode; level 3 for the round before it;
    level 5 (refused) for an older round."""
    last = last_round_played(tx)
    if game.round >= last or not in_fide_mode(tx.session, tx.tournament):
        return []
    before, after = result_label(game.result), result_label(code)
    white, black = _starts(tx, game)
    where = Message("round {round} board {board}", round=game.round, board=game.board)
    if game.round < last - 1:
        return [
            FideWarning(
                code="old-result-corrected",
                level=Level.REFUSE,
                message=Message(
                    "{where} is older than the previous round (round {last} is the last one "
                    "played): FIDE mode lets only the previous round's results change; leave "
                    "FIDE mode to correct it",
                    where=where,
                    last=last,
                ),
                round=game.round,
            )
        ]
    later = Message(
        "for the pairings: round {last} was paired on the old result and is not paired again",
        last=last,
    )
    if paired_in_advance(tx.tournament.system):
        later = Message("for the pairings: none changes (a round robin is paired in advance)")
    return [
        FideWarning(
            code="past-result-corrected",
            level=Level.CONFIRM,
            message=Message(
                "correcting a result of the previous round: {where}, {before} to {after}, "
                "after round {last} was played",
                where=where,
                before=before,
                after=after,
                last=last,
            ),
            consequences=(
                Message(
                    "for players {white} and {black}: their points and places change with the "
                    "result",
                    white=white,
                    black=black,
                ),
                later,
                Message("for the rating officer: the TRF file says so in a ### line"),
            ),
            trf=f"Correction: board {game.board}, {white} - {black} {before} corrected to "
            f"{after} after round {last} was played",
            round=game.round,
        )
    ]


def _starts(tx: Tx, game: GameRow) -> tuple[int | None, int | None]:
    starts = dict(
        tx.session.execute(
            select(EntryRow.number, EntryRow.start).where(
                EntryRow.tournament_id == tx.tournament_id,
                EntryRow.number.in_((game.white, game.black)),
            )
        ).all()
    )
    return starts.get(game.white), starts.get(game.black)


__all__ = ["correction_warnings", "last_round_played", "paired_in_advance"]
