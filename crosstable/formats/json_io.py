"""Tournament JSON: a :class:`TrfDocument` (or a bare tournament) as plain JSON values.

The JSON mirrors the value types field by field (names as in
:mod:`crosstable.core.model` and :mod:`crosstable.formats.trf_model`), inside an
envelope ``{"format": "crosstable-tournament", "version": 1, "tournament": …,
"trf": …}``. Points are JSON numbers when they have an exact decimal form of
at most six places (``4.5``, ``5.25``) and strings such as ``"1/3"`` otherwise,
so that every value reads back exactly. See docs/trf.md for every field.

>>> from crosstable.core.model import Player, Tournament
>>> data = tournament_to_json(Tournament(players=(Player(1, "Anna"),)))
>>> data["format"], data["version"], data["tournament"]["players"][0]["name"]
('crosstable-tournament', 1, 'Anna')
>>> tournament_from_json(data).tournament.players[0].name
'Anna'
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
import types
import typing
from enum import Enum
from fractions import Fraction
from typing import Any

from crosstable.core.errors import CrosstableError, InputError
from crosstable.core.model import Tournament
from crosstable.core.ratings import player_json, rate_tournament
from crosstable.core.scoring import points as parse_points
from crosstable.core.scoring import points_json
from crosstable.formats.json_checks import check_document
from crosstable.formats.limits import MAX_FILE_BYTES, MAX_POINTS, MAX_TEXT, is_number_text
from crosstable.formats.trf_model import TrfDocument

FORMAT = "crosstable-tournament"
VERSION = 1
_SKIPPED = {"tournament", "warnings"}  # TrfDocument fields not under "trf"


def tournament_to_json(doc: TrfDocument | Tournament) -> dict[str, Any]:
    """The document (or a bare tournament) as a JSON-ready dict."""
    tournament = doc if isinstance(doc, Tournament) else doc.tournament
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    data["tournament"] = _encode(tournament)
    if isinstance(doc, TrfDocument):
        data["trf"] = {
            f.name: _encode(getattr(doc, f.name))
            for f in dataclasses.fields(doc)
            if f.name not in _SKIPPED
        }
    data["ratings"] = _ratings(doc, tournament)
    return data


def _ratings(doc: TrfDocument | Tournament, tournament: Tournament) -> list[dict[str, Any]]:
    """The FIDE rating figures per player (docs/ratings.md): derived from the games, so
    written for readers and ignored when the JSON is read back. K follows the rating
    and the birth year in the tournament's year (:func:`tournament_year`)."""
    year = tournament_year(doc)
    return [player_json(row) for row in rate_tournament(tournament, year=year)]


def tournament_year(doc: TrfDocument | Tournament) -> int | None:
    """The tournament's year: the start date (TRF 042), else the first round's date."""
    tournament = doc if isinstance(doc, Tournament) else doc.tournament
    start = doc.headers.get("042", "").strip() if isinstance(doc, TrfDocument) else ""
    if len(start) >= 4 and start[:4].isascii() and start[:4].isdigit():
        return int(start[:4])
    dates = [r.date for r in tournament.rounds if r.date is not None]
    return min(dates).year if dates else None


def tournament_from_json(
    data: object, source: str = "<json>", *, lenient: bool = False
) -> TrfDocument:
    """Read back what :func:`tournament_to_json` wrote; errors name the JSON path.

    Only a document a TRF can hold is accepted (:mod:`crosstable.formats.json_checks`);
    ``lenient`` as for :func:`~crosstable.formats.trf_read.parse_trf`.
    """
    if not isinstance(data, dict):
        raise InputError("a tournament JSON document is an object", source=source)
    if data.get("format") != FORMAT:
        raise InputError(f'"format" must be "{FORMAT}"', source=source)
    if data.get("version") != VERSION:
        raise InputError(f'"version" {data.get("version")!r}: this reader knows 1', source=source)
    # "ratings" is derived from the games (the export's rating figures): not read back
    # "knockout" is a knockout's bracket (formats/knockout_json.py reads it)
    unknown = set(data) - {"format", "version", "tournament", "trf", "ratings", "knockout"}
    if unknown:
        raise InputError(_unknown(unknown), source=source)
    decoder = _Decoder(source)
    tournament = decoder.value(data.get("tournament"), Tournament, "$.tournament")
    extras = data.get("trf", {})
    if not isinstance(extras, dict):
        raise InputError('"trf" must be an object', source=source)
    doc = decoder.dataclass(
        {**extras, "tournament": tournament}, TrfDocument, "$.trf", decoded={"tournament"}
    )
    assert isinstance(doc, TrfDocument)
    check_document(doc, source, lenient=lenient)
    return doc


