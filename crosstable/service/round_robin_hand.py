"""A round robin's round paired by hand, checked against the table.

The arbiter re-pairs one round whose games have not begun (no result, no report) by
giving its boards. The round must seat every player once and repeat no pair of a played
round of the same cycle; the cycle's other unplayed rounds are re-planned so that every
pair still meets exactly once in the cycle (:mod:`crosstable.core.schedule.hand_round`).
The games of every changed round are rewritten in one change of the history, so undo
restores the table. In FIDE mode it is a level-3 warning; in and out of FIDE mode the
TRF export states it as a ``### Pairing @ Round n: …`` line, which ``crosstable check``
reads (:mod:`crosstable.core.checker.hand_rounds`).
"""

from __future__ import annotations

from collections.abc import Sequence

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.core.schedule.hand_round import CycleRound, hand_round, moved_pairs
from crosstable.core.teams.settings import is_team_tournament
from crosstable.core.text import Message
from crosstable.service.fide_mode import in_fide_mode
from crosstable.service.frame import Change, ChangeFrame, Done
from crosstable.service.loading import Loaded
from crosstable.service.unit import Tx
from crosstable.service.warning_levels import FideWarning, Level, logged, settle
from crosstable.store.models import ByeRow, GameRow

#: the warning's code (FIDE mode)
HAND_ROUND = "round-robin-hand-pairing"


def boards_text(boards: Sequence[tuple[int, int]], bye: int | None) -> str:
    """``1-4, 2-3, 5 free``: a round as the history and the TRF line name it.

    >>> boards_text([(1, 4), (2, 3)], 5)
    '1-4, 2-3, 5 free'
    """
    said = [f"{white}-{black}" for white, black in boards]
    return ", ".join(said + ([f"{bye} free"] if bye is not None else []))


def _cycle(loaded: Loaded, number: int) -> tuple[list[CycleRound], dict[int, list[GameRow]]]:
    target = next((r for r in loaded.rounds if r.number == number), None)
    if target is None:
        raise RuleError(
            "there is no round {round} in this tournament (rounds 1–{rounds})",
            round=number,
            rounds=len(loaded.rounds),
        )
    rounds: list[CycleRound] = []
    games: dict[int, list[GameRow]] = {}
    for row in loaded.rounds:
        if row.cycle != target.cycle:
            continue
        mine = [g for g in loaded.games if g.round == row.number]
        byes = [b for b in loaded.byes if b.round == row.number]
        free = next((b.player for b in byes if b.kind == "free"), None)
        begun = any(g.result is not None or g.white_report or g.black_report for g in mine) or any(
            b.kind != "free" for b in byes
        )
        rounds.append(
            CycleRound(
                row.number,
                tuple((loaded.start_of(g.white), loaded.start_of(g.black)) for g in mine),
                None if free is None else loaded.start_of(free),
                begun,
            )
        )
        games[row.number] = mine
    return rounds, games


def repair_round(
    tx: Tx,
    number: int,
    boards: Sequence[tuple[int, int]],
    bye: int | None,
    confirm: str | None,
) -> Done:
    """The body: round ``number`` paired as ``boards`` (and ``bye``), the cycle re-planned."""
    row = tx.tournament
    if row.system != System.ROUND_ROBIN.value or is_team_tournament(row.regulations or {}):
        raise RuleError("a round paired by hand against the table is for a round robin of players")
    if row.status != "running":
        raise RuleError("the round robin is not running: its rounds cannot be paired by hand")
    loaded = Loaded(tx.session, row)
    before, games = _cycle(loaded, number)
    target = next(r for r in before if r.number == number)
    field = sorted({s for b in target.boards for s in b} | {target.bye or 0} - {0})
    after = hand_round(field, before, number, boards, bye)
    changed = moved_pairs(before, after)
    if not changed:
        return Done(Message("round {round} is already paired so", round=number))
    others = [n for n in changed if n != number]
    paired = next(r for r in after if r.number == number)
    listed = boards_text(paired.boards, paired.bye)
    replanned = ", ".join(map(str, others)) or "none"
    # FIDE mode: the arbiter confirms (level 3); else a note, for the TRF's line only
    level = Level.CONFIRM if in_fide_mode(tx.session, row) else Level.INFORM
    warnings = [
        FideWarning(
            code=HAND_ROUND,
            level=level,
            message=Message(
                "round {round} paired by hand instead of the table ({boards}); rounds "
                "re-planned so that every pair still meets once: {rounds}",
                round=number,
                boards=listed,
                rounds=replanned,
            ),
            consequences=(
                Message("for the players: the rounds changed are played as re-paired"),
                Message("for the rating officer: the TRF file states the hand pairing"),
            ),
            trf=f"Pairing: round {number} paired by hand ({listed}); rounds re-planned: "
            f"{replanned}",
            round=number,
        )
    ]
    action = f"round-robin-hand {number} {list(boards)!r} {bye!r}"
    confirmed = settle(row.id, row.revision, action, warnings, confirm)
    by_start = {e.start: e.number for e in loaded.entries if e.start is not None}
    for planned in after:
        if planned.number not in changed:
            continue
        rows = games[planned.number]
        for game, (white, black) in zip(rows, planned.boards, strict=True):
            tx.update(game, white=by_start[white], black=by_start[black])
        old = [b for b in loaded.byes if b.round == planned.number and b.kind == "free"]
        new_bye = None if planned.bye is None else by_start[planned.bye]
        if [b.player for b in old] != ([] if new_bye is None else [new_bye]):
            for gone in old:
                tx.delete(gone)
            if new_bye is not None:
                tx.insert(ByeRow(round=planned.number, player=new_bye, kind="free"))
    tx.flush()
    summary = Message(
        "round {round} paired by hand ({boards}); other rounds re-planned so that every pair "
        "meets once: {rounds}",
        round=number,
        boards=listed,
        rounds=", ".join(map(str, others)) or "none",
    )
    data = {
        "round": number,
        "boards": [list(b) for b in boards],
        "bye": paired.bye,
        "replanned": others,
    }
    return logged(Done(summary, data), confirmed)


class RoundRobinHand:
    """The use case of a round robin's round paired by hand."""

    def __init__(self, frame: ChangeFrame) -> None:
        self.frame = frame

    def pair_round_robin_round(
        self,
        tournament_id: int,
        round_number: int,
        boards: Sequence[tuple[int, int]],
        bye: int | None = None,
        *,
        actor: str = "",
        confirm: str | None = None,
    ) -> Change:
        """Pair round ``round_number`` of a round robin by hand (White-Black by starting
        numbers, ``bye`` the free round of an odd field); the other unplayed rounds of the
        cycle are re-planned so that every pair meets once. FIDE mode: a level-3 warning
        (ConfirmationNeeded; redo with its ``confirm`` token)."""
        return self.frame.change(
            tournament_id,
            "round-robin-hand-pairing",
            lambda tx: repair_round(tx, round_number, boards, bye, confirm),
            actor=actor,
        )


__all__ = ["HAND_ROUND", "RoundRobinHand", "boards_text", "repair_round"]
