"""Errors of the service layer, each a one-line message for the arbiter (a template and its
parameters, as every :class:`~crosstable.core.errors.CrosstableError`)."""

from __future__ import annotations

from crosstable.core.errors import CrosstableError, RuleError

__all__ = ["ConflictError", "NotFoundError", "RuleError"]


class NotFoundError(CrosstableError, LookupError):
    """No such tournament, player, round or game."""


class ConflictError(CrosstableError):
    """Someone else changed the same thing first; ``current`` is what is there now.

    >>> str(ConflictError("round 1 board 2 already has 1-0", current="1-0"))
    'round 1 board 2 already has 1-0'
    >>> ConflictError("{where} already has {result}", where="round 1 board 2", result="1-0").params
    {'where': 'round 1 board 2', 'result': '1-0'}
    """

    def __init__(self, message: str, /, *, current: str | None = None, **params: object) -> None:
        super().__init__(message, **params)
        self.current = current
