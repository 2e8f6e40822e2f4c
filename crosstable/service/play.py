"""From the start to the finish: schedule, results, reports, forfeits, withdrawals."""

from __future__ import annotations

from typing import Protocol

from crosstable.core.errors import RuleError
from crosstable.core.model import GameResult, Outcome, Reason
from crosstable.core.text import Message
from crosstable.service.adjourned import Adjournments, resumed
from crosstable.service.adjournment_state import ADJOURNED, is_adjournment
from crosstable.service.errors import ConflictError, NotFoundError
from crosstable.service.fide_actions import withdrawal_note
from crosstable.service.fide_mode import in_fide_mode
from crosstable.service.finishing import final_standing, finish_by_itself, fix_places, winners
from crosstable.service.frame import Change, ChangeFrame, Done, EventData, Unchanged
from crosstable.service.game_rows import open_game, players_of
from crosstable.service.loading import Loaded, result_code, result_label, result_of
from crosstable.service.past_results import correction_warnings
from crosstable.service.recording import record_fast, result_summary, result_words
from crosstable.service.start_rules import check_start
from crosstable.service.systems import rules_of
from crosstable.service.unit import Tx
from crosstable.service.warning_levels import logged, settle
from crosstable.store.models import EntryRow, GameRow

ResultLike = str | GameResult


def parse_result(result: ResultLike) -> GameResult:
    """A game result from its usual spellings (``1-0``, ``½-½``, ``1/2-1/2``, ``=``, ``+-``…)."""
    value = result if isinstance(result, GameResult) else GameResult.parse(result)
    if not value.is_decided:
        raise RuleError(
            "{result} is not a result: use 1-0, ½-½, 0-1, +-, -+ or --", result=repr(value.label())
        )
    return value


class ResultRecorder(Protocol):
    """Who records a result: the use case :meth:`Play.record_result` as the service
    shows it (with the checks of a variant around it, as battle chess's)."""

    def record_result(
        self,
        tournament_id: int,
        round_number: int,
        board: int,
        result: ResultLike,
        *,
        actor: str = "",
        idempotency_key: str | None = None,
        expected_version: int | None = None,
        reason: Reason | None = None,
    ) -> Change: ...


