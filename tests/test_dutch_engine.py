"""Dutch engine pieces: weights, colours, accelerations, prohibited pairs, errors."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from crosstable.cli import main
from crosstable.core.errors import RuleError
from crosstable.core.model import Colour
from crosstable.core.pairing.dutch import (
    Competitor,
    NoValidPairingError,
    PairingRequest,
    RoundRecord,
    pair_round,
    request_for,
)
from crosstable.core.pairing.dutch.colours import colour_of
from crosstable.core.pairing.dutch.engine import _Pairer
from crosstable.core.pairing.dutch.generator import GeneratorSettings, generate
from crosstable.core.pairing.dutch.players import Float, PlayerState, colour_data
from crosstable.core.pairing.dutch.weights import EdgeFields, _Packer
from tests.dutch_data import document_before, load

WIN, DRAW, LOSS = Fraction(1), Fraction(1, 2), Fraction(0)


def _request(name: str, number: int, data_dir: Path) -> PairingRequest:
    text, _ = load(data_dir, name)
    doc = document_before(text, number, name)
    return request_for(doc.tournament, number, initial_colour=doc.initial_colour or Colour.WHITE)


@pytest.mark.parametrize(("name", "number"), [("p22_n038_r08_mixed", 8), ("p16_n023_r11_heavy", 6)])
def test_fast_weights_equal_the_field_definitions(data_dir: Path, name: str, number: int) -> None:
    pairer = _Pairer(_request(name, number, data_dir))
    pairer.bye_score = pairer.players[-1].pairing_score
    fields = EdgeFields(pairer)
    bracket = list(range(len(pairer.players)))
    movers, resident_end = 3, len(bracket) // 2
    for single in (False, True):
        stage = fields.stage(bracket, movers, resident_end, single)
        packer = _Packer(fields, stage.layout, single)
        for (i, j), packed in stage.packed.items():
            lower_in = bracket.index(j) < resident_end
            assert packed == stage.layout.pack(fields.base(i, j, lower_in, single))
            assert packer.weight(i, j, lower_in) == packed


def _state(start: int, colours: str) -> PlayerState:
    played = tuple(Colour.WHITE if c == "w" else Colour.BLACK for c in colours)
    imbalance, preference, repeated, strong = colour_data(played)
    return PlayerState(
        start=start,
        rank=start - 1,
        score=LOSS,
        pairing_score=LOSS,
        imbalance=imbalance,
        preference=preference,
        repeated=repeated,
        strong=strong,
        bye_eligible=True,
        played_games=len(played),
        played_colours=played,
        floats=(Float.NONE, Float.NONE),
        opponents=frozenset(),
    )


def test_colours_follow_art_5() -> None:
    # a strong preference for black (wwb) and a mild one for white (bwb): both granted
    assert colour_of(_state(1, "wwb"), _state(2, "bwb"), Colour.WHITE) is Colour.BLACK
    # both absolute for black: the larger colour difference wins
    assert colour_of(_state(1, "bwww"), _state(2, "bbww"), Colour.WHITE) is Colour.BLACK
    assert colour_of(_state(2, "bbww"), _state(1, "bwww"), Colour.WHITE) is Colour.WHITE
    # same mild preference: alternate from the last round where they differed
    # (round 2: 1 had black, 2 had white, so 1 now gets white)
    assert colour_of(_state(1, "wbwb"), _state(2, "bwwb"), Colour.WHITE) is Colour.WHITE
    assert colour_of(_state(2, "bwwb"), _state(1, "wbwb"), Colour.WHITE) is Colour.BLACK
    # the same history: the higher ranked player gets their preference
    assert colour_of(_state(2, "wb"), _state(1, "wb"), Colour.WHITE) is Colour.BLACK
    assert colour_of(_state(1, "wb"), _state(2, "wb"), Colour.WHITE) is Colour.WHITE
    # no history at all: odd pairing number of the higher player gets the initial colour
    assert colour_of(_state(1, ""), _state(2, ""), Colour.WHITE) is Colour.WHITE
    # TPN 2 (even) ranks higher: it gets the other colour than the initial black
    assert colour_of(_state(3, ""), _state(2, ""), Colour.BLACK) is Colour.BLACK


def test_round_one_initial_colour_black() -> None:
    request = PairingRequest(1, 5, tuple(Competitor(s) for s in range(1, 7)), Colour.BLACK)
    assert pair_round(request).boards == ((4, 1), (2, 5), (6, 3))


def test_no_valid_pairing_is_reported() -> None:
    first = Competitor(1, (RoundRecord.game(2, Colour.WHITE, WIN),))
    second = Competitor(2, (RoundRecord.game(1, Colour.BLACK, LOSS),))
    with pytest.raises(NoValidPairingError):
        pair_round(PairingRequest(2, 3, (first, second)))


def test_request_checks_its_input() -> None:
    with pytest.raises(RuleError):
        PairingRequest(2, 3, (Competitor(1),))
    with pytest.raises(RuleError):
        PairingRequest(4, 3, ())
    with pytest.raises(RuleError):
        PairingRequest(1, 3, (Competitor(2),))
    tournament = generate(GeneratorSettings(players=6, rounds=2, seed=2))
    with pytest.raises(RuleError, match="already paired"):
        request_for(tournament, 2)


def _trf(tmp_path: Path, extra: str, players: int = 16) -> Path:
    lines = [
        f"001 {s:4d}      Player {s:04d}{' ' * 22}{2400 - 10 * s:4d}{' ' * 29} 0.0"
        for s in range(1, players + 1)
    ]
    path = tmp_path / "event.trf"
    path.write_text("012 Test\n" + "\n".join(lines) + "\nXXR 9\nXXC white1\n" + extra)
    return path


def _boards(path: Path, capsys: pytest.CaptureFixture[str]) -> list[set[int]]:
    assert main(["pair", str(path), "--format", "json"]) == 0
    return [set(b) for b in json.loads(capsys.readouterr().out)["boards"]]


def test_baku_acceleration_pairs_group_a_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = _boards(_trf(tmp_path, ""), capsys)
    assert {1, 9} in plain
    baku = _boards(_trf(tmp_path, "192 FIDE_DUTCH_2025_BAKU\n"), capsys)
    assert {1, 5} in baku and {9, 13} in baku


def test_xxa_and_250_accelerations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    xxa = "".join(f"XXA {s:4d}  1.0\n" for s in range(1, 9))
    assert {1, 5} in _boards(_trf(tmp_path, xxa), capsys)
    record = "250       1.0   1   1    1    8\n"
    assert {1, 5} in _boards(_trf(tmp_path, record), capsys)


def test_prohibited_pairings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert {1, 9} not in _boards(_trf(tmp_path, "XXP 1 9\n"), capsys)
    assert {1, 9} not in _boards(_trf(tmp_path, "260   1   9    1    9\n"), capsys)
    assert {1, 9} in _boards(_trf(tmp_path, "260   2   9    1    9\n"), capsys)
