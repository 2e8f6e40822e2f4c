"""Tournament JSON: exact round trips, number forms, envelope and errors."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings

from crosstable.core.errors import InputError
from crosstable.core.model import Player, Tournament
from crosstable.core.scoring import points_json
from crosstable.formats.json_io import (
    dump_json,
    load_json,
    tournament_from_json,
    tournament_to_json,
)
from crosstable.formats.trf import TrfDocument, read_trf
from tests.conftest import DATA
from tests.test_trf_properties import documents

REFERENCE = sorted(DATA.glob("**/*.trf"))


@pytest.mark.parametrize("path", REFERENCE, ids=lambda p: p.name)
def test_reference_json_round_trip(path: Path) -> None:
    doc = read_trf(path)
    text = dump_json(doc)
    assert load_json(text) == doc
    assert dump_json(load_json(text)) == text


@settings(max_examples=60, deadline=None)
@given(documents())
def test_random_documents_json_round_trip(doc: TrfDocument) -> None:
    assert tournament_from_json(json.loads(dump_json(doc))) == doc


def test_points_are_numbers_when_exact() -> None:
    assert [points_json(Fraction(n, d), "exact") for n, d in ((9, 2), (21, 4), (3, 1), (1, 5))] == [
        4.5,
        5.25,
        3,
        0.2,
    ]
    assert points_json(Fraction(1, 3), "exact") == "1/3"
    doc = read_trf(DATA / "tiebreaks/seed-examples/vibe_chess_rr6.trf")
    data = tournament_to_json(doc)
    assert data["trf"]["file_points"]["2"] == 2.5
    assert data["tournament"]["settings"]["point_system"]["draw"] == 0.5
    assert "2.5" in dump_json(doc)


def test_envelope_and_layout() -> None:
    doc = read_trf(DATA / "tiebreaks/real/icu_gonzaga_classic_2008.trf")
    data = tournament_to_json(doc)
    assert (data["format"], data["version"]) == ("crosstable-tournament", 1)
    first_round = data["tournament"]["rounds"][0]
    assert first_round["number"] == 1
    game = first_round["games"][0]
    assert set(game) == {"round", "board", "white", "black", "result", "reason"}
    assert game["result"] in ({"white": "0", "black": "1"}, {"white": "1", "black": "0"}) or (
        game["result"]["white"] in "10=+-"
    )
    assert first_round["byes"] == [
        {"round": 1, "player": 1, "kind": "H"},
        {"round": 1, "player": 8, "kind": "H"},
    ]
    assert data["trf"]["headers"]["102"] == "Michael Germaine, mlgermaine@eircom.net"


def test_bare_tournament() -> None:
    tournament = Tournament(players=(Player(1, "Anna", rating=2100),))
    data = tournament_to_json(tournament)
    assert "trf" not in data
    assert tournament_from_json(data).tournament == tournament


def test_errors_name_the_json_path() -> None:
    good = tournament_to_json(read_trf(DATA / "tiebreaks/seed-examples/vibe_chess_rr6.trf"))
    bad = json.loads(json.dumps(good))
    bad["tournament"]["settings"]["system"] = "swizz"
    with pytest.raises(InputError, match=r"\$\.tournament\.settings\.system: 'swizz'"):
        tournament_from_json(bad, source="t.json")
    bad = json.loads(json.dumps(good))
    bad["tournament"]["players"][0]["colour"] = "w"
    with pytest.raises(InputError, match=r"players\[0\]: unknown field 'colour'$"):
        tournament_from_json(bad)
    bad["tournament"]["players"][0]["club"] = "Yerevan"  # two: the plural, no "(s)"
    with pytest.raises(InputError, match=r"players\[0\]: unknown fields 'club', 'colour'$"):
        tournament_from_json(bad)
    many = {**good, **{f"extra{n}": n for n in range(7)}}
    with pytest.raises(InputError, match=r"unknown fields 'extra0', .*'extra4' and 2 more$"):
        tournament_from_json(many)
    bad = json.loads(json.dumps(good))
    bad["tournament"]["rounds"][0]["games"][0]["white"] = 99
    with pytest.raises(InputError, match="no player with starting number 99"):
        tournament_from_json(bad)
    with pytest.raises(InputError, match='"format"'):
        tournament_from_json({"format": "other", "version": 1})
    with pytest.raises(InputError) as caught:
        load_json('{\n  "format": ,\n}', source="t.json")
    assert (caught.value.source, caught.value.line, caught.value.column) == ("t.json", 2, 13)
