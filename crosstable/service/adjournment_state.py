"""Which games are adjourned (result not known yet), and the checks that refuse to go on
while one is open: the final standings and the FIDE rating report (crosstable.service.adjourned
records them and their later results)."""

from __future__ import annotations

from collections.abc import Sequence

from crosstable.core.errors import RuleError
from crosstable.core.model import GameResult, Outcome, Reason, System
from crosstable.core.pairing.dutch import default_rounds
from crosstable.core.text import Message
from crosstable.service.frame import Done
from crosstable.service.loading import Loaded
from crosstable.service.unit import Tx
from crosstable.service.warning_levels import FideWarning, Level, settle
from crosstable.store.models import GameRow

#: the stored result of an adjourned game (both sides' outcome unknown)
ADJOURNED = "**"


def is_adjournment(result: str | GameResult) -> bool:
    """``*`` (or ``**``, or ``adjourned``): the game is adjourned, its result not known.

    >>> is_adjournment("*"), is_adjournment("adjourned"), is_adjournment("1-0")
    (True, True, False)
    """
    if isinstance(result, GameResult):
        return result.white is Outcome.UNKNOWN and result.black is Outcome.UNKNOWN
    return result.strip().lower() in ("*", "**", "adjourned", "?")


def open_adjourned(loaded: Loaded) -> list[GameRow]:
    """The tournament's adjourned games still without their result, in round order."""
    return [g for g in loaded.games if g.result == ADJOURNED]


def games_listed(games: Sequence[GameRow]) -> Message:
    """``round 2 board 3, round 3 board 1`` (five at most, then how many more)."""
    listed = Message.joined(
        ", ",
        (Message("round {round} board {board}", round=g.round, board=g.board) for g in games[:5]),
    )
    if len(games) > 5:
        listed = Message("{item} and {count} more", item=listed, count=len(games) - 5)
    return listed


def check_none_open(loaded: Loaded) -> None:
    """RuleError naming the adjourned games while any has no result (no final standings,
    no FIDE rating report)."""
    games = open_adjourned(loaded)
    if len(games) == 1:
        raise RuleError(
            "1 adjourned game has no result yet: {listed}; enter its result first",
            listed=games_listed(games),
        )
    if games:
        raise RuleError(
            "{count} adjourned games have no result yet: {listed}; enter their results first",
            count=len(games),
            listed=games_listed(games),
        )


def pairing_warnings(loaded: Loaded, number: int) -> tuple[list[GameRow], list[FideWarning]]:
    """Before pairing round ``number``: the games without a result (to record as
    adjourned) and the level-2 warnings (those, and games adjourned before the last
    completed round that are still open)."""
    missing = [g for g in loaded.games if g.result is None and g.round < number]
    warnings: list[FideWarning] = []
    if missing:
        warnings.append(
            FideWarning(
                code="adjourned-by-pairing",
                level=Level.ACKNOWLEDGE,
                message=Message(
                    "games without a result are recorded as adjourned (a draw for pairing "
                    "only): {listed}",
                    listed=games_listed(missing),
                ),
                round=number,
            )
        )
    last_completed = number - 1
    old = [g for g in open_adjourned(loaded) if g.round < last_completed]
    if old:
        warnings.append(
            FideWarning(
                code="adjourned-still-open",
                level=Level.ACKNOWLEDGE,
                message=Message(
                    "adjourned games from before round {round} still have no result: {listed}",
                    round=last_completed,
                    listed=games_listed(old),
                ),
                round=number,
            )
        )
    return missing, warnings


def adjourn_missing(
    tx: Tx, loaded: Loaded, number: int, request: str, confirm: str | None, *, later: bool = False
) -> tuple[list[GameRow], tuple[FideWarning, ...]]:
    """Before round ``number`` is paired: the games without a result recorded as adjourned,
    once the level-2 warnings (:func:`pairing_warnings`) are acknowledged with ``confirm``
    (else :class:`ConfirmationNeeded`, nothing changed); the games and the warnings.
    ``later``: recorded now, the warnings returned unsettled for the caller to settle
    with its own (its refusal undoes these records with the rest)."""
    planned = loaded.row.rounds_planned or default_rounds(len(loaded.entries))
    if number > planned:  # (nothing to pair: the pairing says so)
        return [], ()
    missing, said = pairing_warnings(loaded, number)
    action = f"publish {number} {request}"
    acknowledged = (
        tuple(said)
        if later
        else settle(tx.tournament_id, tx.tournament.revision, action, said, confirm)
    )
    for game in missing:
        tx.update(game, result=ADJOURNED, reason=Reason.NORMAL.value)
    if missing:
        tx.flush()
    return missing, acknowledged


def with_acknowledged(done: Done, warnings: Sequence[FideWarning]) -> Done:
    """``done`` with the acknowledged level-2 warnings in its history line and data (not
    written to the TRF: the adjourned games are there as ``?`` and their results)."""
    if not warnings:
        return done
    summary = Message(
        "{summary} (acknowledged warning, level 2: {warnings})",
        summary=done.summary,
        warnings=Message.joined("; ", [w.message for w in warnings]),
    )
    return Done(summary, done.data | {"acknowledged": [w.as_json() for w in warnings]})


def check_report(loaded: Loaded) -> None:
    """Refuse the FIDE TRF (the rating report) of a tournament whose play is over but for
    adjourned games without their result. Before that, an export is an interim file for
    pairing programs, with each adjourned game written as ``?`` (TRF-2026, record 162 X)."""
    games = open_adjourned(loaded)
    if not games or any(g.result is None for g in loaded.games):
        return
    if loaded.row.system == System.SWISS_DUTCH.value:
        planned = loaded.row.rounds_planned or default_rounds(len(loaded.entries))
        if len({g.round for g in loaded.games}) < planned:
            return  # a round to pair: the file is the pairing program's
    raise RuleError(
        "no FIDE TRF (rating report) while an adjourned game has no result: {listed}; "
        "enter its result first",
        listed=games_listed(games),
    )


def as_if_adjourned(loaded: Loaded) -> None:
    """For a look at the next pairing only (a read that is never written): the games
    without a result read as adjourned, as publishing the round would record them."""
    for game in loaded.games:
        if game.result is None:
            game.result = ADJOURNED
