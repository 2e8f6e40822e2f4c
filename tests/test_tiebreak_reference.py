"""Every value and rank of the 45 real tournaments against FIDE's reference calculator.

``../shared/data/tiebreaks/real/<name>.expected.json`` holds, per player, the
values TieBreakServer 1.9.57 computed under the C.07 text of 1 Aug 2024 (two
provably wrong values corrected, see ``corrections``), the ranks under the
file's ``ranking_order`` and under other orders, and for Swiss events with
unplayed rounds the values that change under the 2026 text (``variants_2026``).
No file is skipped; see docs/tiebreaks.md for the one place where a
reference ranking and the portal's definition differ on purpose (ARO_rated).
"""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from crosstable.core.model import RulesEdition, Tournament
from crosstable.core.standings.ranking import rank
from crosstable.core.tiebreaks import REGISTRY, Column, compile_field, parse_code
from crosstable.core.tiebreaks.field import Field
from crosstable.formats.trf import read_trf
from tests.conftest import DATA

REAL = DATA / "tiebreaks" / "real"
NAMES = sorted(p.name.removesuffix(".expected.json") for p in REAL.glob("*.expected.json"))

# expected.json key → our code
CODES = {
    "SB": "SB",
    "KS": "KS",
    "WIN": "WIN",
    "WON": "WON",
    "BPG": "BPG",
    "BWG": "BWG",
    "ARO": "ARO",
    "ARO_rated": "ARO_RATED",
    "BH": "BH",
    "BH-C1": "BH/C1",
    "PS": "PS",
    "AOB": "AOB",
}


