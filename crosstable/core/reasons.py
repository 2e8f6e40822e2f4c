"""Why a game ended as it did, recorded with its result (:class:`Reason`).

A result's reason is ``normal`` (played at the board), ``no-show`` (a forfeit: a
player was absent), ``setup-timeout`` (battle chess: who did not finish setting up
the pieces in time; :mod:`crosstable.core.battle`) or ``adjudicated`` (decided by
the arbiter, e.g. a game a server could not finish). The reason must fit the result:

>>> check_reason(GameResult.parse("+-"), Reason.NO_SHOW)
>>> check_reason(GameResult.parse("1-0"), Reason.NO_SHOW)
Traceback (most recent call last):
...
crosstable.core.errors.RuleError: reason no-show: a no-show is a forfeit (+-, -+ or --), not 1-0
>>> reason_words(Reason.ADJUDICATED, GameResult.parse("1-0"))
' (adjudicated)'
>>> reason_words(Reason.NO_SHOW, GameResult.parse("+-"))
''
"""

from __future__ import annotations

from crosstable.core.errors import RuleError
from crosstable.core.model import GameResult, Reason

#: the words of a reason in a history line (the usual reason of a result says nothing)
WORDS = {
    Reason.NO_SHOW: "no-show",
    Reason.SETUP_TIMEOUT: "set-up timeout",
    Reason.ADJUDICATED: "adjudicated",
    Reason.NORMAL: "played",
}


def default_reason(result: GameResult) -> Reason:
    """The reason a result has when none is given: a forfeit is a no-show."""
    return Reason.NO_SHOW if result.is_forfeit else Reason.NORMAL


def check_reason(result: GameResult, reason: Reason) -> None:
    """Refuse a reason that does not fit the result (the set-up timeout's own rule is
    :func:`crosstable.core.battle.is_setup_result`, checked where battle chess is known)."""
    if reason is Reason.NO_SHOW and not result.is_forfeit:
        raise RuleError(
            "reason no-show: a no-show is a forfeit (+-, -+ or --), not {result}",
            result=result.label(),
        )
    if reason is Reason.NORMAL and result.is_forfeit:
        raise RuleError(
            (
                "reason normal: {result} is a forfeit, not a game played at the board (the reason "
                "of a forfeit is no-show)"
            ),
            result=result.label(),
        )


def reason_words(reason: Reason | str, result: GameResult) -> str:
    """`` (adjudicated)`` for a history line; nothing for the result's usual reason."""
    why = reason if isinstance(reason, Reason) else Reason(reason)
    if why is default_reason(result):
        return ""
    return f" ({WORDS[why]})"
