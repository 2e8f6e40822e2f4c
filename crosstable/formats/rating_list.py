"""Rating lists as FIDE publishes them, and a national list as CSV.

Three readers, each streaming (one player at a time, bounded memory) and bounded
(file size, line length, number of players; :mod:`crosstable.formats.rating_list_limits`):

* FIDE's fixed-width TXT list: the combined ``players_list_foa.txt`` (``SRtng``,
  ``RRtng``, ``BRtng`` columns) or one of ``standard_rating_list.txt``,
  ``rapid_rating_list.txt``, ``blitz_rating_list.txt`` (one rating column headed by
  the list's month, e.g. ``DEC26``). The columns are found from the header line
  (``ID Number``, ``Name``, ``Fed``, ``Sex``, ``Tit``, ``WTit``, ``OTit``, ``FOA``,
  ``SRtng``, ``SGm``, ``SK``, ``RRtng``, ``RGm``, ``Rk``, ``BRtng``, ``BGm``, ``BK``,
  ``B-day``, ``Flag``): each field starts where its header name starts.
* FIDE's XML list: ``<playerslist><player><fideid>…</fideid><name>…</name>
  <country>…</country><sex>M|F</sex><title>…</title><w_title>…</w_title>
  <o_title>…</o_title><foa_title>…</foa_title><rating>…</rating><games>…</games>
  <k>…</k><rapid_rating>…</rapid_rating>…<blitz_rating>…</blitz_rating>…
  <birthday>1990</birthday><flag>…</flag></player>…``. The single-type lists have
  ``<rating>`` only; which type it is comes from the file name. Read with expat
  directly: a document type declaration (and so any entity definition) is refused
  before anything is expanded.
* CSV (a national list): a header row naming the columns, see :data:`CSV_COLUMNS`;
  comma, semicolon or tab separated, UTF-8.

Each may come as the plain file or zipped (the one ``.txt``/``.xml``/``.csv`` member
of the archive; a zip is read as a stream, its declared and its real size both
bounded). A bad line is skipped and reported (file, line, field, what is wrong);
a file that is not a rating list at all (no header, no member, too large, more than
:data:`~crosstable.formats.rating_list_limits.MAX_PROBLEMS` bad lines) is refused
with an :class:`~crosstable.core.errors.InputError`.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, cast
from xml.parsers import expat

from crosstable.core.errors import InputError
from crosstable.formats.rating_list_limits import (
    MAX_CSV_LINE,
    MAX_FIELD,
    MAX_FILE_BYTES,
    MAX_PLAYERS,
    MAX_PROBLEMS,
    MAX_TXT_LINE,
)

KINDS = ("standard", "rapid", "blitz")


@dataclass(frozen=True, slots=True)
class ListedPlayer:
    """One player of a rating list."""

    fide_id: int
    name: str
    federation: str = ""
    #: "m", "w" or "" (FIDE writes M and F)
    sex: str = ""
    #: the FIDE title (GM, IM, FM, CM, WGM, WIM, WFM, WCM), "" when none
    title: str = ""
    birth_year: int | None = None
    standard: int | None = None
    rapid: int | None = None
    blitz: int | None = None


@dataclass
class ListReport:
    """What a reader met: the players read, the lines skipped and why."""

    source: str
    #: txt, xml or csv
    format: str = ""
    players: int = 0
    skipped: int = 0
    problems: list[InputError] = field(default_factory=list)

    def skip(self, message: str, *, line: int | None, **params: Any) -> None:
        self.skipped += 1
        if self.skipped > MAX_PROBLEMS:
            raise InputError(
                "more than {count} bad lines: this does not look like a rating list",
                source=self.source,
                line=line,
                count=MAX_PROBLEMS,
            )
        self.problems.append(InputError(message, source=self.source, line=line, **params))


def fold(name: str) -> str:
    """A name as look-ups compare it: case-folded, accents dropped, spaces single.

    >>> fold("  Ćirić,   Dragoljub ")
    'ciric, dragoljub'
    """
    spaced = " ".join(name.split())
    if spaced.isascii():  # most names of a list: no accents to drop
        return spaced.lower()
    decomposed = unicodedata.normalize("NFKD", spaced.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def read_rating_list(
    path: Path, report: ListReport | None = None, *, kind: str | None = None
) -> Iterator[ListedPlayer]:
    """The players of the list in ``path`` (TXT, XML or CSV, plain or zipped), one by one.

    ``kind`` (standard, rapid or blitz) says which rating a single-type list holds;
    by default it comes from the file name (``rapid_rating_list.zip`` …), else standard.
    Problems go to ``report`` (a fresh one when not given).
    """
    report = report if report is not None else ListReport(str(path))
    name = path.name.casefold()
    kind = kind or next((k for k in KINDS if k in name), "standard")
    if kind not in KINDS:
        raise InputError("the list type is standard, rapid or blitz, not {kind}", kind=kind)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise InputError(
                "the file is larger than {limit} MB", source=str(path), limit=MAX_FILE_BYTES >> 20
            )
        with path.open("rb") as raw:
            if zipfile.is_zipfile(raw):
                raw.seek(0)
                yield from _zipped(raw, report, kind)
            else:
                raw.seek(0)
                yield from _by_format(_Bounded(raw, report.source), name, report, kind)
    except OSError as error:
        raise InputError(
            "cannot read the file: {reason}", source=str(path), reason=error.strerror or str(error)
        ) from None


def _zipped(raw: IO[bytes], report: ListReport, kind: str) -> Iterator[ListedPlayer]:
    try:
        archive = zipfile.ZipFile(raw)
    except (zipfile.BadZipFile, ValueError) as error:
        raise InputError(
            "not a readable zip archive ({reason})", source=report.source, reason=str(error)
        ) from None
    members = [
        m
        for m in archive.infolist()
        if not m.is_dir() and m.filename.casefold().endswith((".txt", ".xml", ".csv"))
    ]
    if len(members) != 1:
        raise InputError(
            "the archive should hold one .txt, .xml or .csv rating list, it holds {count}",
            source=report.source,
            count=len(members),
        )
    member = members[0]
    if member.file_size > MAX_FILE_BYTES:
        raise InputError(
            "{member} is larger than {limit} MB",
            source=report.source,
            member=member.filename,
            limit=MAX_FILE_BYTES >> 20,
        )
    report.source = f"{report.source}:{member.filename}"
    if member.flag_bits & 0x1:
        raise InputError("the list in the archive is encrypted", source=report.source)
    try:
        with archive.open(member) as stream:
            yield from _by_format(
                _Bounded(stream, report.source), member.filename.casefold(), report, kind
            )
    except (zipfile.BadZipFile, EOFError, NotImplementedError) as error:
        raise InputError(
            "the archive is damaged ({reason})", source=report.source, reason=str(error)
        ) from None


class _Bounded(io.RawIOBase):
    """A byte stream that refuses to give more than :data:`MAX_FILE_BYTES` (a zip bomb)."""

    def __init__(self, stream: IO[bytes], source: str) -> None:
        self.stream = stream
        self.source = source
        self.count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        data = self.stream.read(len(buffer))
        self.count += len(data)
        if self.count > MAX_FILE_BYTES:
            raise InputError(
                "the list is larger than {limit} MB", source=self.source, limit=MAX_FILE_BYTES >> 20
            )
        buffer[: len(data)] = data
        return len(data)


def _by_format(
    stream: io.RawIOBase, name: str, report: ListReport, kind: str
) -> Iterator[ListedPlayer]:
    reader = io.BufferedReader(stream, 1 << 16)
    head = reader.peek(512)[:512].lstrip(b"\xef\xbb\xbf \t\r\n")
    buffered = cast(IO[bytes], reader)
    if name.endswith(".xml") or head.startswith(b"<"):
        report.format = "xml"
        players = _xml(buffered, report, kind)
    elif name.endswith(".csv"):
        report.format = "csv"
        players = _csv(buffered, report)
    else:
        report.format = "txt"
        players = _txt(buffered, report, kind)
    for player in players:
        report.players += 1
        if report.players > MAX_PLAYERS:
            raise InputError(
                "more than {limit} players: not a rating list this program reads",
                source=report.source,
                limit=MAX_PLAYERS,
            )
        yield player


# -- lines -----------------------------------------------------------------------------


def _lines(stream: IO[bytes], report: ListReport, limit: int) -> Iterator[tuple[int, str]]:
    """Numbered text lines, each at most ``limit`` characters (longer ones are skipped)."""
    number = 0
    while True:
        raw = stream.readline(limit + 2)
        if not raw:
            return
        number += 1
        if len(raw) > limit + 1 and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):  # the rest of the long line, bounded reads
                raw = stream.readline(limit + 2)
            report.skip("the line is longer than {limit} characters", line=number, limit=limit)
            continue
        raw = raw.rstrip(b"\r\n")
        if number == 1:
            raw = raw.removeprefix(b"\xef\xbb\xbf")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")  # FIDE's own lists are Latin-1
        yield number, text


_TXT_FIELDS = {
    "id number": "id",
    "name": "name",
    "fed": "fed",
    "sex": "sex",
    "tit": "tit",
    "wtit": "wtit",
    "srtng": "standard",
    "rrtng": "rapid",
    "brtng": "blitz",
    "b-day": "born",
}
#: a single-type list heads its rating column with the month: DEC26, Jan27…
_MONTH = re.compile(r"^[A-Z]{3}\d{2}$")
_HEADER_TOKEN = re.compile(r"ID Number|\S+")


def _txt(stream: IO[bytes], report: ListReport, kind: str) -> Iterator[ListedPlayer]:
    columns: dict[str, tuple[int, int]] | None = None
    for number, text in _lines(stream, report, MAX_TXT_LINE):
        if not text.strip():
            continue
        if columns is None:
            columns = _txt_columns(text, report, number, kind)
            continue
        values = {key: text[a:b].strip() for key, (a, b) in columns.items()}
        player = _player(values, report, number, kind)
        if player is not None:
            yield player
    if columns is None:
        raise InputError("the file is empty: no header line", source=report.source)


def _txt_columns(
    header: str, report: ListReport, number: int, kind: str
) -> dict[str, tuple[int, int]]:
    tokens = [(m.start(), m.group()) for m in _HEADER_TOKEN.finditer(header)]
    columns: dict[str, tuple[int, int]] = {}
    for index, (start, token) in enumerate(tokens):
        end = tokens[index + 1][0] if index + 1 < len(tokens) else MAX_TXT_LINE
        key = _TXT_FIELDS.get(token.casefold())
        if key is None and _MONTH.match(token.upper()):
            key = kind
        if key is not None:
            columns[key] = (start, end)
    if "id" not in columns or "name" not in columns:
        raise InputError(
            "the first line is not a FIDE rating list header (ID Number, Name, Fed …)",
            source=report.source,
            line=number,
        )
    return columns


# -- CSV -------------------------------------------------------------------------------

#: accepted CSV column names (case and spaces do not matter) → the field they fill
CSV_COLUMNS = {
    "fide_id": "id",
    "fide id": "id",
    "fideid": "id",
    "id": "id",
    "id number": "id",
    "name": "name",
    "federation": "fed",
    "fed": "fed",
    "country": "fed",
    "sex": "sex",
    "gender": "sex",
    "title": "tit",
    "tit": "tit",
    "w_title": "wtit",
    "wtit": "wtit",
    "birth_year": "born",
    "birth year": "born",
    "born": "born",
    "birthday": "born",
    "b-day": "born",
    "standard": "standard",
    "rating": "standard",
    "std": "standard",
    "srtng": "standard",
    "rapid": "rapid",
    "rrtng": "rapid",
    "rpd": "rapid",
    "blitz": "blitz",
    "brtng": "blitz",
    "blz": "blitz",
}


def _csv(stream: IO[bytes], report: ListReport) -> Iterator[ListedPlayer]:
    header: list[str] | None = None
    delimiter = ","
    for number, text in _lines(stream, report, MAX_CSV_LINE):
        if not text.strip():
            continue
        if header is None:
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
            header = [CSV_COLUMNS.get(" ".join(n.split()).casefold(), "") for n in names]
            if "id" not in header or "name" not in header:
                raise InputError(
                    "the header row needs the columns fide_id and name (it has {columns})",
                    source=report.source,
                    line=number,
                    columns=", ".join(names)[:200],
                )
            continue
        try:
            cells = next(csv.reader([text], delimiter=delimiter))
        except csv.Error as error:
            report.skip("not a CSV line ({reason})", line=number, reason=str(error))
            continue
        values = {key: cell.strip() for key, cell in zip(header, cells, strict=False) if key}
        player = _player(values, report, number, "standard")
        if player is not None:
            yield player
    if header is None:
        raise InputError("the file is empty: no header row", source=report.source)


# -- XML -------------------------------------------------------------------------------

_XML_FIELDS = {
    "fideid": "id",
    "name": "name",
    "country": "fed",
    "sex": "sex",
    "title": "tit",
    "w_title": "wtit",
    "rating": "rating",
    "rapid_rating": "rapid",
    "blitz_rating": "blitz",
    "birthday": "born",
}


class _XmlRefusedError(Exception):
    pass


def _xml(stream: IO[bytes], report: ListReport, kind: str) -> Iterator[ListedPlayer]:
    parser = expat.ParserCreate()
    ready: list[tuple[dict[str, str], int]] = []
    current: dict[str, str] | None = None
    text: list[str] = []
    size = 0
    started = 0

    def refuse(*_args: object) -> None:
        raise _XmlRefusedError

    def start(tag: str, _attrs: dict[str, str]) -> None:
        nonlocal current, size, started
        text.clear()
        size = 0
        if tag == "player":
            current = {}
            started = parser.CurrentLineNumber

    def data(chunk: str) -> None:
        nonlocal size
        size += len(chunk)
        if size <= MAX_FIELD:
            text.append(chunk)

    def end(tag: str) -> None:
        nonlocal current
        if current is None:
            return
        if tag == "player":
            ready.append((current, started))
            current = None
        elif tag in _XML_FIELDS:
            if size > MAX_FIELD:
                current["!"] = tag
            current[_XML_FIELDS[tag]] = "".join(text).strip()
        text.clear()

    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    parser.ExternalEntityRefHandler = refuse  # type: ignore[assignment]
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = data
    while True:
        chunk = stream.read(1 << 16)
        try:
            parser.Parse(chunk, not chunk)
        except _XmlRefusedError:
            raise InputError(
                "the XML declares a document type or entities, which a rating list never does",
                source=report.source,
                line=parser.CurrentLineNumber,
            ) from None
        except LookupError as error:  # <?xml encoding="…"?> names an unknown encoding
            raise InputError(
                "the XML declares an unknown encoding ({reason})",
                source=report.source,
                line=parser.CurrentLineNumber,
                reason=str(error)[:100],
            ) from None
        except expat.ExpatError as error:
            raise InputError(
                "not well-formed XML ({reason})",
                source=report.source,
                line=error.lineno,
                reason=expat.ErrorString(error.code),
            ) from None
        for values, line in ready:
            too_long = values.pop("!", "")
            if too_long:
                report.skip("<{tag}> is too long", line=line, tag=too_long)
                continue
            values[kind] = values.pop("rating", values.get(kind, ""))
            player = _player(values, report, line, kind)
            if player is not None:
                yield player
        ready.clear()
        if not chunk:
            return


# -- one player ------------------------------------------------------------------------

_TITLES = {"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"}
_FIELD_NAMES = {
    "id": "FIDE id",
    "standard": "standard rating",
    "rapid": "rapid rating",
    "blitz": "blitz rating",
    "born": "birth year",
}


_ASCII_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _has_control(name: str) -> bool:
    """Control, format, unassigned or private characters (Unicode category C)."""
    if name.isascii():
        return _ASCII_CONTROL.search(name) is not None
    return any(unicodedata.category(c)[0] == "C" for c in name)


def _player(
    values: dict[str, str], report: ListReport, line: int, kind: str
) -> ListedPlayer | None:
    """One player from its fields as text; None (the line skipped and reported) when bad."""
    name = " ".join(values.get("name", "").split())
    if not name:
        report.skip("name: missing", line=line)
        return None
    if len(name) > 200 or _has_control(name):
        report.skip("name: longer than 200 characters or with control characters", line=line)
        return None
    numbers: dict[str, int | None] = {}
    for key, low, high in (
        ("id", 1, 10**12 - 1),
        ("standard", 0, 3500),
        ("rapid", 0, 3500),
        ("blitz", 0, 3500),
        ("born", 1850, 2100),
    ):
        raw = values.get(key, "")
        if raw in ("", "0000") or (key == "born" and raw == "0"):
            numbers[key] = None
            continue
        value = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 12 else None
        if value is None or not low <= value <= high:
            report.skip(
                "{field}: {value} is not a number from {low} to {high}",
                line=line,
                field=_FIELD_NAMES[key],
                value=repr(raw[:20]),
                low=low,
                high=high,
            )
            return None
        numbers[key] = value or None  # a rating 0 is no rating
    fide_id = numbers["id"]
    if fide_id is None:
        report.skip("FIDE id: missing", line=line)
        return None
    sex = {"m": "m", "f": "w", "w": "w", "": ""}.get(values.get("sex", "").casefold())
    if sex is None:
        report.skip("sex: {value} is not M or F", line=line, value=repr(values["sex"][:10]))
        return None
    title = values.get("tit", "").upper() or values.get("wtit", "").upper()
    if title not in _TITLES:
        title = ""
    federation = values.get("fed", "").upper()
    if federation and not (len(federation) <= 3 and federation.isascii() and federation.isalpha()):
        report.skip(
            "federation: {value} is not a FIDE code", line=line, value=repr(federation[:10])
        )
        return None
    return ListedPlayer(
        fide_id=fide_id,
        name=name,
        federation=federation,
        sex=sex,
        title=title,
        birth_year=numbers["born"],
        standard=numbers["standard"],
        rapid=numbers["rapid"],
        blitz=numbers["blitz"],
    )
