"""Title norms against the FIDE Title Regulations (B.01, from 1 January 2024): the cases
where the report used to disagree with an oracle written from the regulations (issue 26
item 8).

* a round robin whose later rounds are not in the file yet still has those games to
  play: its schedule says who is left (1.4.1e: a round robin's norm counts every
  scheduled game), so the event is not finished;
* a Swiss norm made with a result before the last round(s) counts (1.4.1e): a later
  loss does not undo it, and a paired but unplayed last round does not hide it;
* norms are made only in standard-rated events (1.1.3): none at rapid or blitz.

The figures are worked by hand as in tests/test_norms.py (the same ten-player field).
"""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from test_service_support import db_url, make_service, store  # noqa: F401

from crosstable.cli import main
from crosstable.core.model import Game, GameResult, Player, Round, Settings, System, Tournament
from crosstable.core.norms import NormCheck, check_json, tournament_norms
from crosstable.formats.trf_model import TrfDocument
from crosstable.formats.trf_write import write_trf
from crosstable.service import Service
from crosstable.store import Store
from tests.test_norms import FIELD, _robin, _seven

EXTRA = [Player(11, "Club Three", 2260, "", "ENG"), Player(12, "Club Four", 2260, "", "ENG")]


def _gm(t: Tournament, start: int = 1, **options: object) -> NormCheck:
    (row,) = tournament_norms(t, only=start, **options)  # type: ignore[arg-type]
    return {c.norm: c for c in row.checks}["GM"]


def _first_six_rounds_only() -> Tournament:
    t = _robin(FIELD, _seven, played_rounds=6)
    return replace(t, rounds=t.rounds[:6])


# --- a. a round robin in progress, its later pairings absent ---------------------------------


def test_a_round_robin_without_its_later_rounds_is_not_finished() -> None:
    # 6 of 9 rounds in the file, rounds 7-9 not even paired: the schedule still owes
    # player 1 the three opponents not met yet, exactly as when they are paired
    paired = _gm(_robin(FIELD, _seven, played_rounds=6))
    absent = _gm(_first_six_rounds_only())
    assert absent.games_left == 3 and not absent.estimate
    assert absent.status == "possible" and absent.required == 7
    assert absent == paired
    # the IM norm likewise
    (row,) = tournament_norms(_first_six_rounds_only(), only=1)
    assert {c.norm: c.status for c in row.checks} == {"GM": "possible", "IM": "possible"}


def test_a_finished_round_robin_stays_finished() -> None:
    gm = _gm(_robin(FIELD, _seven))
    assert (gm.status, gm.games_left) == ("made", 0)


def test_a_double_round_robin_after_its_first_cycle_owes_the_second() -> None:
    t = _robin(FIELD, _seven)
    double = replace(t, settings=replace(t.settings, cycles=2))
    gm = _gm(double)
    assert gm.games_left == 9 and gm.status == "possible" and not gm.estimate


def test_a_withdrawn_player_owes_no_game() -> None:
    # after 6 rounds player 1 has met 2, 3, 4, 5, 6 and 10; 7, 8 and 9 are still owed,
    # but 9 has withdrawn: two games left
    t = replace(_first_six_rounds_only(), withdrawn=frozenset({9}))
    assert _gm(t).games_left == 2
    # nor does a withdrawn player have games left
    t = replace(_first_six_rounds_only(), withdrawn=frozenset({1}))
    assert _gm(t).games_left == 0


