"""FIDE Tournament Report File: read and write TRF-16, TRF-2026 and TRF(x).

>>> doc = parse_trf("012 Demo\\n001    1      A" + " " * 68 + "0.5        2 b =\\n"
...                 "001    2      B" + " " * 68 + "0.5        1 w =\\n")
>>> game = doc.tournament.rounds[0].games[0]
>>> (game.white, game.black, game.result.label())
(2, 1, '½-½')
>>> parse_trf(write_trf(doc)) == doc
True
"""

from __future__ import annotations

import os
from pathlib import Path

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
    """TRF bytes as text: UTF-8 (a BOM is dropped), else Windows-1252, else Latin-1.

    >>> decode_trf("Müller".encode("latin-1")), decode_trf("Müller".encode())
    ('Müller', 'Müller')
    """
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def read_trf(path: str | os.PathLike[str]) -> TrfDocument:
    """Read a TRF file (any of the encodings :func:`decode_trf` knows)."""
    return parse_trf(decode_trf(Path(path).read_bytes()), source=str(path))


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
    "read_trf",
    "trf16_losses",
    "write_trf",
]
