"""What every read view shares: the one name for a JSON answer, and read-by-key views.

A read view is a frozen dataclass whose fields the pages and the command line read by
name, checked by the type checker. Its :meth:`Shown.as_json` is the JSON the API writes;
read by key (``view["round"]``) it is that JSON, so readers written against the JSON
before the view see what they saw. ``JsonObject`` is the JSON object on the wire (an API
route's answer, a view's ``as_json``), the only place where values are ``Any``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import fields, is_dataclass
from typing import Any

#: A JSON object as the API answers it, made by a view's :meth:`Shown.as_json`: JSON on
#: the wire, whose values are whatever the view's fields hold, hence ``Any``.
JsonObject = dict[str, Any]


def json_value(value: object) -> object:
    """A view's value as JSON: a view its JSON, another record its fields in order, a
    tuple a list, a mapping's values in turn."""
    if isinstance(value, Shown):
        return value.as_json()
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: json_value(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, tuple | list):
        return [json_value(item) for item in value]
    if isinstance(value, dict):
        return {key: json_value(item) for key, item in value.items()}
    return value


def as_object(record: object) -> JsonObject:
    """A record (a dataclass instance) as a JSON object: its fields in order, as JSON."""
    value = json_value(record)
    if not isinstance(value, dict):
        raise TypeError(f"{type(record).__name__} is not a record")
    return value


class Shown(Mapping[str, Any]):
    """A read view: typed fields; by key, the JSON the API writes (:meth:`as_json`).

    The JSON is a mapping of names to JSON values whose shape each view states by its
    fields, which is why the mapping's values are ``Any``."""

    __slots__ = ()

    def as_json(self) -> JsonObject:
        """The API's JSON form: every field, views and tuples turned into JSON."""
        return {f.name: json_value(getattr(self, f.name)) for f in fields(self)}  # type: ignore[arg-type]

    def __getitem__(self, key: str) -> Any:
        return self.as_json()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.as_json())

    def __len__(self) -> int:
        return len(self.as_json())

    def __or__(self, other: Mapping[str, object]) -> dict[str, object]:
        return self.as_json() | dict(other)

    def __ror__(self, other: Mapping[str, object]) -> dict[str, object]:
        return dict(other) | self.as_json()


__all__ = ["JsonObject", "Shown", "as_object", "json_value"]
