"""Errors of the service layer, each a one-line message for the arbiter."""

from __future__ import annotations

from crosstable.core.errors import CrosstableError, RuleError

__all__ = ["ConflictError", "NotFoundError", "RuleError"]


class NotFoundError(CrosstableError, LookupError):
    """No such tournament, player, round or game."""


class ConflictError(CrosstableError):
    """Someone else changed the same thing first; ``current`` is what is there now.

    >>> str(ConflictError("round 1 board 2 already has 1-0", current="1-0"))
    'round 1 board 2 already has 1-0'
    """

    def __init__(self, message: str, *, current: str | None = None) -> None:
        super().__init__(message)
        self.current = current
