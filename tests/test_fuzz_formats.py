"""Fuzz targets: the TRF reader and writer, the tournament-JSON reader (issue 13 item 6).

The invariant for every input: the reader raises its own error (a
:class:`~crosstable.core.errors.CrosstableError`) or returns a value that
round-trips — written as TRF-2026 and TRF-16 and read again it is the same, as
JSON and read again it is the same — never another exception, and never more
than the time bound (tests/test_fuzz_support.py). A short fixed budget runs in
CI; ``CROSSTABLE_FUZZ_EXAMPLES=20000`` runs long (docs/fuzzing.md).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis.strategies import booleans

from crosstable.cli import main
from crosstable.core.errors import CrosstableError
from crosstable.formats.json_io import dump_json, load_json, tournament_from_json
from crosstable.formats.trf import TrfDocument, parse_trf, trf16_losses, write_trf
from tests.test_fuzz_support import (
    bounded,
    examples,
    json_seeds,
    mutated_json,
    mutated_trf,
    seeds,
)

FUZZ = settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def round_trips(doc: TrfDocument, lenient: bool) -> None:
    """Written back, the document reads again as itself (TRF-2026, JSON) or as its
    tournament (TRF-16, which has no tie-break list)."""
    text = write_trf(doc)
    again = parse_trf(text, source="written", lenient=lenient)
    # a ### comment after a record the writer does not write as such (a 162 that says
    # the default scoring) moves to the end of the tags: its anchor may change, its
    # text is kept (reported to the writer's owner)
    assert replace(again, comments=()) == replace(doc, comments=())
    assert sorted(c.text for c in again.comments) == sorted(c.text for c in doc.comments)
    assert write_trf(again) == text
    # TRF-16 has no record 299: the points column it explained then does not add up
    lenient_16 = lenient or bool(doc.abnormal_points)
    trf16 = parse_trf(write_trf(doc, "trf16"), source="written", lenient=lenient_16)
    assert (trf16.tournament.players, trf16.tournament.rounds) == (
        doc.tournament.players,
        doc.tournament.rounds,
    )
    if not [loss for loss in trf16_losses(doc) if "202/212" not in loss]:
        # nothing else lost (such as 192's cycles): the whole tournament comes back
        settings_16 = replace(doc.tournament.settings, tiebreaks=())
        assert trf16.tournament == replace(doc.tournament, settings=settings_16)
    assert load_json(dump_json(doc), lenient=lenient) == doc


def test_corpus_reads() -> None:
    """Every seed is a good file: the mutations start from something valid."""
    trf = seeds(".trf")
    assert len(trf) >= 4
    from crosstable.formats.trf import decode_trf

    for data in trf:
        round_trips(parse_trf(decode_trf(data)), lenient=False)
    for document in json_seeds():
        round_trips(tournament_from_json(document), lenient=False)


@FUZZ
@given(mutated_trf(), booleans())
def test_fuzz_trf_reader_and_writer(text: str, lenient: bool) -> None:
    with bounded("reading and writing back a mutated TRF"):
        try:
            doc = parse_trf(text, source="fuzz", lenient=lenient)
        except CrosstableError:
            return
        round_trips(doc, lenient)


def json_round_trips(doc: TrfDocument, lenient: bool) -> None:
    """Read from JSON: the JSON reads back as itself; as TRF it is written and read
    again, and from then on it is stable (TRF numbers the boards of its own accord and
    keeps no board numbers, so the first TRF may differ from the JSON there)."""
    assert load_json(dump_json(doc), lenient=lenient) == doc
    first = parse_trf(write_trf(doc), source="written", lenient=lenient)
    round_trips(first, lenient)


@FUZZ
@given(mutated_json(json_seeds()), booleans())
def test_fuzz_json_reader(document: object, lenient: bool) -> None:
    text = json.dumps(document)
    with bounded("reading and writing back a mutated tournament JSON"):
        try:
            doc = load_json(text, source="fuzz", lenient=lenient)
        except CrosstableError:
            return
        json_round_trips(doc, lenient)


@settings(
    max_examples=examples(12),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(text=mutated_trf())
def test_fuzz_command_line(text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The commands that read a TRF: exit 0, 1 (check: rounds differ) or 2 with one line,
    never an exception out of main() (the issue's 570 CLI runs gave 77 tracebacks)."""
    path = tmp_path / "fuzz.trf"
    path.write_text(text, encoding="utf-8")
    for command in (
        ["trf", "validate", "--lenient"],
        ["standings", "--format", "crosstable"],
        ["pair", "--format", "json"],
        ["check"],
    ):
        with bounded(f"crosstable {command[0]} on a mutated TRF"):
            status = main([*command, str(path)])
        err = capsys.readouterr().err
        assert status in (0, 1, 2), (command, status)
        assert "Traceback" not in err
        if status == 2:  # the warnings first, if any, then the one line of the error
            assert err.splitlines()[-1].startswith("crosstable: "), err


@pytest.mark.parametrize(
    "text",
    [
        "{" * 50_000,
        '{"format": "crosstable-tournament", "version": 1, "tournament": ' + "[" * 5000,
        "[" + "1," * 100_000 + "1]",
    ],
)
def test_json_text_shapes(text: str) -> None:
    with bounded("reading a hostile JSON text"), pytest.raises(CrosstableError):
        load_json(text, source="fuzz")