class Play:
    """Use cases from the start to the finish.

    ``results`` records the result of a forfeit (:meth:`mark_forfeit`): the service,
    so that the checks around its :meth:`record_result` apply (None: this part's own)."""

    def __init__(self, frame: ChangeFrame, results: ResultRecorder | None = None) -> None:
        self.frame = frame
        self.results: ResultRecorder = self if results is None else results
        self.adjournments = Adjournments(frame)

    def start(self, tournament_id: int, *, actor: str = "") -> Change:
        """Fix the schedule (round robin: FIDE Berger tables) and open round 1."""

        def body(tx: Tx) -> Done:
            row = tx.tournament
            if row.status != "registration":
                raise RuleError(
                    "the tournament has already started (it is {status})", status=row.status
                )
            check_start(tx.session, row)  # the portal's rules (fair play)
            loaded = Loaded(tx.session, row)
            if not loaded.drawn:
                raise RuleError("draw lots first: the starting numbers are not fixed")
            return rules_of(row).start(tx, loaded, random=self.frame.random)

        return self.frame.change(tournament_id, "start", body, actor=actor)

    def record_result(
        self,
        tournament_id: int,
        round_number: int,
        board: int,
        result: ResultLike,
        *,
        actor: str = "",
        idempotency_key: str | None = None,
        expected_version: int | None = None,
        reason: Reason | None = None,
    ) -> Change:
        """Enter the result of a game that has none yet (the organiser, or a game server).

        The same result again is accepted once; a different one is a conflict that
        names the result already there (change it with :meth:`correct_result`).
        """
        if is_adjournment(result):  # ``*``: adjourned, the result not known yet
            return self.adjournments.adjourn_game(
                tournament_id, round_number, board, actor=actor, idempotency_key=idempotency_key
            )
        value = parse_result(result)
        why = reason or (Reason.NO_SHOW if value.is_forfeit else Reason.NORMAL)
        request = _request("record", round_number, board, value)
        if why != _reason_for(value):  # (a key sent again with another reason is refused)
            request["reason"] = why.value
        if expected_version is not None:
            request["expected_version"] = expected_version
        if self.frame.fast_path:
            fast = record_fast(
                self.frame,
                tournament_id,
                round_number,
                board,
                value,
                why,
                request,
                actor=actor,
                idempotency_key=idempotency_key,
                expected_version=expected_version,
            )
            if fast is not None:
                return fast

        def body(tx: Tx) -> Done:
            code = result_code(value)
            where = Message("round {round} board {board}", round=round_number, board=board)
            if tx.tournament.status == "finished":  # (perhaps by the last result of another)
                _settled(tx, round_number, board, code)
            game = open_game(tx, round_number, board)
            _check_version(game, expected_version, round_number, board)
            if game.result == ADJOURNED:  # its real result (decisive: a level-3 warning)
                return resumed(tx, game, value, why, None)
            if game.result == code:
                raise Unchanged(
                    Message(
                        "{where}: {result} is already recorded", where=where, result=value.label()
                    )
                )
            if game.result is not None:
                raise ConflictError(
                    "{where} already has {result}; to change it, correct the result",
                    current=result_label(game.result),
                    where=where,
                    result=result_label(game.result),
                )
            tx.update(game, result=code, reason=why.value)
            return finish_by_itself(
                tx, result_summary(where, result_words(value, why), players_of(tx, game))
            )

        return self.frame.change(
            tournament_id,
            "result",
            body,
            actor=actor,
            idempotency_key=idempotency_key,
            request=request,
        )

    def correct_result(
        self,
        tournament_id: int,
        round_number: int,
        board: int,
        result: ResultLike | None,
        *,
        expected: ResultLike | None = None,
        actor: str = "",
        idempotency_key: str | None = None,
        reason: Reason | None = None,
        confirm: str | None = None,
    ) -> Change:
        """Change (or clear, with None) a recorded result; ``expected`` guards against
        correcting something that someone else changed meanwhile. In FIDE mode a result
        of an earlier round takes FIDE's warning (``confirm``: service/past_results.py)."""
        value = None if result is None else parse_result(result)
        guard = None if expected is None else parse_result(expected)
        request = _request("correct", round_number, board, value)

        def body(tx: Tx) -> Done:
            game = open_game(tx, round_number, board)
            where = Message("round {round} board {board}", round=round_number, board=board)
            if game.result is None:
                raise RuleError("{where} has no result yet: record it instead", where=where)
            if guard is not None and game.result != result_code(guard):
                raise ConflictError(
                    "{where} is {result} now, not {guard}",
                    current=result_label(game.result),
                    where=where,
                    result=result_label(game.result),
                    guard=guard.label(),
                )
            code = result_code(value)
            why = reason or (Reason.NO_SHOW if value and value.is_forfeit else Reason.NORMAL)
            if game.result == ADJOURNED and value is not None:  # as entering it: level 3
                return resumed(tx, game, value, why, confirm)
            before = result_label(game.result)
            if game.result == code and game.reason == why.value:
                raise Unchanged(Message("{where} is already {result}", where=where, result=before))
            warnings = correction_warnings(tx, game, code)
            action = f"correct {round_number} {board} {code} {why.value}"
            confirmed = settle(tx.tournament_id, tx.tournament.revision, action, warnings, confirm)
            tx.update(game, result=code, reason=why.value)
            rules_of(tx.tournament).check_correction(tx)
            after = "cleared" if value is None else result_words(value, why)
            said = Message(
                "{where}: {before} corrected to {after}{players}",
                where=where,
                before=before,
                after=after,
                players=players_of(tx, game),
            )
            return logged(Done(said, {}), confirmed)

        return self.frame.change(
            tournament_id,
            "correction",
            body,
            actor=actor,
            idempotency_key=idempotency_key,
            request=request,
        )

    def mark_forfeit(
        self,
        tournament_id: int,
        round_number: int,
        board: int,
        *,
        absent: str,
        actor: str = "",
        idempotency_key: str | None = None,
    ) -> Change:
        """A game not played: ``absent`` is ``"white"``, ``"black"`` or ``"both"`` (``--``)."""
        codes = {"white": "-+", "black": "+-", "both": "--"}
        if absent not in codes:
            raise RuleError("absent is white, black or both, not {absent}", absent=repr(absent))
        return self.results.record_result(
            tournament_id,
            round_number,
            board,
            codes[absent],
            actor=actor,
            idempotency_key=idempotency_key,
            reason=Reason.NO_SHOW,
        )

    def report_result(
        self,
        tournament_id: int,
        round_number: int,
        board: int,
        result: ResultLike,
        *,
        player: int,
        actor: str = "",
        idempotency_key: str | None = None,
    ) -> Change:
        """A player (by starting number) reports the result of their game.

        Both players reporting the same result makes it the result; different
        reports make a dispute that the organiser decides (:meth:`confirm_result`).
        """
        value = parse_result(result)
        request = _request("report", round_number, board, value) | {"player": player}

        def body(tx: Tx) -> str | Done:
            game = open_game(tx, round_number, board)
            where = Message("round {round} board {board}", round=round_number, board=board)
            loaded = Loaded(tx.session, tx.tournament)
            white, black = loaded.start_of(game.white), loaded.start_of(game.black)
            if player not in (white, black):
                raise RuleError(
                    "player {player} does not play {where} ({white} – {black})",
                    player=player,
                    where=where,
                    white=white,
                    black=black,
                )
            code = result_code(value)
            if game.result is not None:
                if game.result == code:
                    raise Unchanged(
                        Message(
                            "{where}: {result} is already the result",
                            where=where,
                            result=value.label(),
                        )
                    )
                raise ConflictError(
                    "{where} is already recorded as {result}; ask the organiser to correct it",
                    current=result_label(game.result),
                    where=where,
                    result=result_label(game.result),
                )
            side = "white_report" if player == white else "black_report"
            if not tx.update(game, **{side: code}):
                raise Unchanged(
                    Message(
                        "{where}: player {player} already reported {result}",
                        where=where,
                        player=player,
                        result=value.label(),
                    )
                )
            other = game.black_report if side == "white_report" else game.white_report
            text = Message(
                "{where}: player {player} reports {result}",
                where=where,
                player=player,
                result=value.label(),
            )
            if other is None:
                return Message("{summary} (awaiting confirmation)", summary=text)
            if other == code:
                tx.update(game, result=code, reason=_reason_for(value).value)
                agreed = Message("{summary}; both players agree, result recorded", summary=text)
                return finish_by_itself(tx, agreed)
            return Message(
                "{summary}; the opponent reported {result}: disputed",
                summary=text,
                result=result_label(other),
            )

        return self.frame.change(
            tournament_id,
            "report",
            body,
            actor=actor,
            idempotency_key=idempotency_key,
            request=request,
        )

    def confirm_result(
        self,
        tournament_id: int,
        round_number: int,
        board: int,
        result: ResultLike | None = None,
        *,
        actor: str = "",
    ) -> Change:
        """The organiser confirms a reported result, or decides a dispute by naming it."""
        value = None if result is None else parse_result(result)

        def body(tx: Tx) -> Done:
            game = open_game(tx, round_number, board)
            where = Message("round {round} board {board}", round=round_number, board=board)
            if game.result is not None:
                raise RuleError(
                    "{where} already has {result}: correct it instead",
                    where=where,
                    result=result_label(game.result),
                )
            reports = {code for code in (game.white_report, game.black_report) if code}
            if value is None:
                if not reports:
                    raise RuleError(
                        "{where}: nobody reported a result; name the result", where=where
                    )
                if len(reports) > 1:
                    raise RuleError(
                        (
                            "{where} is disputed (White reported {white}, Black {black}): name "
                            "the result that stands"
                        ),
                        where=where,
                        white=result_label(game.white_report),
                        black=result_label(game.black_report),
                    )
                code: str | None = reports.pop()
            else:
                code = result_code(value)
            decided = result_of(code)
            assert decided is not None
            tx.update(game, result=code, reason=_reason_for(decided).value)
            values = {"where": where, "result": decided.label(), "players": players_of(tx, game)}
            summary = (
                Message("{where}: {result} decided by the organiser{players}", **values)
                if len(reports) > 1
                else Message("{where}: {result} confirmed by the organiser{players}", **values)
            )
            return finish_by_itself(tx, summary)

        return self.frame.change(tournament_id, "confirmation", body, actor=actor)

    def reject_reports(
        self, tournament_id: int, round_number: int, board: int, *, actor: str = ""
    ) -> Change:
        """The organiser rejects what the players reported (the game stays without a result)."""

        def body(tx: Tx) -> str:
            game = open_game(tx, round_number, board)
            where = Message("round {round} board {board}", round=round_number, board=board)
            if not tx.update(game, white_report=None, black_report=None):
                raise RuleError("{where}: there is no report to reject", where=where)
            return Message("{where}: reported results rejected by the organiser", where=where)

        return self.frame.change(tournament_id, "rejection", body, actor=actor)

    def withdraw(
        self,
        tournament_id: int,
        start: int,
        *,
        from_round: int | None = None,
        actor: str = "",
    ) -> Change:
        """A player leaves: every game of theirs without a result, from ``from_round`` on,
        becomes a forfeit (the opponent gets +; both withdrawn: --) ."""

        def body(tx: Tx) -> Done:
            row = tx.tournament
            if row.status == "registration":
                raise RuleError("the tournament has not started: remove the player instead")
            if row.status == "finished":
                raise RuleError("the tournament is finished: a withdrawal is no longer possible")
            loaded = Loaded(tx.session, row)
            entry = still_playing(loaded, start)
            done = rules_of(row).withdraw(tx, loaded, entry, from_round)
            if not in_fide_mode(tx.session, row) or entry.withdrawn_from is None:
                return done
            note = withdrawal_note(entry.start, entry.name, entry.withdrawn_from)
            return logged(done, [note])  # (a ### Withdrawal line in the TRF)

        return self.frame.change(
            tournament_id, "withdrawal", lambda tx: finish_by_itself(tx, body(tx)), actor=actor
        )

    def finish(self, tournament_id: int, *, actor: str = "") -> Change:
        """Every game has a result: the places become final (withdrawal rule applied).

        A tournament usually finishes by itself with its last result
        (:mod:`crosstable.service.finishing`); finishing a finished tournament
        changes nothing and says so (a replayed change)."""

        def body(tx: Tx) -> Done:
            row = tx.tournament
            if row.status == "registration":
                raise RuleError("the tournament has not started")
            loaded = Loaded(tx.session, row)
            if row.status == "finished":
                raise Unchanged(
                    Message(
                        "the tournament is finished already: places are final; first: {winners}",
                        winners=winners(loaded),
                    )
                )
            places = final_standing(tx, loaded)
            return Done(
                Message("tournament finished: {places}", places=fix_places(tx, loaded, places)), {}
            )

        return self.frame.change(tournament_id, "finish", body, actor=actor)


