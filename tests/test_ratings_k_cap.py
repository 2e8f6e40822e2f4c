"""B.02 8.3.3: if K x the number of games on the rating list would exceed 700, K is the
largest whole number with K x n <= 700 — for K given on the command line (``--k``, K as
the rating list publishes it) as for K the report works out itself (issue 26 item 8c).

Player 1 of the ten-player round robin of tests/test_norms.py plays 9 rated games.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crosstable.cli import main
from crosstable.core.ratings import KFactor, PlayerHistory, cap_k, rate_tournament
from crosstable.formats.trf_model import TrfDocument
from crosstable.formats.trf_write import write_trf
from tests.test_norms import FIELD, _robin, _seven


def _k(history: PlayerHistory) -> KFactor:
    rows = rate_tournament(_robin(FIELD, _seven), history={1: history})
    assert rows[0].games_rated == 9 and rows[0].k is not None
    return rows[0].k


def test_a_given_k_is_capped_by_the_games_of_the_period() -> None:
    # K 40 given, 9 games here and 9 more on the same list: 40 x 18 = 720 > 700 -> 38
    k = _k(PlayerHistory(k=40, games_in_period=9))
    assert k.value == 38
    assert k.reason == "as given; 38 so that K x 18 games <= 700"
    # 9 + 10 = 19 games: 700 // 19 = 36
    assert _k(PlayerHistory(k=40, games_in_period=10)).value == 36


def test_a_given_k_within_the_cap_is_kept() -> None:
    assert _k(PlayerHistory(k=40)) == KFactor(40, "as given")  # 40 x 9 = 360
    assert _k(PlayerHistory(k=40, games_in_period=8)).value == 40  # 40 x 17 = 680
    assert _k(PlayerHistory(k=20, games_in_period=26)).value == 20  # 20 x 35 = 700


def test_the_change_uses_the_capped_k() -> None:
    rows = rate_tournament(
        _robin(FIELD, _seven), history={1: PlayerHistory(k=40, games_in_period=9)}
    )
    first = rows[0]
    assert first.change == 38 * (first.score - first.expected)


@pytest.mark.parametrize(
    ("value", "games", "capped"),
    [(40, 17, 40), (40, 18, 38), (40, 39, 17), (10, 70, 10), (10, 71, 9), (20, 0, 20)],
)
def test_cap_k(value: int, games: int, capped: int) -> None:
    assert cap_k(KFactor(value, "x"), games).value == capped


def test_ratings_cli_caps_k_given_with_the_k_option(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "robin.trf"
    path.write_text(write_trf(TrfDocument.from_tournament(_robin(FIELD, _seven))), encoding="utf-8")
    args = ["ratings", str(path), "--k", "1=40", "--period-games", "1=9", "--format", "json"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)["players"][0]
    assert first["k"] == 38 and "K x 18 games <= 700" in first["k_reason"]
    assert main(["ratings", str(path), "--k", "1=40", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"][0]["k"] == 40