def dump_json(doc: TrfDocument | Tournament) -> str:
    """The JSON text (two-space indent, UTF-8 letters kept, newline at the end)."""
    return json.dumps(tournament_to_json(doc), indent=2, ensure_ascii=False) + "\n"


def load_json(text: str, source: str = "<json>", *, lenient: bool = False) -> TrfDocument:
    """Tournament JSON text as a document (at most ``MAX_FILE_BYTES`` characters)."""
    if len(text) > MAX_FILE_BYTES:
        raise InputError(f"more than {MAX_FILE_BYTES} characters", source=source)
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise InputError(error.msg, source=source, line=error.lineno, column=error.colno) from None
    except ValueError as error:  # an integer of more than 4 300 digits, NaN, Infinity
        raise InputError(f"not a tournament JSON value: {error}", source=source) from None
    except RecursionError:
        raise InputError("the JSON is nested too deeply", source=source) from None
    return tournament_from_json(data, source, lenient=lenient)


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number")


# ---------------------------------------------------------------- encoding


def _encode(value: object) -> Any:
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, Fraction):
        return points_json(value, "exact")  # read back exactly (core/scoring.py)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dt.date):
        return value.isoformat()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, frozenset | set):
        return [_encode(v) for v in sorted(value)]
    if isinstance(value, tuple | list):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {str(_encode(k)): _encode(v) for k, v in value.items()}
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


# ---------------------------------------------------------------- decoding


