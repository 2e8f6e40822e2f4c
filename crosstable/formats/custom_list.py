"""A custom rating list (a national federation's, a club's) as CSV.

A custom list has its own id space: each player is known by the list's own id (a
national id, a club membership number: letters, digits, ``-``, ``_``, ``.``, ``/``, at
most 20 characters), with a name, and optionally a federation, birth year, sex, title,
standard, rapid and blitz ratings and a FIDE id. A header row names the columns; which
column holds which field is the user's :func:`parse_columns` mapping
(``id=NatID,name=FIO``) where given, else one of the common names of
:data:`COMMON_COLUMNS` (case and spaces do not matter). Comma, semicolon or tab
separated (the one the header uses most), UTF-8 (else Latin-1), plain or as the one
``.csv`` of a zip archive.

A bad line is skipped and reported with the file, line and field; a file that is not a
list at all (no header, no id or name column, a column mapped to a header it does not
have, too large, more than :data:`~crosstable.formats.rating_list_limits.MAX_PROBLEMS`
bad lines, an id twice: named with both its lines when they are near, else by the
store) is refused with an :class:`~crosstable.core.errors.InputError`.

>>> parse_columns("id = NatID, name=FIO")
{'id': 'natid', 'name': 'fio'}
"""

from __future__ import annotations

import csv
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from crosstable.core.errors import InputError, RuleError
from crosstable.formats.rating_list import ListReport, fold
from crosstable.formats.rating_list_limits import (
    MAX_CSV_LINE,
    MAX_FILE_BYTES,
    MAX_PLAYERS,
)

#: the fields a column can fill, and the common header names of each
COMMON_COLUMNS: dict[str, tuple[str, ...]] = {
    "id": ("id", "list_id", "list id", "national_id", "national id", "nat_id", "member", "code"),
    "name": ("name", "player", "full name"),
    "fide_id": ("fide_id", "fide id", "fideid", "fide"),
    "federation": ("federation", "fed", "country"),
    "sex": ("sex", "gender"),
    "title": ("title", "tit"),
    "birth_year": ("birth_year", "birth year", "born", "birthday", "b-day", "year"),
    "standard": ("standard", "rating", "std", "elo"),
    "rapid": ("rapid", "rpd"),
    "blitz": ("blitz", "blz"),
}
#: how a message names each field
FIELD_NAMES = {
    "id": "list id",
    "name": "name",
    "fide_id": "FIDE id",
    "federation": "federation",
    "sex": "sex",
    "title": "title",
    "birth_year": "birth year",
    "standard": "standard rating",
    "rapid": "rapid rating",
    "blitz": "blitz rating",
}
TITLES = frozenset({"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"})
#: a list's own id: letters, digits and - _ . / (not starting with a sign), ≤ 20
LIST_ID = re.compile(r"[0-9A-Za-z][0-9A-Za-z._/-]{0,19}")
#: lines whose ids a reader remembers to name a repeated id with both its lines
RECENT = 10_000
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_NUMBERS = {
    "fide_id": (1, 10**12 - 1),
    "birth_year": (1850, 2100),
    "standard": (0, 3500),
    "rapid": (0, 3500),
    "blitz": (0, 3500),
}


@dataclass(frozen=True, slots=True)
class CustomPlayer:
    """One player of a custom list, known by the list's own id."""

    list_id: str
    name: str
    federation: str = ""
    #: "m", "w" or ""
    sex: str = ""
    title: str = ""
    birth_year: int | None = None
    standard: int | None = None
    rapid: int | None = None
    blitz: int | None = None
    fide_id: int | None = None


def parse_columns(text: str) -> dict[str, str]:
    """``field=Header,…`` (fields of :data:`COMMON_COLUMNS`) as field → folded header;
    a :class:`RuleError` naming what is wrong otherwise."""
    mapping: dict[str, str] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        field, sep, header = part.partition("=")
        field = field.strip().lower().replace(" ", "_")
        header = " ".join(header.split()).casefold()
        if not sep or field not in COMMON_COLUMNS or not header or len(header) > 60:
            raise RuleError(
                "columns {columns}: write field=header, e.g. id=NatID,name=FIO (fields: {fields})",
                columns=repr(text[:80]),
                fields=", ".join(COMMON_COLUMNS),
            )
        if field in mapping:
            raise RuleError(
                "columns {columns}: {field} is mapped twice", columns=repr(text[:80]), field=field
            )
        mapping[field] = header
    return mapping


