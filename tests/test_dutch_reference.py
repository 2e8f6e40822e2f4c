"""Every round of the 40 reference tournaments, paired as the endorsed engine does.

For round r the .trf is cut after round r-1 (data/README.md) and paired; the
pairs, their colours, the board order and the PAB must equal the reference.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from crosstable.core.model import Colour
from crosstable.core.pairing.dutch import pair_round, request_for
from tests.conftest import DATA
from tests.dutch_data import document_before, load, reference_sets

SETS = reference_sets(DATA) if DATA.is_dir() else []


@pytest.mark.parametrize("name", SETS)
def test_reference_tournament(data_dir: Path, name: str) -> None:
    text, expected = load(data_dir, name)
    rounds = expected["rounds"]
    absent = expected["absent"]
    assert isinstance(rounds, dict) and isinstance(absent, dict)
    wrong = []
    for number, boards in rounds.items():
        doc = document_before(text, int(number), name)
        request = request_for(
            doc.tournament, int(number), initial_colour=doc.initial_colour or Colour.WHITE
        )
        pairing = pair_round(request)
        got = [list(board) for board in pairing.boards]
        if pairing.bye is not None:
            got.append([pairing.bye, 0])
        if got != boards:
            wrong.append((number, got, boards))
        assert sorted(request.absent) == sorted(p for p, _ in absent.get(number, []))
    assert not wrong, f"{len(wrong)} of {len(rounds)} rounds differ: {wrong[:1]}"


def test_all_reference_sets_present() -> None:
    assert len(SETS) == 40
