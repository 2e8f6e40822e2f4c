"""Fuzz targets of the rating-list readers (issue 16 item 1): FIDE's TXT and XML lists,
a national CSV, each plain and zipped.

The invariant for every input: the reader yields valid players (a FIDE id, a name
without control characters, ratings 0…3500) and reports the lines it skipped, or
refuses the file with an :class:`~crosstable.core.errors.InputError` — never another
exception, and never more than the time bound. ``CROSSTABLE_FUZZ_EXAMPLES`` runs long
(docs/fuzzing.md).
"""

from __future__ import annotations

import contextlib
import tempfile
import unicodedata
import zipfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crosstable.core.errors import InputError
from crosstable.formats.rating_list import ListReport, read_rating_list
from tests.rating_list_files import fide_txt, fide_xml, national_csv
from tests.test_fuzz_support import bounded, examples

FUZZ = settings(
    max_examples=examples(120),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
PIECES = [
    b"0",
    b"9999",
    b"-1",
    b"999999999999999",
    b"\x00",
    b"\xff\xfe",
    b"\r",
    b"\n",
    b";",
    b",",
    b'"',
    b"<",
    b">",
    b"</player>",
    b"<player>",
    b"&amp;",
    b"&x;",
    b"<!DOCTYPE a>",
    b"]]>",
    "Ж".encode(),
    b"\xc3",
    b" " * 500,
    b"M",
    b"F",
    b"GM",
]


@st.composite
def mutated(draw: st.DrawFn, seed: str) -> bytes:
    data = bytearray(seed.encode())
    for _ in range(draw(st.integers(1, 8))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.integers(0, 3))
        if kind == 0:
            data[at : at + 1] = draw(st.sampled_from(PIECES))
        elif kind == 1:
            data[at:at] = draw(st.sampled_from(PIECES))
        elif kind == 2:
            del data[at : at + draw(st.integers(1, 40))]
        else:
            data[at:at] = draw(st.binary(max_size=30))
    return bytes(data)


def check(name: str, data: bytes, *, zipped: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        if zipped:
            path = path.with_suffix(".zip")
            with zipfile.ZipFile(path, "w") as archive:
                archive.writestr(name, data)
        else:
            path.write_bytes(data)
        report = ListReport(str(path))
        with bounded(f"reading {name}"):
            try:
                players = list(read_rating_list(path, report))
            except InputError as error:
                assert str(path) in str(error)
                return
        assert report.players == len(players)
        for player in players:
            assert player.fide_id > 0 and player.name == " ".join(player.name.split())
            assert not any(unicodedata.category(c)[0] == "C" for c in player.name)
            for rating in (player.standard, player.rapid, player.blitz):
                assert rating is None or 0 < rating <= 3500
            assert player.sex in ("", "m", "w") and len(player.federation) <= 3
        for problem in report.problems:
            assert problem.line is not None and str(path) in str(problem)


@FUZZ
@given(data=mutated(fide_txt()), zipped=st.booleans())
def test_fuzz_txt(data: bytes, zipped: bool) -> None:
    check("players_list_foa.txt", data, zipped=zipped)


@FUZZ
@given(data=mutated(fide_xml()), zipped=st.booleans())
def test_fuzz_xml(data: bytes, zipped: bool) -> None:
    check("players_list_xml_foa.xml", data, zipped=zipped)


@FUZZ
@given(data=mutated(national_csv()), zipped=st.booleans())
def test_fuzz_csv(data: bytes, zipped: bool) -> None:
    check("national.csv", data, zipped=zipped)


@FUZZ
@given(data=st.binary(max_size=2000))
def test_fuzz_any_bytes_as_a_zip(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "players_list.zip"
        path.write_bytes(b"PK\x03\x04" + data)
        with contextlib.suppress(InputError), bounded("reading any bytes as a zip"):
            list(read_rating_list(path))