class _Decoder:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, message: str) -> InputError:
        return InputError(f"{path}: {message}", source=self.source)

    def dataclass(
        self, data: object, cls: type[Any], path: str, decoded: set[str] | None = None
    ) -> Any:
        if not isinstance(data, dict):
            raise self.fail(path, f"expected an object ({cls.__name__})")
        hints, names = _fields(cls)
        unknown = set(data) - names
        if unknown:
            raise self.fail(path, _unknown(unknown))
        values = {
            name: item
            if name in (decoded or set())
            else self.value(item, hints[name], f"{path}.{name}")
            for name, item in data.items()
        }
        try:
            return cls(**values)
        except TypeError as error:  # a required field is missing
            raise self.fail(path, str(error)) from None
        except (CrosstableError, ValueError) as error:
            raise self.fail(path, str(error)) from None

    def value(self, data: object, hint: Any, path: str) -> Any:
        origin = typing.get_origin(hint)
        args = typing.get_args(hint)
        if origin in (typing.Union, types.UnionType):
            if data is None and type(None) in args:
                return None
            (inner,) = [a for a in args if a is not type(None)]
            return self.value(data, inner, path)
        if hint is Any:
            return data
        if origin in (tuple, frozenset, list):
            if not isinstance(data, list):
                raise self.fail(path, "expected a list")
            if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
                if len(data) != len(args):
                    raise self.fail(path, f"expected {len(args)} items")
                return tuple(
                    self.value(d, a, f"{path}[{i}]")
                    for i, (d, a) in enumerate(zip(data, args, strict=True))
                )
            items = [self.value(d, args[0], f"{path}[{i}]") for i, d in enumerate(data)]
            return origin(items) if origin is not tuple else tuple(items)
        if origin is dict:
            if not isinstance(data, dict):
                raise self.fail(path, "expected an object")
            return {
                self.value(_key(k, args[0]), args[0], f"{path}.{k}"): self.value(
                    v, args[1], f"{path}.{k}"
                )
                for k, v in data.items()
            }
        return self._scalar(data, hint, path)

    def _scalar(self, data: object, hint: Any, path: str) -> Any:
        if isinstance(hint, type) and issubclass(hint, Enum):
            try:
                return hint(data)
            except ValueError:
                allowed = ", ".join(repr(m.value) for m in hint)
                raise self.fail(path, f"{data!r} is not one of {allowed}") from None
        if hint is Fraction:
            return self._points(data, path)
        if hint is dt.date:
            try:
                return dt.date.fromisoformat(str(data))
            except ValueError:
                raise self.fail(path, f"{data!r} is not a date (YYYY-MM-DD)") from None
        if dataclasses.is_dataclass(hint):
            return self.dataclass(data, typing.cast(type[Any], hint), path)
        if hint is bool:
            if not isinstance(data, bool):
                raise self.fail(path, "expected true or false")
            return data
        if hint is int:
            if isinstance(data, bool) or not isinstance(data, int):
                raise self.fail(path, "expected a whole number")
            if abs(data) > _MAX_INT:
                raise self.fail(path, f"{data}: too large")
            return data
        if hint is str:
            if not isinstance(data, str):
                raise self.fail(path, "expected a string")
            if len(data) > MAX_TEXT:
                raise self.fail(path, f"longer than {MAX_TEXT} characters")
            return data
        raise self.fail(path, f"cannot read a {hint!r}")

    def _points(self, data: object, path: str) -> Fraction:
        """A number, or a string such as ``"4.5"`` or ``"1/3"``; at most 9 999 either way."""
        if isinstance(data, bool) or not isinstance(data, int | float | str):
            raise self.fail(path, "expected a number")
        if isinstance(data, str) and not _POINTS_TEXT.match(data.strip()):
            raise self.fail(path, f"{data[:40]!r} is not a number")
        if isinstance(data, int) and abs(data) > MAX_POINTS:
            raise self.fail(path, f"{data}: at most {MAX_POINTS} either way")
        try:
            value = parse_points(repr(data) if isinstance(data, float) else data)
        except (ValueError, ZeroDivisionError, OverflowError):
            raise self.fail(path, f"{data!r} is not a number") from None
        if abs(value) > MAX_POINTS:
            raise self.fail(path, f"{data!r}: at most {MAX_POINTS} either way")
        return value


#: Whole numbers in a tournament JSON (ids, seeds, ratings): below 2⁶³ either way.
_MAX_INT = 2**63 - 1
#: A points string: a decimal (``"4.5"``, ``"-1"``, ``"2½"``) or a fraction (``"1/3"``).
_POINTS_TEXT = re.compile(r"^-?[0-9]{1,6}(?:[.,][0-9]{1,6})?½?$|^-?[0-9]{1,6}/[0-9]{1,6}$|^½$")

_FIELDS: dict[type[Any], tuple[dict[str, Any], frozenset[str]]] = {}


def _fields(cls: type[Any]) -> tuple[dict[str, Any], frozenset[str]]:
    """Type hints and init field names of a dataclass (looked up once per class)."""
    if cls not in _FIELDS:
        names = frozenset(f.name for f in dataclasses.fields(cls) if f.init)
        _FIELDS[cls] = (typing.get_type_hints(cls), names)
    return _FIELDS[cls]


def _key(key: str, hint: Any) -> object:
    """Object keys are strings in JSON; integer keys come back as numbers."""
    if hint is int:
        return int(key) if is_number_text(key.removeprefix("-")) else key
    return key


def _unknown(names: set[str]) -> str:
    """``unknown field 'x'``, ``unknown fields 'a', 'b'`` (the first five, each cut to 40
    characters: a hostile document's keys do not make a huge message)."""
    ordered = sorted(names)
    listed = ", ".join(repr(name[:40]) for name in ordered[:5])
    if len(ordered) > 5:
        listed += f" and {len(ordered) - 5} more"
    return f"unknown field {listed}" if len(names) == 1 else f"unknown fields {listed}"
