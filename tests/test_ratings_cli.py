"""`crosstable ratings` and `crosstable norms`; the JSON export's rating figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crosstable.cli import main
from crosstable.formats.json_io import load_json
from crosstable.formats.trf_model import TrfDocument
from crosstable.formats.trf_write import write_trf
from tests.conftest import DATA
from tests.test_norms import FIELD, _robin, _seven

DOMLOUP = DATA / "tiebreaks/real/fr_domloup_fide_41_a.trf"
KILKENNY = DATA / "tiebreaks/real/icu_kilkenny_masters_2011.trf"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_ratings_json_per_player(capsys: pytest.CaptureFixture[str]) -> None:
    # figures worked by hand in tests/test_ratings.py::test_real_swiss_by_hand
    code, out, err = run(capsys, "ratings", str(DOMLOUP), "--format", "json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["rating_type"] == "standard" and data["year"] == 2026
    first = data["players"][0]
    assert {k: first[k] for k in ("games_rated", "score", "expected", "k", "change")} == {
        "games_rated": 5,
        "score": 4,
        "expected": 3.77,
        "k": 20,
        "change": 4.6,
    }
    assert (first["change_rounded"], first["new_rating"], first["tpr"], first["aro"]) == (
        5,
        2234,
        2269,
        2029,
    )
    assert first["games"][0] == {
        "round": 1,
        "opponent": 13,
        "opponent_rating": 1922,
        "score": 1,
        "expected": 0.86,
        "change": 2.8,  # 20 x (1 - .86)
        "note": "",
    }
    assert data["players"][18]["change_rounded"] == -26


def test_ratings_table_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "ratings", str(DOMLOUP), "--k", "1=40", "--new", "19")
    assert code == 0
    first = out.splitlines()[1].split()
    assert first[:2] == ["1", "Player"] and "+9.2" in first  # 40 x 0.23
    assert "B.02 as in force from 1 March 2024" in out
    code, out, _ = run(capsys, "ratings", str(KILKENNY))
    assert code == 0 and "unrated" in out and "first 2200 (not published)" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--k", "1=99"], "'1=99' is not START=K with K 1 to 40"),
        (["--k", "99=20"], "there is no player 99"),
        (["--new", "x"], "'x' is not a starting number"),
        (["--type", "bullet"], "use standard, rapid or blitz"),
        (["--format", "xml"], "use json or table"),
    ],
)
def test_ratings_bad_options(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, "ratings", str(DOMLOUP), *args)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_ratings_bad_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.trf"
    line = "001    1      Player 001".ljust(48) + "abcd FRA"
    bad.write_text(line + "\n", encoding="utf-8")
    code, _, err = run(capsys, "ratings", str(bad))
    assert code == 2 and str(bad) in err and "Traceback" not in err


def _norm_file(tmp_path: Path, played: int = 9) -> Path:
    path = tmp_path / "norm.trf"
    tournament = _robin(FIELD, _seven, played_rounds=played)
    path.write_text(write_trf(TrfDocument.from_tournament(tournament)), encoding="utf-8")
    return path


def test_norms_report(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = _norm_file(tmp_path)
    code, out, err = run(capsys, "norms", str(path))
    assert code == 0, err
    assert "1  Candidate: GM norm made (7/9, Ra 2380, Rp 2600)" in out
    code, out, _ = run(capsys, "norms", str(path), "--format", "json")
    first = json.loads(out)["players"][0]
    assert [n["norm"] for n in first["norms"]] == ["GM", "IM"]
    assert first["norms"][0]["status"] == "made" and first["norms"][0]["performance"] == 2600


def test_norms_with_rounds_left(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = _norm_file(tmp_path, played=6)
    code, out, err = run(capsys, "norms", str(path), "--format", "json")
    assert code == 0, err
    gm = json.loads(out)["players"][0]["norms"][0]
    assert gm["status"] == "possible" and gm["games_left"] == 3 and gm["required"] == 7


def test_norms_real_file_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "norms", str(KILKENNY))
    assert code == 0 and out.strip() == "no norm made and none still possible"
    code, out, _ = run(capsys, "norms", str(KILKENNY), "--all")
    assert "at least 9 games (has 6)" in out
    code, _, err = run(capsys, "norms", str(KILKENNY), "--rounds", "0")
    assert code == 2 and "--rounds 0" in err


def test_json_export_carries_the_ratings_and_reads_back(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "t.json"
    code, _, err = run(capsys, "trf", "convert", str(DOMLOUP), "--to", "json", "-o", str(out_file))
    assert code == 0, err
    text = out_file.read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["ratings"][0]["change"] == 4.6 and data["ratings"][0]["tpr"] == 2269
    back = load_json(text)
    assert len(back.tournament.players) == 24
    # TRF export unchanged: no rating fields in TRF (no documented record for them)
    code, trf, _ = run(capsys, "trf", "convert", str(out_file), "--to", "trf16")
    assert code == 0 and "4.6" not in trf


def test_period_games_limit_k(capsys: pytest.CaptureFixture[str]) -> None:
    # new player (K 40) with 30 more games on the list: 35 games, 700 // 35 = 20
    code, out, err = run(
        capsys, "ratings", str(DOMLOUP), "--new", "1", "--period-games", "1=30", "--format", "json"
    )
    assert code == 0, err
    first = json.loads(out)["players"][0]
    assert first["k"] == 20 and "K x 35 games <= 700" in first["k_reason"]
    code, _, err = run(capsys, "ratings", str(DOMLOUP), "--period-games", "1=-3")
    assert code == 2 and "is not START=N with N 0 to 999" in err


def test_norms_large_swiss_from_the_host_federation(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from dataclasses import replace

    from tests.test_norms import _open_field

    doc = TrfDocument.from_tournament(_open_field(20, ("GER", "FRA", "NED"), 10))
    doc = replace(doc, headers={**doc.headers, "032": "ENG"})
    path = tmp_path / "open.trf"
    path.write_text(write_trf(doc), encoding="utf-8")
    code, out, err = run(capsys, "norms", str(path), "--format", "json")
    assert code == 0, err
    assert json.loads(out)["federation_rule_waived"] == (
        "a Swiss with 20 or more rated players from outside ENG"
    )
    code, out, _ = run(capsys, "norms", str(path), "--host", "GER", "--format", "json")
    assert json.loads(out)["federation_rule_waived"] is None
    code, out, _ = run(capsys, "norms", str(path))
    assert out.splitlines()[-1] == (
        "the federation rule is waived: a Swiss with 20 or more rated players from outside ENG"
    )


def _two_players(tmp_path: Path, control: str) -> Path:
    """2700 beat 2100; the TRF's 122 says the time control."""
    path = tmp_path / "two.trf"
    lines = [
        f"122 {control}",
        "001    1      A                                 2700"
        "                             1.0          2 w 1",
        "001    2      B                                 2100"
        "                             0.0          1 b 0",
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("control", "kind", "rated"),
    [
        ("90+30", "standard", 1),  # 120 minutes for 60 moves
        ("25+10", "rapid", 0),  # 35 minutes: rapid, and 600 apart with a 2700: not rated
        ("G/5", "blitz", 0),
        ("an hour and a half each", "standard", 1),  # 122 is free text: not read
    ],
)
def test_rating_type_from_the_time_control(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, control: str, kind: str, rated: int
) -> None:
    code, out, err = run(
        capsys, "ratings", str(_two_players(tmp_path, control)), "--format", "json"
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["rating_type"] == kind and data["players"][0]["games_rated"] == rated
    if rated == 0:
        assert data["players"][0]["games"][0]["note"] == "600 points or more apart: not rated"


def test_bullet_is_refused_unless_a_type_is_given(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _two_players(tmp_path, "1+0")
    code, out, err = run(capsys, "ratings", str(path))
    assert code == 2 and out == "" and "is not FIDE-rated; give --type" in err
    code, out, _ = run(capsys, "ratings", str(path), "--type", "standard", "--format", "json")
    assert code == 0 and json.loads(out)["rating_type_from"] == "--type"
