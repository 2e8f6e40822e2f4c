"""The JSON API's answer to a malformed request, in the reader's language.

FastAPI checks a request's body, query and path against their models before a route
runs; its own answer is pydantic's English ("Field required", "Input should be a
valid integer"). :func:`validation_detail` turns each error into the message the
pages give for the same fault, with the field named, as a Message translated by
:func:`crosstable.web.messages.translate` (so the API follows ``Accept-Language``,
like every other error it answers). Each item keeps what the OpenAPI description
promises (``loc``, ``msg``, ``type``) and adds ``field``::

    {"detail": [{"field": "rounds", "msg": "rounds: 'x' is not a whole number",
                 "loc": ["body", "rounds"], "type": "int_parsing"}]}

>>> validation_detail([{"type": "missing", "loc": ("body", "name"), "msg": "Field required"}], "ru")
[{'field': 'name', 'msg': 'name: обязательное поле', 'loc': ['body', 'name'], 'type': 'missing'}]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pydantic_core import ErrorDetails

from crosstable.core.text import Message
from crosstable.service.read_views import JsonObject, Shown
from crosstable.web.messages import E_, translate

#: where a value was sent: not part of the field's name
_PLACES = ("body", "query", "path", "header", "cookie")

#: pydantic's error types and the message of each (its values: field, value, limit, expected)
_TEMPLATES: dict[str, str] = {
    "missing": E_("{field}: required"),
    "int_parsing": E_("{name}: {raw} is not a whole number"),
    "int_type": E_("{name}: {raw} is not a whole number"),
    "int_from_float": E_("{name}: {raw} is not a whole number"),
    "float_parsing": E_("{field}: {value} is not a number"),
    "float_type": E_("{field}: {value} is not a number"),
    "decimal_parsing": E_("{field}: {value} is not a number"),
    "bool_parsing": E_("{field}: {value} is not true or false"),
    "bool_type": E_("{field}: {value} is not true or false"),
    "string_type": E_("{field}: a text is expected, not {value}"),
    "list_type": E_("{field}: a list is expected, not {value}"),
    "tuple_type": E_("{field}: a list is expected, not {value}"),
    "dict_type": E_("{field}: an object is expected, not {value}"),
    "model_type": E_("{field}: an object is expected, not {value}"),
    "model_attributes_type": E_("{field}: an object is expected, not {value}"),
    "string_too_long": E_("{field}: at most {limit} characters"),
    "string_too_short": E_("{field}: at least {limit} characters"),
    "too_long": E_("{field}: at most {limit} items"),
    "too_short": E_("{field}: at least {limit} items"),
    "greater_than_equal": E_("{field}: at least {limit}"),
    "greater_than": E_("{field}: more than {limit}"),
    "less_than_equal": E_("{field}: at most {limit}"),
    "less_than": E_("{field}: less than {limit}"),
    "literal_error": E_("{field}: {value} is not one of {expected}"),
    "enum": E_("{field}: {value} is not one of {expected}"),
    "extra_forbidden": E_("{field}: there is no such field"),
    "json_invalid": E_("the request's body is not valid JSON"),
    "json_type": E_("the request's body is not valid JSON"),
    "date_from_datetime_parsing": E_("{field}: {value} is not a date (YYYY-MM-DD)"),
    "date_parsing": E_("{field}: {value} is not a date (YYYY-MM-DD)"),
    "date_type": E_("{field}: {value} is not a date (YYYY-MM-DD)"),
}
#: any other error type
_OTHER = E_("{field}: {value} is not accepted here")
#: the whole body, when the error has no field
_BODY = E_("the request's body")

#: the bound of a range error, by its key in pydantic's context
_LIMITS = ("ge", "gt", "le", "lt", "max_length", "min_length")


def field_of(loc: Iterable[Any]) -> str:
    """A field's name as a reader writes it: ``players.2.rating`` (the place it was sent
    in left out; an item's index as it is in the JSON)."""
    parts = [str(part) for part in loc]
    if parts and parts[0] in _PLACES:
        parts = parts[1:]
    return ".".join(parts)


def _shown(value: Any) -> str:
    """A value sent, as the message quotes it (at most 40 characters of it)."""
    if isinstance(value, str):
        return repr(value[:40])
    if isinstance(value, (dict, list)):
        return "{…}" if isinstance(value, dict) else "[…]"
    return repr(value)[:40]


def error_message(error: ErrorDetails) -> Message | str:
    """One pydantic error as the pages' message for the same fault (in English)."""
    kind = str(error.get("type", ""))
    ctx = error.get("ctx") or {}
    field = field_of(error.get("loc") or ()) or _BODY
    if kind == "value_error":  # a model's own check: its message names the field already
        inner = ctx.get("error")
        if isinstance(inner, Message):
            return inner
        if isinstance(inner, BaseException) and inner.args and isinstance(inner.args[0], str):
            return inner.args[0]
    template = _TEMPLATES.get(kind, _OTHER)
    limit = next((ctx[key] for key in _LIMITS if key in ctx), "")
    raw = _shown(error.get("input"))
    values = {
        "field": field,
        "name": field,
        "raw": raw,
        "value": raw,
        "limit": limit,
        "expected": str(ctx.get("expected", "")),
    }
    used = {key: value for key, value in values.items() if "{" + key + "}" in template}
    return Message(template, **used) if used else Message(template)


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class FieldError(Shown):
    """One item of a 422's ``detail``: the field, the message in the reader's language,
    pydantic's location and error type."""

    field: str
    msg: str
    loc: tuple[int | str, ...]
    type: str


def validation_detail(
    errors: Iterable[ErrorDetails], locale: str | None = None
) -> list[JsonObject]:
    """The ``detail`` of a 422 for a malformed request: one item per error, its
    message translated into ``locale`` (default: the request's language)."""
    out = []
    for error in errors:
        loc = tuple(p if isinstance(p, (int, str)) else str(p) for p in error.get("loc") or ())
        out.append(
            FieldError(
                field=field_of(loc),
                msg=translate(error_message(error), locale),
                loc=loc,
                type=str(error.get("type", "")),
            ).as_json()
        )
    return out


__all__ = ["error_message", "field_of", "validation_detail"]