def read_custom_list(
    path: Path, report: ListReport, columns: dict[str, str] | None = None
) -> Iterator[CustomPlayer]:
    """The players of the custom list in ``path`` (CSV, plain or zipped), one by one;
    bad lines go to ``report``. An id twice refuses the file."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise InputError(
                "the file is larger than {limit} MB", source=str(path), limit=MAX_FILE_BYTES >> 20
            )
        with path.open("rb") as raw:
            if zipfile.is_zipfile(raw):
                raw.seek(0)
                yield from _zipped(raw, report, columns or {})
            else:
                raw.seek(0)
                yield from read_csv(raw, report, columns or {})
    except OSError as error:
        raise InputError(
            "cannot read the file: {reason}", source=str(path), reason=error.strerror or str(error)
        ) from None


def _zipped(raw: IO[bytes], report: ListReport, columns: dict[str, str]) -> Iterator[CustomPlayer]:
    try:
        archive = zipfile.ZipFile(raw)
    except (zipfile.BadZipFile, ValueError) as error:
        raise InputError(
            "not a readable zip archive ({reason})", source=report.source, reason=str(error)
        ) from None
    members = [
        m for m in archive.infolist() if not m.is_dir() and m.filename.casefold().endswith(".csv")
    ]
    if len(members) != 1 or members[0].flag_bits & 0x1 or members[0].file_size > MAX_FILE_BYTES:
        raise InputError(
            "the archive should hold one readable .csv list of at most {limit} MB",
            source=report.source,
            limit=MAX_FILE_BYTES >> 20,
        )
    report.source = f"{report.source}:{members[0].filename}"
    try:
        with archive.open(members[0]) as stream:
            yield from read_csv(stream, report, columns)
    except (zipfile.BadZipFile, EOFError, NotImplementedError) as error:
        raise InputError(
            "the archive is damaged ({reason})", source=report.source, reason=str(error)
        ) from None


def _lines(stream: IO[bytes], report: ListReport) -> Iterator[tuple[int, str]]:
    """Numbered text lines of at most :data:`MAX_CSV_LINE` characters; the stream read
    at most :data:`MAX_FILE_BYTES` (a zip bomb stops there)."""
    number = 0
    total = 0
    while True:
        raw = stream.readline(MAX_CSV_LINE + 2)
        if not raw:
            return
        total += len(raw)
        number += 1
        if len(raw) > MAX_CSV_LINE + 1 and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):
                raw = stream.readline(MAX_CSV_LINE + 2)
                total += len(raw)
                if total > MAX_FILE_BYTES:
                    break
            report.skip(
                "the line is longer than {limit} characters", line=number, limit=MAX_CSV_LINE
            )
        else:
            raw = raw.rstrip(b"\r\n")
            if number == 1:
                raw = raw.removeprefix(b"\xef\xbb\xbf")
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                text = raw.decode("latin-1")
            yield number, text
        if total > MAX_FILE_BYTES:
            raise InputError(
                "the list is larger than {limit} MB",
                source=report.source,
                limit=MAX_FILE_BYTES >> 20,
            )


def _header(
    text: str, number: int, report: ListReport, columns: dict[str, str]
) -> tuple[str, list[str]]:
    delimiter = max(",;\t", key=text.count)
    try:
        names = next(csv.reader([text], delimiter=delimiter))
    except csv.Error as error:
        raise InputError(
            "the header row is not a CSV line ({reason})",
            source=report.source,
            line=number,
            reason=str(error),
        ) from None
    folded = [" ".join(n.split()).casefold() for n in names]
    given = {header: field for field, header in columns.items()}
    for field, header in columns.items():
        if header not in folded:
            raise InputError(
                "the column {header} for {field} is not in the header row (it has {have})",
                source=report.source,
                line=number,
                header=repr(header),
                field=FIELD_NAMES[field],
                have=", ".join(names)[:200],
            )
    common = {
        name: field
        for field, names_ in COMMON_COLUMNS.items()
        if field not in columns
        for name in names_
    }
    fields: list[str] = []
    for name in folded:
        field = given.get(name) or common.get(name, "")
        fields.append("" if field in fields else field)
    if "id" not in fields or "name" not in fields:
        raise InputError(
            "the header row needs a list id and a name column (it has {have}; "
            "name them with id=…,name=…)",
            source=report.source,
            line=number,
            have=", ".join(names)[:200],
        )
    return delimiter, fields


def read_csv(
    stream: IO[bytes], report: ListReport, columns: dict[str, str] | None = None
) -> Iterator[CustomPlayer]:
    """The players of a CSV custom list read from ``stream`` (module docstring)."""
    report.format = "csv"
    fields: list[str] | None = None
    delimiter = ","
    #: the ids of the last :data:`RECENT` players, oldest first (a list sorted by id
    #: shows a repeated id at once; the store's key refuses one repeated farther apart,
    #: so memory stays bounded)
    recent: dict[str, int] = {}
    for number, text in _lines(stream, report):
        if not text.strip():
            continue
        if fields is None:
            delimiter, fields = _header(text, number, report, columns or {})
            continue
        try:
            cells = next(csv.reader([text], delimiter=delimiter))
        except csv.Error as error:
            report.skip("not a CSV line ({reason})", line=number, reason=str(error))
            continue
        values = {f: cell.strip() for f, cell in zip(fields, cells, strict=False) if f}
        player = custom_player(values, report, number)
        if player is None:
            continue
        if player.list_id in recent:
            raise InputError(
                "list id {id} is on line {first} and again here: a list names each player once",
                source=report.source,
                line=number,
                id=player.list_id,
                first=recent[player.list_id],
            )
        if len(recent) >= RECENT:  # a window: the oldest id goes
            del recent[next(iter(recent))]
        recent[player.list_id] = number
        report.players += 1
        if report.players > MAX_PLAYERS:
            raise InputError(
                "more than {limit} players: not a rating list this program reads",
                source=report.source,
                limit=MAX_PLAYERS,
            )
        yield player
    if fields is None:
        raise InputError("the file is empty: no header row", source=report.source)


def custom_player(values: dict[str, str], report: ListReport, line: int) -> CustomPlayer | None:
    """One player from its fields as text; None (skipped and reported) when bad."""
    list_id = values.get("id", "")
    if not LIST_ID.fullmatch(list_id):
        report.skip(
            "{field}: {value} is not an id (letters, digits, - _ . /, at most 20)",
            line=line,
            field=FIELD_NAMES["id"],
            value=repr(list_id[:24]),
        )
        return None
    name = " ".join(values.get("name", "").split())
    if not name or len(name) > 200 or _CONTROL.search(name):
        report.skip(
            "name: missing, longer than 200 characters or with control characters", line=line
        )
        return None
    numbers: dict[str, int | None] = {}
    for key, (low, high) in _NUMBERS.items():
        raw = values.get(key, "")
        if raw in ("", "-"):
            numbers[key] = None
            continue
        value = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 12 else None
        if value is None or not low <= value <= high:
            report.skip(
                "{field}: {value} is not a number from {low} to {high}",
                line=line,
                field=FIELD_NAMES[key],
                value=repr(raw[:20]),
                low=low,
                high=high,
            )
            return None
        numbers[key] = value or None  # a rating 0 is no rating
    sex = {"m": "m", "f": "w", "w": "w", "": ""}.get(values.get("sex", "").casefold())
    if sex is None:
        report.skip("sex: {value} is not M or F", line=line, value=repr(values["sex"][:10]))
        return None
    title = values.get("title", "").upper()
    if title and title not in TITLES:
        report.skip(
            "title: {value} is not GM, IM, FM, CM, WGM, WIM, WFM or WCM",
            line=line,
            value=repr(title[:10]),
        )
        return None
    federation = values.get("federation", "").upper()
    if federation and not (len(federation) == 3 and federation.isascii() and federation.isalpha()):
        report.skip(
            "federation: {value} is not a three-letter code", line=line, value=repr(federation[:10])
        )
        return None
    return CustomPlayer(
        list_id=list_id,
        name=name,
        federation=federation,
        sex=sex,
        title=title,
        birth_year=numbers["birth_year"],
        standard=numbers["standard"],
        rapid=numbers["rapid"],
        blitz=numbers["blitz"],
        fide_id=numbers["fide_id"],
    )


def folded_name(name: str) -> str:
    """The name as a look-up compares it (:func:`crosstable.formats.rating_list.fold`)."""
    return fold(name)[:200]
