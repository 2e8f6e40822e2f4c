"""Adjourned games: a result not known yet, a draw for pairing only, the real one later.

An adjourned game (or one whose result is not known yet) is a game row with the
unknown result ``**`` (``*`` in the crosstable, ``?`` in a TRF-2026 file). The Dutch
system counts it as a draw with its colours when pairing; the standings give it no
points and say they are provisional; the tournament cannot finish, and the FIDE TRF
(the rating report) is refused, while one is open.

* :meth:`Adjournments.adjourn_game` records a game as adjourned (also ``*`` given as
  a result to :meth:`crosstable.service.play.Play.record_result`);
* its real result is entered at any time later (:func:`resumed`): a draw goes in as
  any result, a decisive one takes FIDE's level-3 warning (confirm or cancel) and is
  written to the TRF as ``### Adjournment @ Round n: …``;
* pairing a Swiss round while games of the previous rounds have no result records
  them as adjourned, with a level-2 warning, and a level-2 warning names the games
  adjourned before the last completed round that are still open
  (:func:`pairing_warnings`, :func:`adjourn_missing`).
"""

from __future__ import annotations

from crosstable.core.errors import RuleError
from crosstable.core.model import GameResult, Outcome, Reason
from crosstable.core.text import Message
from crosstable.service.adjournment_state import (
    ADJOURNED,
)
from crosstable.service.finishing import finish_by_itself
from crosstable.service.frame import Change, ChangeFrame, Done, Unchanged
from crosstable.service.game_rows import open_game, players_of
from crosstable.service.loading import result_code, result_label
from crosstable.service.recording import result_summary, result_words
from crosstable.service.unit import Tx
from crosstable.service.warning_levels import FideWarning, Level, logged, settle
from crosstable.store.models import EntryRow, GameRow


def adjourn(tx: Tx, game: GameRow) -> Done:
    """Record ``game`` (without a result) as adjourned."""
    where = Message("round {round} board {board}", round=game.round, board=game.board)
    if game.result == ADJOURNED:
        raise Unchanged(Message("{where} is already adjourned", where=where))
    if game.result is not None:
        raise RuleError(
            "{where} already has {result}: only a game without a result can be adjourned",
            where=where,
            result=result_label(game.result),
        )
    tx.update(game, result=ADJOURNED, reason=Reason.NORMAL.value)
    return Done(
        Message(
            "{where}: adjourned, result not known yet (a draw for pairing only){players}",
            where=where,
            players=players_of(tx, game),
        ),
        {"round": game.round, "board": game.board, "adjourned": True},
    )


def decisive_warning(tx: Tx, game: GameRow, value: GameResult) -> FideWarning:
    """The level-3 warning of a decisive result entered for an adjourned game."""
    starts = dict(
        tx.session.execute(
            EntryRow.__table__.select()
            .with_only_columns(EntryRow.number, EntryRow.start)
            .where(EntryRow.tournament_id == tx.tournament_id)
        ).all()
    )
    white, black = starts.get(game.white), starts.get(game.black)
    return FideWarning(
        code="adjourned-decisive",
        level=Level.CONFIRM,
        message=Message(
            "round {round} board {board} was adjourned: the decisive result {result} replaces "
            "the provisional draw the later pairings counted",
            round=game.round,
            board=game.board,
            result=value.label(),
        ),
        trf=f"Adjournment: board {game.board}, {white} - {black} {value.label()} "
        "(adjourned, was paired as a draw)",
        round=game.round,
    )


def resumed(tx: Tx, game: GameRow, value: GameResult, why: Reason, confirm: str | None) -> Done:
    """The real result of the adjourned ``game``; a decisive one needs the level-3
    confirmation (``confirm``), else :class:`ConfirmationNeeded` and nothing changes."""
    where = Message("round {round} board {board}", round=game.round, board=game.board)
    warnings = [] if value.white is Outcome.DRAW else [decisive_warning(tx, game, value)]
    code = result_code(value)
    action = f"adjourned-result {game.round} {game.board} {code}"
    confirmed = settle(tx.tournament_id, tx.tournament.revision, action, warnings, confirm)
    tx.update(game, result=code, reason=why.value)
    summary = Message(
        "{summary} (the adjourned game's result)",
        summary=result_summary(where, result_words(value, why), players_of(tx, game)),
    )
    return logged(finish_by_itself(tx, summary), confirmed)


class Adjournments:
    """Use cases of adjourned games: adjourn one, enter its real result later."""

    def __init__(self, frame: ChangeFrame) -> None:
        self.frame = frame

    def adjourn_game(
        self,
        tournament_id: int,
        round_number: int,
        board: int,
        *,
        actor: str = "",
        idempotency_key: str | None = None,
    ) -> Change:
        """Record a game without a result as adjourned (its result not known yet)."""
        request = {"op": "adjourn", "round": round_number, "board": board}

        def body(tx: Tx) -> Done:
            return adjourn(tx, open_game(tx, round_number, board))

        return self.frame.change(
            tournament_id,
            "adjourned",
            body,
            actor=actor,
            idempotency_key=idempotency_key,
            request=request,
        )

    def adjourned_result(
        self,
        tournament_id: int,
        round_number: int,
        board: int,
        result: str | GameResult,
        *,
        confirm: str | None = None,
        actor: str = "",
    ) -> Change:
        """The real result of an adjourned game; a decisive one with the confirmation
        token its level-3 warning gave (``confirm``)."""
        value = result if isinstance(result, GameResult) else GameResult.parse(result)
        if not value.is_decided:
            raise RuleError(
                "{result} is not a result: use 1-0, ½-½, 0-1, +-, -+ or --",
                result=repr(value.label()),
            )
        why = Reason.NO_SHOW if value.is_forfeit else Reason.NORMAL

        def body(tx: Tx) -> Done:
            game = open_game(tx, round_number, board)
            if game.result != ADJOURNED:
                raise RuleError(
                    "round {round} board {board} is not adjourned (it has {result})",
                    round=round_number,
                    board=board,
                    result=result_label(game.result),
                )
            return resumed(tx, game, value, why, confirm)

        return self.frame.change(tournament_id, "result", body, actor=actor)
