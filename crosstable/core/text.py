"""Messages that carry their own parameters: an English text that knows its template.

A :class:`Message` is a ``str`` (its value is the English text, so the command
line, logs, the JSON API by default and every comparison see what an f-string
made before) that also keeps the *template* it was made from and the named
*parameters* put into it::

    >>> where = Message("round {round} board {board}", round=3, board=2)
    >>> message = Message("{where} already has {result}; to change it, correct the result",
    ...                   where=where, result="1-0")
    >>> message.params
    {'where': Message('round {round} board {board}', round=3, board=2), 'result': '1-0'}
    >>> str(message)
    'round 3 board 2 already has 1-0; to change it, correct the result'
    >>> message.template, message.params["where"].params
    ('{where} already has {result}; to change it, correct the result', {'round': 3, 'board': 2})

Translating one (the web layer does it, :mod:`crosstable.web.messages`) is a
gettext lookup of the template, then the translated parameters put into the
translation: a parameter that is a :class:`Message` is translated in turn, a
plain text is looked up as a whole (a constant message is its own template:
``"running"``), numbers are written in the reader's notation (``0,5`` in
Russian). :meth:`Message.render` does that with the look-up and the notation
given, so the core stays free of locales::

    >>> russian = {"round {round} board {board}": "тур {round}, доска {board}"}
    >>> where.render(lambda t: russian.get(t, t), str)
    'тур 3, доска 2'

Parameters are kept as they were given: numbers stay numbers (the English text
writes them as an f-string does: ``format(value)``), a text already written as
points (``"2½"``) stays that text. A list is :meth:`Message.joined`, item by
item. :meth:`Message.to_json` and :meth:`Message.from_json` store one in an
event's data and read it back.

How to add a message: write the template as a literal, its values by name —
``raise RuleError("there is no round {round} (rounds 1–{rounds})", round=r,
rounds=n)`` (every :class:`~crosstable.core.errors.CrosstableError` takes a
template and parameters) or ``Message("…", …)`` for a piece of one — and give
the template its Russian translation (``crosstable/web/messages.py`` says how).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any, cast

__all__ = ["PLACEHOLDER", "Message", "fill", "message_of"]

#: a placeholder of a template: ``{name}`` (the f-string's field, without conversion or format)
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")

#: what a message's JSON form holds
JSON = dict[str, Any]


def fill(template: str, values: Mapping[str, str]) -> str:
    """``template`` with each ``{name}`` replaced by ``values[name]`` (in one pass: a value is
    never read as a template); a name without a value stays as it is.

    >>> fill("{a} and {b}, not {c}", {"a": "{b}", "b": "2"})
    '{b} and 2, not {c}'
    """
    if "{" not in template:
        return template
    pieces = _pieces(template)
    out = [pieces[0]]
    for index in range(1, len(pieces), 2):
        name = pieces[index]
        out.append(values.get(name, "{" + name + "}"))
        out.append(pieces[index + 1])
    return "".join(out)


@lru_cache(maxsize=4096)
def _pieces(template: str) -> tuple[str, ...]:
    """The template's fixed texts and placeholder names, alternating (read once per template:
    a message on a hot path, such as a result's "round 3 board 2", costs a join)."""
    return tuple(PLACEHOLDER.split(template))


def english(value: object) -> str:
    """A parameter as the English text shows it: as an f-string's ``{value}`` does."""
    if isinstance(value, BaseException):
        return str(value)
    return format(value, "")


def message_of(value: object) -> object:
    """The message an error carries (its :class:`Message` when it has one), else ``value``."""
    if isinstance(value, BaseException):
        carried = getattr(value, "text", None)
        if isinstance(carried, Message) and str(carried) == str(value):
            return carried
        return str(value)
    return value


