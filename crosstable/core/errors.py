"""Exceptions of the core. Every message is written for an arbiter, not a programmer."""

from __future__ import annotations


class CrosstableError(Exception):
    """Base class of every error the product raises on purpose."""


class RuleError(CrosstableError, ValueError):
    """A request that the tournament rules do not allow (bad point system, bad field size…)."""


class ScheduleError(CrosstableError, ValueError):
    """A schedule that cannot be built or that fails verification."""


class InputError(CrosstableError, ValueError):
    """Bad input text: names the source, the line and the column where it is wrong.

    >>> str(InputError("rating is not a number", source="a.trf", line=3, column=49))
    'a.trf:3:49: rating is not a number'
    """

    def __init__(
        self,
        message: str,
        *,
        source: str = "<input>",
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        super().__init__(self.location() + ": " + message)

    def location(self) -> str:
        parts = [self.source]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)