def still_playing(loaded: Loaded, start: int) -> EntryRow:
    """The player of starting number ``start``, who has not withdrawn (else refused)."""
    entry = loaded.entry_by_start(start)
    if entry is None:
        raise NotFoundError("there is no player with starting number {start}", start=start)
    if entry.withdrawn_from is not None:
        raise RuleError(
            "player {start} {name} withdrew already (from round {round})",
            start=start,
            name=entry.name,
            round=entry.withdrawn_from,
        )
    return entry


def _request(op: str, round_number: int, board: int, value: GameResult | None) -> EventData:
    return {"op": op, "round": round_number, "board": board, "result": result_code(value)}


def _reason_for(value: GameResult) -> Reason:
    return Reason.NO_SHOW if value.is_forfeit else Reason.NORMAL


def _check_version(game: GameRow, expected: int | None, round_number: int, board: int) -> None:
    if expected is not None and game.version != expected:
        raise ConflictError(
            (
                "round {round} board {board} changed meanwhile (version {version}, not "
                "{expected}): it is {result} now"
            ),
            current=result_label(game.result),
            round=round_number,
            board=board,
            version=game.version,
            expected=expected,
            result=result_label(game.result),
        )


def _settled(tx: Tx, round_number: int, board: int, code: str | None) -> None:
    """A result for a game of a finished tournament: the same result is there already
    (nothing to do), or another one (a conflict naming it), as while it was running."""
    game = tx.session.get(GameRow, (tx.tournament_id, round_number, board))
    if game is None or game.result is None:
        return
    where = Message("round {round} board {board}", round=round_number, board=board)
    if game.result == code:
        raise Unchanged(
            Message("{where}: {result} is already recorded", where=where, result=result_label(code))
        )
    raise ConflictError(
        "{where} already has {result}; the tournament is finished and its places are fixed",
        current=result_label(game.result),
        where=where,
        result=result_label(game.result),
    )


__all__ = ["Outcome", "Play", "parse_result"]