@cache
def expected(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((REAL / f"{name}.expected.json").read_text())
    return data


@cache
def tournament(name: str) -> Tournament:
    return read_trf(REAL / f"{name}.trf").tournament


@cache
def field(name: str, edition: RulesEdition = RulesEdition.C07_2024) -> Field:
    return compile_field(tournament(name), edition=edition)


def column(name: str, code: str, edition: RulesEdition = RulesEdition.C07_2024) -> Column:
    spec = parse_code(code)
    return REGISTRY[spec.name].compute(field(name, edition), spec)


def exact(value: float) -> Fraction:
    return Fraction(str(value))


def round_half_up(value: Fraction) -> int:
    return (2 * value.numerator + value.denominator) // (2 * value.denominator)


def strip_edition(code: str) -> str:
    """``BH/C1/V2024`` → ``BH/C1``: the edition is passed as a setting instead."""
    return "/".join(part for part in code.split("/") if not part.upper().startswith("V"))


def test_the_reference_set_is_complete() -> None:
    assert len(NAMES) == 45


@pytest.mark.parametrize("name", NAMES)
def test_points(name: str) -> None:
    f = field(name)
    for start, values in expected(name)["players"].items():
        assert f.points(f.score[int(start) - 1]) == exact(values["points"]), start


@pytest.mark.parametrize("key", sorted(CODES))
@pytest.mark.parametrize("name", NAMES)
def test_tiebreak_values(name: str, key: str) -> None:
    col = column(name, CODES[key])
    wrong = []
    for start, values in expected(name)["players"].items():
        want = values[key]
        got = col.natural(int(start) - 1)
        if want is None or got is None:
            ok = want is None and got is None  # ARO: null in the reference ⇔ dropped here
        elif key == "ARO_rated":  # the reference prints it rounded; ours is exact
            ok = round_half_up(Fraction(got)) == want
        else:
            ok = Fraction(got) == exact(want)  # AOB: both rounded to 0.01
        if not ok:
            wrong.append((start, want, got))
    assert wrong == []


@pytest.mark.parametrize("name", NAMES)
def test_direct_encounter_numbers(name: str) -> None:
    """The reference's DE number is the place in the mini-table right after points."""
    ranking = rank(field(name), [parse_code("DE")])
    numbers = ranking.columns[0].values
    for start, values in expected(name)["players"].items():
        assert numbers[int(start) - 1] == values["DE"], start


@pytest.mark.parametrize("name", NAMES)
def test_rank_under_the_file_ranking_order(name: str) -> None:
    data = expected(name)
    specs = [parse_code(strip_edition(c)) for c in data["ranking_order"][1:]]
    ranking = rank(field(name), specs)
    got = {str(p + 1): r for p, r in ranking.ranks.items()}
    assert got == data["ranks"]
    assert [p + 1 for p in ranking.order] == data["ranking"]


def _other_orders() -> list[tuple[str, str]]:
    return [(name, label) for name in NAMES for label in sorted(expected(name).get("rankings", {}))]


@pytest.mark.parametrize(("name", "label"), _other_orders())
def test_rank_under_other_orders(name: str, label: str) -> None:
    block = expected(name)["rankings"][label]
    specs = [parse_code(strip_edition(c)) for c in block["order"][1:]]
    f = field(name)
    rounded = None
    if any(s.name == "ARO_RATED" for s in specs):
        # The reference ranks on the printed, rounded value; rank on that to compare.
        columns: list[Column | None] = []
        for spec in specs:
            if spec.name != "ARO_RATED":
                columns.append(None)
                continue
            exact_col = REGISTRY[spec.name].compute(f, spec)
            values = [None if v is None else round_half_up(Fraction(v)) for v in exact_col.values]
            rounded = Column(spec, list(values), 1, True, True)
            columns.append(rounded)
        ranking = rank(f, specs, columns=columns)
    else:
        ranking = rank(f, specs)
    got = {str(p + 1): r for p, r in ranking.ranks.items()}
    assert got == block["ranks"]


@pytest.mark.parametrize("name", NAMES)
def test_exact_portal_average_only_splits_ties_of_the_rounded_value(name: str) -> None:
    """With the unrounded ARO_RATED (the portal's definition) a rank differs from the
    reference's plain sort of the rounded value only where the rounded values tie."""
    block = expected(name).get("rankings", {}).get("PTS,SB,ARO_rated")
    if block is None:
        assert "PTS,SB,ARO_rated" not in expected(name).get("rankings", {})
        return
    f = field(name)
    specs = [parse_code("SB"), parse_code("ARO_RATED")]
    ranking = rank(f, specs)
    players = expected(name)["players"]
    for start, want in block["ranks"].items():
        got = ranking.ranks[int(start) - 1]
        if got == want:
            continue
        tied = [s for s, r in block["ranks"].items() if r == want]
        assert len(tied) > 1, start
        assert len({players[s]["ARO_rated"] for s in tied}) == 1
        assert len({ranking.ranks[int(s) - 1] for s in tied}) > 1


def test_the_two_rounded_ties_the_portal_average_splits() -> None:
    """Proof for docs/tiebreaks.md: 1679.89 and 1680 both print as 1680."""
    f = field("fr_domloup_rapide_2025_bretagne")
    aro = column("fr_domloup_rapide_2025_bretagne", "ARO_RATED")
    assert aro.natural(36) == Fraction(15119, 9)  # player 37: 1679.89
    assert aro.natural(23) == 1680  # player 24
    assert f.score[36] == f.score[23]
    f2 = field("fr_liffre_2025_b")
    aro2 = column("fr_liffre_2025_b", "ARO_RATED")
    assert aro2.natural(18) == Fraction(11104, 7)  # player 19: 1586.29
    assert aro2.natural(76) == Fraction(4759, 3)  # player 77: 1586.33
    assert f2.score[18] == f2.score[76]


def _variant_files() -> list[str]:
    return [name for name in NAMES if expected(name).get("variants_2026")]


@pytest.mark.parametrize("name", _variant_files())
def test_2026_capped_dummies(name: str) -> None:
    """Under the 2026 text the listed players' values change (16.4 caps); nobody else's."""
    data = expected(name)
    variants = data["variants_2026"]["players"]
    for key in ("SB", "BH", "BH-C1", "AOB"):
        col = column(name, CODES[key], RulesEdition.C07_2026)
        for start, values in data["players"].items():
            want = variants.get(start, {}).get(key, values[key])
            got = col.natural(int(start) - 1)
            if want is None:  # AOB of a player without a game over the board
                assert got is None, (key, start)
            else:
                assert got is not None and Fraction(got) == exact(want), (key, start)


def test_corrections_of_the_reference_calculator() -> None:
    """The two corrected bugs: Koya's maximum in even multi-cycle fields, DE averages."""
    for name in ("tcec_season_19_frc2_league_d", "tcec_season_20_frc3_league_a"):
        for fix in expected(name)["corrections"]:
            p = fix["player"] - 1
            if fix["tiebreak"] == "KS":
                got = column(name, "KS").natural(p)
            else:
                got = rank(field(name), [parse_code("DE")]).columns[0].values[p]
            assert got == exact(fix["corrected"]) != exact(fix["tiebreakserver_raw"])


def test_data_dir_is_the_shared_one(data_dir: Path) -> None:
    assert data_dir == DATA
