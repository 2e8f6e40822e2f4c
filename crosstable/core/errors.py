"""Exceptions of the core. Every message is written for an arbiter, not a programmer.

An error is raised with a message *template* and its named parameters, so a
reader's language is a gettext lookup away (:mod:`crosstable.core.text`)::

    >>> error = RuleError("there is no round {round} (rounds 1–{rounds})", round=9, rounds=7)
    >>> str(error)
    'there is no round 9 (rounds 1–7)'
    >>> error.template, error.params
    ('there is no round {round} (rounds 1–{rounds})', {'round': 9, 'rounds': 7})

A message without parameters is its own template; a :class:`~crosstable.core.text.Message`
made beforehand is kept as it is.
"""

from __future__ import annotations

from crosstable.core.text import Message, message_of


def _message(message: object, params: dict[str, object]) -> Message:
    """The message of an error: a template with its parameters, a Message as it is (another
    error's too), anything else as its text."""
    carried = message_of(message)
    return Message(carried if isinstance(carried, str) else str(carried), **params)


class CrosstableError(Exception):
    """Base class of every error the product raises on purpose.

    ``text`` is the whole message as a :class:`Message` (``str(error)`` is its English
    text); ``template`` and ``params`` are the message's own (without a location)."""

    def __init__(self, message: str = "", /, **params: object) -> None:
        self.message = _message(message, params)
        self.text = self.message
        super().__init__(self.text)

    @property
    def template(self) -> str:
        return self.message.template

    @property
    def params(self) -> dict[str, object]:
        return self.message.params


class RuleError(CrosstableError, ValueError):
    """A request that the tournament rules do not allow (bad point system, bad field size…)."""


class ScheduleError(CrosstableError, ValueError):
    """A schedule that cannot be built or that fails verification."""


class InputError(CrosstableError, ValueError):
    """Bad input text: names the source, the line and the column where it is wrong.

    >>> str(InputError("rating is not a number", source="a.trf", line=3, column=49))
    'a.trf:3:49: rating is not a number'
    >>> InputError("{field} is not a number", field="rating", source="a.trf").params
    {'field': 'rating'}
    """

    def __init__(
        self,
        message: str,
        /,
        *,
        source: str = "<input>",
        line: int | None = None,
        column: int | None = None,
        **params: object,
    ) -> None:
        self.message = _message(message, params)
        self.source = source
        self.line = line
        self.column = column
        self.text = Message("{location}: {message}", location=self.location(), message=self.message)
        Exception.__init__(self, self.text)

    def location(self) -> str:
        parts = [self.source]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)
