"""Reading one game of the tournament being changed: the open game at a round and
board (with the clear refusals when there is none), and its players as the history
line names them."""

from __future__ import annotations

from sqlalchemy import select

from crosstable.core.errors import RuleError
from crosstable.core.text import Message
from crosstable.service.errors import NotFoundError
from crosstable.service.unit import Tx
from crosstable.store.models import EntryRow, GameRow, RoundRow


def open_game(tx: Tx, round_number: int, board: int) -> GameRow:
    """The game at ``board`` of ``round_number`` in this tournament, which must be open."""
    row = tx.tournament
    where = Message("round {round} board {board}", round=round_number, board=board)
    if row.status == "registration":
        raise RuleError("{where} is not scheduled: the tournament has not started", where=where)
    if row.status == "finished":
        raise RuleError(
            "the tournament is finished and its places are fixed; undo the finish first"
        )
    game = tx.session.get(GameRow, (row.id, round_number, board), with_for_update=False)
    if game is not None:
        return game
    rounds = tx.session.scalars(
        select(RoundRow.number).where(RoundRow.tournament_id == row.id)
    ).all()
    if round_number not in rounds:
        return no_round(round_number, len(rounds))
    boards = tx.session.scalars(
        select(GameRow.board).where(GameRow.tournament_id == row.id, GameRow.round == round_number)
    ).all()
    raise NotFoundError(
        "round {round} has no board {board} (boards 1–{boards})",
        round=round_number,
        board=board,
        boards=max(boards, default=0),
    )


def no_round(round_number: int, rounds: int) -> GameRow:
    raise NotFoundError(
        "there is no round {round} in this tournament (rounds 1–{rounds})",
        round=round_number,
        rounds=rounds,
    )


def players_of(tx: Tx, game: GameRow) -> str:
    """`` (12 Smith – 7 Jones)``, or nothing when a player is not found."""
    found = {
        number: (start, name)
        for number, start, name in tx.session.execute(
            select(EntryRow.number, EntryRow.start, EntryRow.name).where(
                EntryRow.tournament_id == tx.tournament_id,
                EntryRow.number.in_((game.white, game.black)),
            )
        )
    }
    if game.white not in found or game.black not in found:
        return ""
    (ws, wn), (bs, bn) = found[game.white], found[game.black]
    return f" ({ws} {wn} – {bs} {bn})"