class Message(str):
    """An English text made from ``template`` with ``params`` put in (see the module's doc).

    >>> Message("there is nothing to undo") == "there is nothing to undo"
    True
    >>> str(Message("{count} results", count=3))
    '3 results'
    """

    template: str
    params: dict[str, object]

    def __new__(cls, template: str, /, **params: object) -> Message:
        if isinstance(template, Message) and not params:
            return template
        text = fill(template, {name: english(v) for name, v in params.items()})
        made = super().__new__(cls, text)
        made.template = str(template)
        made.params = params
        return made

    def __getnewargs__(self) -> tuple[str]:  # (pickling: the state restores the rest)
        return (str(self),)

    def __repr__(self) -> str:
        if not self.params:
            return f"Message({self.template!r})"
        shown = ", ".join(f"{name}={value!r}" for name, value in self.params.items())
        return f"Message({self.template!r}, {shown})"

    @classmethod
    def joined(cls, separator: str, items: Iterable[object]) -> Message:
        """The items one after the other with ``separator`` between them, each kept (and
        translated) as itself: ``Message.joined("; ", problems)`` (not ``join``: that is
        ``str.join`` still, called on a separator).

        >>> russian = {"round {round}": "тур {round}"}
        >>> listed = Message.joined(", ", [Message("round {round}", round=1), "Anna"])
        >>> str(listed), listed.render(lambda t: russian.get(t, t), str)
        ('round 1, Anna', 'тур 1, Anna')
        """
        values = list(items)
        names = [f"_{index}" for index in range(len(values))]
        template = separator.replace("{", "{{").join("{" + name + "}" for name in names)
        if "{{" in template:  # (a brace in the separator: keep the text as it is)
            return cls(separator.join(english(v) for v in values))
        return cls(template, **dict(zip(names, values, strict=True)))

    @property
    def is_list(self) -> bool:
        """Made by :meth:`joined` (its template is only placeholders and separators)."""
        return bool(self.params) and all(name.startswith("_") for name in self.params)

    def render(
        self,
        translate: Callable[[str], str],
        number: Callable[[object], str],
        depth: int = 0,
    ) -> str:
        """This message in another language: ``translate`` turns a template (or a plain
        text) into its translation (itself when there is none), ``number`` writes a
        number (int, float, Fraction…) in the reader's notation."""
        template = self.template if self.is_list else translate(self.template)
        if not self.params:
            return template
        return fill(
            template,
            {
                name: render_value(value, translate, number, depth + 1)
                for name, value in self.params.items()
            },
        )

    def to_json(self) -> JSON:
        """The message as JSON (for an event's data): template and parameters.

        >>> m = Message("{a} of {b}", a=Fraction(1, 2), b=Message("{n} results", n=2))
        >>> back = Message.from_json(m.to_json())
        >>> back == m, back.template, back.params == m.params
        (True, '{a} of {b}', True)
        """
        return {
            "template": self.template,
            "params": {name: _encode(value) for name, value in self.params.items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        params = cast(Mapping[str, Any], data.get("params") or {})
        return cls(
            str(data["template"]), **{name: _decode(value) for name, value in params.items()}
        )


#: a message inside a message is rendered down to this depth (deeper: as English)
MAX_DEPTH = 12


def render_value(
    value: object, translate: Callable[[str], str], number: Callable[[object], str], depth: int
) -> str:
    """One parameter in another language (see :meth:`Message.render`)."""
    value = message_of(value)
    if isinstance(value, Message):
        if depth > MAX_DEPTH:
            return str(value)
        return value.render(translate, number, depth)
    if isinstance(value, bool) or value is None:
        return english(value)
    if isinstance(value, (int, float, Fraction)):
        return number(value)
    text = english(value)
    return translate(text) if text else text


def _encode(value: object) -> object:
    value = message_of(value)
    if isinstance(value, Message):
        return {"message": value.to_json()}
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, Fraction):
        return {"fraction": [value.numerator, value.denominator]}
    return english(value)


def _decode(value: object) -> object:
    if isinstance(value, dict):
        data = cast(dict[str, Any], value)
        if "message" in data:
            return Message.from_json(data["message"])
        if "fraction" in data:
            numerator, denominator = data["fraction"]
            return Fraction(int(numerator), int(denominator))
    return value