def test_norms_cli_reads_a_round_robin_file_without_its_later_rounds(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "six.trf"
    path.write_text(
        write_trf(TrfDocument.from_tournament(_first_six_rounds_only())), encoding="utf-8"
    )
    assert main(["norms", str(path), "--format", "json"]) == 0
    gm = json.loads(capsys.readouterr().out)["players"][0]["norms"][0]
    assert (gm["status"], gm["games_left"], gm["required"]) == ("possible", 3, 7)


# --- b. a Swiss norm made before the last round ----------------------------------------------


def _swiss(results: dict[int, str | None], planned: int) -> Tournament:
    """Player 1 meets player r + 1 in round r with the result given (from 1's side)."""
    rounds = []
    for r, own in sorted(results.items()):
        text = None if own is None else {"1": "1-0", "=": "½-½", "0": "0-1"}[own]
        result = None if text is None else GameResult.parse(text)
        rounds.append(Round(r, (Game(r, 1, 1, r + 1, result),)))
    return Tournament(
        Settings(system=System.SWISS_DUTCH, rounds=planned), (*FIELD, *EXTRA), tuple(rounds)
    )


#: rounds 1-9 against players 2-10 as in the round robin: 7 / 9, Ra 2380, Rp 2600
NINE = {r: _seven(r + 1) for r in range(1, 10)}


def test_a_swiss_norm_made_before_the_last_round_stays_made() -> None:
    # then two losses to 2260s: 7 / 11, Ra (21420 + 4520) / 11 = 2358 < 2380 and 7 ENG
    # opponents of 11 (at most 6): the whole event is no norm, the first 9 rounds are
    t = _swiss({**NINE, 10: "0", 11: "0"}, planned=11)
    gm = _gm(t)
    assert gm.status == "made" and gm.failures == ()
    assert (gm.games, gm.score, gm.average, gm.performance) == (9, 7, 2380, 2600)
    assert gm.made_after_round == 9 and gm.counts_as == 9
    assert check_json(gm)["made_after_round"] == 9
    (row,) = tournament_norms(t, only=1)
    assert {c.norm: c.status for c in row.checks} == {"GM": "made", "IM": "made"}


def test_a_swiss_norm_made_before_a_paired_last_round() -> None:
    # 10 rounds: 9 played, round 10 paired against a 2260 and not played yet
    gm = _gm(_swiss({**NINE, 10: None}, planned=10))
    assert gm.status == "made" and gm.games == 9 and gm.made_after_round == 9


def test_a_swiss_norm_of_the_whole_event_says_no_earlier_round() -> None:
    gm = _gm(_swiss({**NINE}, planned=9))
    assert gm.status == "made" and gm.made_after_round is None


def test_a_round_robin_norm_counts_every_game() -> None:
    # the same first 9 results in a 12-player round robin, then 2 losses: no norm, the
    # round robin counts all its games (1.4.1e)
    t = _swiss({**NINE, 10: "0", 11: "0"}, planned=11)
    robin = replace(t, settings=Settings(rounds=11))
    assert _gm(robin).status == "not possible"


# --- d. norms only at a standard time control ------------------------------------------------


@pytest.mark.parametrize(
    ("control", "kind"), [("15+10", "rapid"), ("G/25", "rapid"), ("3+2", "blitz")]
)
def test_no_norm_at_rapid_or_blitz(control: str, kind: str) -> None:
    t = _robin(FIELD, _seven)
    fast = replace(t, settings=replace(t.settings, time_control=control))
    (row,) = tournament_norms(fast, only=1)
    for check in row.checks:
        assert check.status == "not possible" and check.counts_as == 0
        assert check.failures[0].startswith("a standard time control")
        assert kind in check.failures[0]
    # the figures are still given
    assert _gm(fast).performance == 2600


@pytest.mark.parametrize("control", ["90+30", "", "an hour and a half each"])
def test_norms_at_standard_or_unknown_time_control(control: str) -> None:
    t = _robin(FIELD, _seven)
    slow = replace(t, settings=replace(t.settings, time_control=control))
    assert _gm(slow).status == "made"


def test_time_control_given_overrides_the_tournaments() -> None:
    t = _robin(FIELD, _seven)
    assert _gm(t, time_control="25+10").status == "not possible"


def test_norms_cli_refuses_norms_at_a_rapid_time_control(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = TrfDocument.from_tournament(_robin(FIELD, _seven))
    path = tmp_path / "rapid.trf"
    path.write_text(write_trf(replace(doc, headers={**doc.headers, "222": "900+10"})), "utf-8")
    assert main(["norms", str(path)]) == 0
    assert capsys.readouterr().out.strip() == "no norm made and none still possible"
    assert main(["norms", str(path), "--all"]) == 0
    assert "a standard time control (15+10 is rapid)" in capsys.readouterr().out


# --- the player page reads the stored tournament's time control -----------------------------


@pytest.fixture
def site(store: Store) -> Iterator[tuple[Any, Service]]:
    pytest.importorskip("fastapi")
    from crosstable.web.app import create_app
    from tests.asgi_client import TestClient

    service = make_service(store)
    with TestClient(create_app(service=service)) as client:
        yield client, service


@pytest.mark.parametrize(("control", "shown"), [("90+30", True), ("15+10", False)])
def test_the_player_page_shows_no_norm_of_a_rapid_event(
    site: Any, control: str, shown: bool
) -> None:
    from crosstable.core.model import LotsMethod
    from crosstable.service import PlayerInfo, Regulations

    client, service = site
    regulations = Regulations(name="Norm RR", time_control=control)
    tid = service.create_tournament(regulations).tournament_id
    for p in FIELD:
        info = PlayerInfo(p.name, rating=p.rating, title=p.title, federation=p.federation)
        service.add_player(tid, info)
    service.draw_lots(tid, LotsMethod.MANUAL, order=tuple(range(1, 11)))
    service.start(tid)
    for rnd in service.table_state(tid).tournament.rounds:
        for game in rnd.games:
            text = "½-½"
            if 1 in (game.white, game.black):
                own = _seven(game.black if game.white == 1 else game.white)
                text = {"1": "1-0", "=": "½-½", "0": "0-1"}[own]
                if game.black == 1:
                    text = {"1-0": "0-1", "0-1": "1-0"}.get(text, text)
            service.record_result(tid, rnd.number, game.board, text)
    page = client.get(f"/t/{tid}/players/1").text
    assert ('id="player-norms"' in page) is shown
