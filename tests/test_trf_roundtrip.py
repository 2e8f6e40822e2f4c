"""TRF round trips: parse → write → parse keeps every value; writing is canonical."""

from __future__ import annotations

from pathlib import Path

import pytest

from crosstable.core.errors import RuleError
from crosstable.formats.trf import parse_trf, read_trf, trf16_losses, write_trf
from tests.conftest import DATA

REFERENCE = sorted(DATA.glob("**/*.trf"))


@pytest.mark.parametrize("path", REFERENCE, ids=lambda p: p.name)
def test_reference_round_trip_trf2026(path: Path) -> None:
    doc = read_trf(path)
    written = write_trf(doc)
    again = parse_trf(written, source="written")
    assert again == doc  # tournament, headers, comments, points, ranks and every extra
    assert write_trf(again) == written  # byte-identical


@pytest.mark.parametrize("path", REFERENCE, ids=lambda p: p.name)
def test_reference_round_trip_trf16(path: Path) -> None:
    doc = read_trf(path)
    written = write_trf(doc, "trf16")
    again = parse_trf(written, source="written")
    assert again.tournament == doc.tournament
    # a comment after a TRF-2026 tag (142) moves up to the last TRF-16 tag
    assert [c.text for c in again.comments] == [c.text for c in doc.comments]
    assert (again.file_points, again.file_ranks) == (doc.file_points, doc.file_ranks)
    assert again.initial_colour == doc.initial_colour  # carried by XXC white1/black1
    assert write_trf(again, "trf16") == written
    assert not [line for line in written.splitlines() if line[:3] in ("142", "152", "192")]


def test_trf16_reports_what_it_leaves_out() -> None:
    doc = read_trf(DATA / "tiebreaks/real/icu_gonzaga_classic_2008.trf")
    assert trf16_losses(doc) == []
    text = write_trf(doc).replace("142 5\n", "142 5\n202 DE, BH/C1\n222 5400+30\n")
    losses = trf16_losses(parse_trf(text))
    assert losses == ["tag 222 (encoded time control)", "tie-break list (202/212)"]


def test_comments_stay_after_their_record() -> None:
    doc = read_trf(DATA / "tiebreaks/real/icu_bunratty_major_2011.trf")
    lines = write_trf(doc).splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("###"))
    assert lines[first - 1].startswith("142 ")
    assert sum(line.startswith("###") for line in lines) == len(doc.comments) == 12


def test_unknown_edition() -> None:
    doc = read_trf(DATA / "tiebreaks/seed-examples/vibe_chess_rr6.trf")
    with pytest.raises(RuleError, match="trf16 or trf2026"):
        write_trf(doc, "trf06")


SWISS = sorted((DATA / "swiss-dutch").glob("*.trf"))


@pytest.mark.parametrize("path", SWISS, ids=lambda p: p.name)
def test_before_round_matches_the_reference_cut(path: Path) -> None:
    """data/README.md: the input for round r keeps rounds 1…r−1, pre-assigned
    byes of round r, and points recomputed; expected.json lists those byes."""
    import json

    doc = read_trf(path)
    absent = json.loads(path.with_suffix("").with_suffix(".expected.json").read_text())["absent"]
    for number in range(1, len(doc.tournament.rounds) + 1):
        cut = doc.before_round(number)
        byes = [
            [b.player, b.kind.value]
            for r in cut.tournament.rounds
            if r.number == number
            for b in r.byes
        ]
        assert byes == absent[str(number)]
        assert cut.pending_round == (number if byes else None)
        assert [r.number for r in cut.tournament.rounds][: number - 1] == list(range(1, number))
        if number in (2, len(doc.tournament.rounds)):
            again = parse_trf(write_trf(cut))
            assert again == cut
            assert again.tournament.settings.rounds == doc.tournament.settings.rounds
