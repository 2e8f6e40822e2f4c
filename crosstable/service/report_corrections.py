"""Corrections meant for the rating report only.

An arbiter sometimes has to report a game otherwise than it stands for the pairings
and the standings (a result the rating officer must see corrected, while the pairings
already made and the places already published keep the result as it was played). Such
a correction is kept apart from the games, in the regulations' JSON
(``report_corrections``, a JSON text: each a round, a board, the result and the
reason), changes
nothing the pairings or the standings read, and goes into the TRF export only: the
game's result in the players' lines, and a ``### Report correction @ Round n: …``
line saying what and why. It is a change like any other: in the history, undone by
undo.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from crosstable.core.errors import RuleError
from crosstable.core.model import GameResult, Round, Tournament
from crosstable.core.regulations import REPORT_CORRECTIONS
from crosstable.core.text import Message
from crosstable.formats.trf_model import Comment
from crosstable.service.details import Details
from crosstable.service.errors import NotFoundError
from crosstable.service.frame import Change, ChangeFrame, Done
from crosstable.service.loading import Loaded, result_code, result_of
from crosstable.service.play import parse_result
from crosstable.service.read_views import JsonObject
from crosstable.service.unit import Tx
from crosstable.store.models import TournamentRow

#: the regulations' key that keeps the corrections
KEY = REPORT_CORRECTIONS
#: the longest reason kept
REASON_LENGTH = 200
#: the most corrections a tournament keeps (a bound on what the JSON holds)
MOST = 10_000


@dataclass(frozen=True, slots=True)
class ReportCorrection:
    """A game's result as the rating report is to give it, and why."""

    round: int
    board: int
    result: str  # the stored code, e.g. "10", "+-"
    reason: str

    def as_json(self) -> JsonObject:
        return {
            "round": self.round,
            "board": self.board,
            "result": self.result,
            "reason": self.reason,
        }

    @property
    def label(self) -> str:
        found = result_of(self.result)
        return "" if found is None else found.label()


def corrections_in(details: Details | None) -> tuple[ReportCorrection, ...]:
    """The corrections the details keep, in round and board order (what does not read
    is left out: the service wrote them)."""
    text = (details or {}).get(KEY)
    try:  # (kept as JSON text: the details are texts)
        kept = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        kept = None
    found = []
    for item in kept if isinstance(kept, list) else []:
        if isinstance(item, dict):
            try:
                found.append(
                    ReportCorrection(
                        int(item["round"]),
                        int(item["board"]),
                        str(item["result"]),
                        str(item["reason"]),
                    )
                )
            except (KeyError, TypeError, ValueError):
                continue
    return tuple(sorted(found, key=lambda c: (c.round, c.board)))


def reported(tournament: Tournament, corrections: tuple[ReportCorrection, ...]) -> Tournament:
    """The tournament as the rating report gives it: each corrected game's result."""
    if not corrections:
        return tournament
    wanted = {(c.round, c.board): result_of(c.result) for c in corrections}
    rounds: list[Round] = []
    for rnd in tournament.rounds:
        games = tuple(
            replace(g, result=wanted[(rnd.number, g.board)])
            if (rnd.number, g.board) in wanted
            else g
            for g in rnd.games
        )
        rounds.append(replace(rnd, games=games))
    return replace(tournament, rounds=tuple(rounds))


def report_comments(corrections: tuple[ReportCorrection, ...]) -> tuple[Comment, ...]:
    """The ``###`` lines of the corrections, one a game."""
    return tuple(
        Comment(f" Report correction @ Round {c.round}: board {c.board}: {c.label} ({c.reason})")
        for c in corrections
    )


class ReportCorrections:
    """The use cases of the corrections for the rating report."""

    def __init__(self, frame: ChangeFrame) -> None:
        self.frame = frame

    def report_corrections(self, tournament_id: int) -> tuple[ReportCorrection, ...]:
        with self.frame.store.reading() as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                raise NotFoundError(
                    "there is no tournament {tournament} in this database", tournament=tournament_id
                )
            return corrections_in(row.regulations)

    def correct_for_report(
        self,
        tournament_id: int,
        round_number: int,
        board: int,
        result: str | GameResult | None,
        *,
        reason: str = "",
        actor: str = "",
    ) -> Change:
        """Report game ``round_number``/``board`` with ``result`` in the TRF only (None:
        take the correction back); the pairings and the standings keep the game as it
        stands."""
        why = " ".join(reason.split())
        if result is not None and not why:
            raise RuleError("a correction for the rating report needs its reason")
        if len(why) > REASON_LENGTH:
            raise RuleError("the reason is longer than {count} characters", count=REASON_LENGTH)
        code = None if result is None else result_code(parse_result(result))

        def body(tx: Tx) -> Done:
            loaded = Loaded(tx.session, tx.tournament)
            game = next(
                (g for g in loaded.games if g.round == round_number and g.board == board), None
            )
            if game is None:
                raise RuleError(
                    "round {round} has no board {board}", round=round_number, board=board
                )
            row = tx.tournament
            before = corrections_in(row.regulations)
            kept = [c for c in before if (c.round, c.board) != (round_number, board)]
            if code is None:
                if len(kept) == len(before):
                    raise RuleError(
                        "round {round} board {board} has no correction for the rating report",
                        round=round_number,
                        board=board,
                    )
                summary = Message(
                    "round {round} board {board}: the rating report's correction taken back",
                    round=round_number,
                    board=board,
                )
            else:
                if len(kept) >= MOST:
                    raise RuleError("at most {count} corrections are kept", count=MOST)
                kept.append(ReportCorrection(round_number, board, code, why))
                summary = Message(
                    "round {round} board {board}: reported as {result} in the rating report "
                    "only ({reason})",
                    round=round_number,
                    board=board,
                    result=kept[-1].label,
                    reason=why,
                )
            details = {k: v for k, v in (row.regulations or {}).items() if k != KEY}
            if kept:
                ordered = sorted(kept, key=lambda c: (c.round, c.board))
                details[KEY] = json.dumps([c.as_json() for c in ordered], ensure_ascii=False)
            tx.update(row, regulations=details)
            return Done(summary, {"round": round_number, "board": board, "result": code})

        return self.frame.change(tournament_id, "report-correction", body, actor=actor)


__all__ = [
    "KEY",
    "ReportCorrection",
    "ReportCorrections",
    "corrections_in",
    "report_comments",
    "reported",
]
