"""FIDE Tournament Report File: read and write TRF-16, TRF-2026 and TRF(x).

>>> doc = parse_trf("012 Demo\\n001    1      A" + " " * 66 + "0.5          2 b =\\n"
...                 "001    2      B" + " " * 66 + "0.5          1 w =\\n")
>>> game = doc.tournament.rounds[0].games[0]
>>> (game.white, game.black, game.result.label())
(2, 1, '½-½')
>>> parse_trf(write_trf(doc)) == doc
True
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from crosstable.core.errors import InputError
from crosstable.formats.limits import MAX_FILE_BYTES
from crosstable.formats.trf_encoding import decode_with_note
from crosstable.formats.trf_model import (
    AbnormalPoints,
    Acceleration,
    ByeRecord,
    Comment,
    NationalRecord,
    ProhibitedPairing,
    Team,
    TrfDocument,
)
from crosstable.formats.trf_read import parse_trf
from crosstable.formats.trf_write import EDITIONS, trf16_losses, write_trf


def decode_trf(data: bytes) -> str:
    """TRF bytes as text: UTF-8 (a BOM is dropped), else Cyrillic Windows-1251 or KOI8-R
    when the letters say so, else Windows-1252, else Latin-1
    (:mod:`crosstable.formats.trf_encoding`).

    >>> decode_trf("Müller".encode("latin-1")), decode_trf("Müller".encode())
    ('Müller', 'Müller')
    """
    return decode_with_note(data)[0]


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """A file's bytes, refused without reading it all when it is over the size limit."""
    with Path(path).open("rb") as stream:
        data = stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise InputError(
            f"the file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB, "
            "more than any tournament report needs",
            source=str(path),
        )
    return data


def read_trf(path: str | os.PathLike[str], *, lenient: bool = False) -> TrfDocument:
    """Read a TRF file (any of the encodings :func:`decode_trf` knows); a guessed
    Cyrillic encoding is said in the document's warnings."""
    text, note = decode_with_note(read_bytes(path))
    doc = parse_trf(text, source=str(path), lenient=lenient)
    return doc if note is None else replace(doc, warnings=(note, *doc.warnings))


__all__ = [
    "EDITIONS",
    "AbnormalPoints",
    "Acceleration",
    "ByeRecord",
    "Comment",
    "NationalRecord",
    "ProhibitedPairing",
    "Team",
    "TrfDocument",
    "decode_trf",
    "parse_trf",
    "read_bytes",
    "read_trf",
    "trf16_losses",
    "write_trf",
]
