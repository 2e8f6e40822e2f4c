"""Hand-made breaches of each rule are reported, at the round where they happen."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from test_checker_generated import played_round_robin
from test_service_support import make_service, migrated
from test_service_swiss import play_round, swiss

from crosstable.cli import main
from crosstable.cli.check import declared
from crosstable.cli.generate import generated_trf
from crosstable.core.checker import CheckReport, Declared, check_event
from crosstable.core.errors import RuleError
from crosstable.core.model import (
    Bye,
    ByeKind,
    Game,
    LotsMethod,
    Round,
    Settings,
    System,
    Tournament,
)
from crosstable.core.pairing.dutch.generator import (
    Amount,
    GeneratorSettings,
    accelerations_of,
    generate,
)
from crosstable.core.schedule.cycles import berger_schedule
from crosstable.formats.trf import parse_trf, write_trf
from crosstable.formats.trf_model import TrfDocument
from crosstable.service import PlayerInfo, Regulations
from crosstable.store import open_store


def _with_round(
    tournament: Tournament,
    number: int,
    games: tuple[Game, ...],
    byes: tuple[Bye, ...] | None = None,
) -> Tournament:
    rounds = tuple(
        replace(r, games=games, byes=r.byes if byes is None else byes) if r.number == number else r
        for r in tournament.rounds
    )
    return replace(tournament, rounds=rounds)


def _kinds_at(report: CheckReport, number: int) -> list[str]:
    return [f.kind for f in report.findings if f.round == number]


# -- Swiss ------------------------------------------------------------------------------------

SWISS = GeneratorSettings(players=11, rounds=5, seed=3)


def test_a_swiss_with_colours_reversed_in_round_3() -> None:
    tournament = generate(SWISS)
    games = list(tournament.rounds[2].games)
    first = games[0]
    games[0] = replace(first, white=first.black, black=first.white)
    report = check_event(_with_round(tournament, 3, tuple(games)), Declared())
    assert report.differing[0] == 3 and _kinds_at(report, 3) == ["colours"]
    assert f"{first.black}-{first.white}: the rules give {first.white} White" in (
        report.findings[0].message
    )


def test_a_swiss_with_opponents_exchanged_in_round_2() -> None:
    tournament = generate(SWISS)
    games = list(tournament.rounds[1].games)
    a, b = games[0], games[1]
    games[0], games[1] = replace(a, black=b.black), replace(b, black=a.black)
    report = check_event(_with_round(tournament, 2, tuple(games)), Declared())
    assert report.differing[0] == 2 and _kinds_at(report, 2) == ["pairing", "pairing"]
    assert f"which pair {a.white} with {a.black}" in report.findings[0].message


def test_a_swiss_with_the_pab_to_the_wrong_player_in_round_4() -> None:
    tournament = generate(SWISS)
    rnd = tournament.rounds[3]
    pab = next(b for b in rnd.byes if b.kind is ByeKind.PAIRING)
    last = rnd.games[-1]
    games = (*rnd.games[:-1], replace(last, black=pab.player))
    byes = tuple(replace(b, player=last.black) if b is pab else b for b in rnd.byes)
    report = check_event(_with_round(tournament, 4, games, byes), Declared())
    assert report.differing[0] == 4
    assert sorted(_kinds_at(report, 4)) == ["bye", "pairing"]
    bye = next(f for f in report.findings if f.kind == "bye")
    assert bye.message == f"{last.black} has the PAB; the rules give it to {pab.player}"


def test_a_baku_swiss_is_checked_with_its_acceleration() -> None:
    chosen = GeneratorSettings(players=16, rounds=5, seed=8, baku=True)
    tournament = generate(chosen)
    plain = check_event(tournament, Declared())
    assert plain.differing[:1] == [1]  # paired without the fictitious points: round 1 differs
    accelerated = check_event(tournament, Declared(accelerations=accelerations_of(chosen)))
    assert accelerated.ok and "fictitious points" in accelerated.notes[0]
    # the generated file carries records 250, read back by the checker
    doc = parse_trf(generated_trf(chosen), source="baku")
    assert doc.accelerations and check_event(doc.tournament, declared(doc)).ok


# -- round robin ------------------------------------------------------------------------------


def test_a_round_robin_with_colours_reversed_in_round_3() -> None:
    tournament = played_round_robin(6, 1, True, 1)
    games = list(tournament.rounds[2].games)
    games[1] = replace(games[1], white=games[1].black, black=games[1].white)
    report = check_event(_with_round(tournament, 3, tuple(games)), Declared())
    assert report.differing == [3] and _kinds_at(report, 3) == ["colours"]


def test_a_round_robin_with_rounds_2_and_3_exchanged() -> None:
    tournament = played_round_robin(6, 1, True, 2)
    second, third = tournament.rounds[1], tournament.rounds[2]
    moved = _with_round(tournament, 2, tuple(replace(g, round=2) for g in third.games))
    moved = _with_round(moved, 3, tuple(replace(g, round=3) for g in second.games))
    report = check_event(moved, Declared())
    assert report.differing == [2, 3]
    assert set(_kinds_at(report, 2)) == {"pairing"}


def test_a_round_robin_with_the_free_round_to_the_wrong_player() -> None:
    tournament = played_round_robin(5, 1, True, 3)
    rnd = tournament.rounds[0]
    free = rnd.byes[0].player
    first = rnd.games[0]
    games = (replace(first, black=free), *rnd.games[1:])
    byes = (Bye(1, first.black, ByeKind.FREE),)
    report = check_event(_with_round(tournament, 1, games, byes), Declared())
    assert report.differing == [1] and sorted(_kinds_at(report, 1)) == ["bye", "pairing"]


def test_a_double_round_robin_in_either_order_and_a_round_too_many() -> None:
    for swap in (True, False):
        assert check_event(played_round_robin(4, 2, swap, 4), Declared()).ok
    tournament = played_round_robin(4, 1, True, 5)
    extra = Round(4, tuple(replace(g, round=4) for g in tournament.rounds[0].games))
    longer = replace(tournament, rounds=(*tournament.rounds, extra))
    # a fourth round makes a second cycle: its first round has every colour reversed
    report = check_event(replace(longer, settings=Settings(System.ROUND_ROBIN)), Declared())
    assert report.differing == [4] and set(_kinds_at(report, 4)) == {"colours"}
    # round 7 opens a third cycle, played as the first
    assert len(berger_schedule(4, 2).rounds) == 6
    far = Round(7, tuple(replace(g, round=7) for g in extra.games))
    report = check_event(replace(longer, rounds=(*tournament.rounds, far)), Declared())
    assert report.ok and "3 cycle(s)" in report.notes[0]


def test_other_systems_are_listed_unchecked() -> None:
    tournament = played_round_robin(4, 1, True, 6)
    knockout = replace(tournament, settings=Settings(System.KNOCKOUT))
    report = check_event(knockout, Declared())
    assert report.method == "none" and report.ok and len(report.rounds) == 3


# -- the standings' order ---------------------------------------------------------------------


def _generated_doc() -> TrfDocument:
    chosen = GeneratorSettings(players=10, rounds=4, seed=11, tiebreaks=("BH", "SB"))
    return parse_trf(generated_trf(chosen), source="ranks", lenient=True)


def test_ranks_out_of_the_tie_break_order_are_listed_with_the_values() -> None:
    doc = _generated_doc()
    assert check_event(doc.tournament, declared(doc)).ok
    by_rank = {rank: start for start, rank in doc.file_ranks.items() if rank is not None}
    report = check_event(doc.tournament, declared(doc))
    assert report.ranks is not None and report.ranks.tiebreaks == ("BH", "SB")
    # the two leaders (the order separates them with this seed), their ranks exchanged
    swapped = dict(doc.file_ranks)
    top, second = by_rank[1], by_rank[2]
    swapped[top], swapped[second] = swapped[second], swapped[top]
    broken = check_event(doc.tournament, declared(replace(doc, file_ranks=swapped)))
    findings = [f for f in broken.findings if f.kind == "rank"]
    assert {f.players[0] for f in findings} == {top, second}
    assert all(f.round == 4 for f in findings)
    message = next(f.message for f in findings if f.players[0] == top)
    assert message.startswith(f"player {top} is placed 2 in the file; the tie-break order places")
    assert "points, BH " in message and ", SB " in message


def test_a_tie_left_after_the_list_may_take_either_place() -> None:
    doc = _generated_doc()
    report = check_event(doc.tournament, declared(doc))
    assert report.ranks is not None and report.ranks.checked
    # without a declared list nothing says how the file ranked: not checked
    bare = replace(doc, standings_tiebreaks=None)
    bare = replace(bare, tournament=replace(bare.tournament, settings=Settings(System.SWISS_DUTCH)))
    unchecked = check_event(bare.tournament, declared(bare))
    assert unchecked.ranks is not None and not unchecked.ranks.checked


# -- the command line -------------------------------------------------------------------------


def test_the_command_exit_status_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = _generated_doc()
    good = tmp_path / "good.trf"
    good.write_text(write_trf(doc))
    assert main(["check", str(good)]) == 0
    out = capsys.readouterr().out
    assert "4 of 4 rounds agree; the places follow the tie-breaks" in out
    ranks = dict(doc.file_ranks)
    first = next(s for s, r in ranks.items() if r == 1)
    last = next(s for s, r in ranks.items() if r == len(ranks))
    ranks[first], ranks[last] = ranks[last], ranks[first]
    bad = tmp_path / "bad.trf"
    bad.write_text(write_trf(replace(doc, file_ranks=ranks)))
    assert main(["check", str(bad), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False and report["differing"] == []
    assert {f["players"][0] for f in report["standings"]["findings"]} == {first, last}
    assert main(["check", str(bad)]) == 1
    assert "places differ from points, then BH, SB" in capsys.readouterr().out
    assert main(["check", str(tmp_path / "missing.trf")]) == 2
    assert main(["check", str(good), "--format", "xml"]) == 2


def test_results_an_arbiter_decided_are_read_unless_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.trf"
    args = ["--players", "8", "--rounds", "3", "--zero-zero", "1@2", "--half-zero", "1"]
    assert main(["generate", *args, "-o", str(path)]) == 0
    assert main(["check", str(path), "--strict"]) == 0  # said in ### Arbiter's decision lines
    assert capsys.readouterr().err == ""
    bare = tmp_path / "bare.trf"  # without them, the results contradict each other
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    bare.write_text("".join(line for line in lines if not line.startswith("###")))
    assert main(["check", str(bare)]) == 0
    assert "both players lost; read as written" in capsys.readouterr().err
    assert main(["check", str(bare), "--strict"]) == 2


def test_generate_refuses_a_bad_amount(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "x.trf")
    assert (
        main(["generate", "--players", "8", "--rounds", "3", "--full-byes", "2@9", "-o", out]) == 2
    )
    assert "the tournament has 3 rounds" in capsys.readouterr().err
    assert (
        main(["generate", "--players", "8", "--rounds", "3", "--zero-zero", "lots", "-o", out]) == 2
    )
    assert (
        main(["generate", "--players", "8", "--rounds", "3", "--tiebreaks", "XYZ", "-o", out]) == 2
    )
    assert not (tmp_path / "x.trf").exists()


# -- the service's export ---------------------------------------------------------------------


def test_an_exported_baku_swiss_checks_clean(tmp_path: Path) -> None:
    """The export writes the fictitious points it paired with (records 250)."""
    store = open_store(migrated(f"sqlite:///{tmp_path / 'baku.db'}"))
    try:
        service = make_service(store)
        tid = swiss(service, 12, rounds=5, acceleration="baku")
        source = random.Random(3)
        for _ in range(5):
            service.publish_round(tid)
            play_round(service, tid, source)
        doc = parse_trf(service.export_trf(tid), source="export")
    finally:
        store.close()
    assert doc.accelerations  # (without them, rounds 1-4 differ)
    report = check_event(doc.tournament, declared(doc))
    assert report.differing == []


@pytest.mark.parametrize(("players", "cycles", "swap"), [(5, 2, True), (6, 2, False), (7, 1, True)])
def test_an_exported_round_robin_checks_clean(
    tmp_path: Path, players: int, cycles: int, swap: bool
) -> None:
    store = open_store(migrated(f"sqlite:///{tmp_path / 'rr.db'}"))
    try:
        service = make_service(store)
        regulations = Regulations(
            name="RR", system=System.ROUND_ROBIN, cycles=cycles, swap_last_rounds=swap
        )
        tid = service.create_tournament(regulations).tournament_id
        for index in range(players):
            service.add_player(tid, PlayerInfo(f"Player {index}", rating=2000 + 7 * index))
        service.draw_lots(tid, LotsMethod.RATING)
        service.start(tid)
        play_round(service, tid, random.Random(players))
        doc = parse_trf(service.export_trf(tid), source="export")
    finally:
        store.close()
    report = check_event(doc.tournament, declared(doc))
    assert report.method == "berger" and report.ok
    assert len(report.rounds) == cycles * (players - 1 + players % 2)


@pytest.mark.parametrize("text", ["3@1-999999999999", "1" * 5000, "10%@1000"])
def test_an_amount_past_the_bounds_is_refused_before_any_work(text: str) -> None:
    with pytest.raises(RuleError):
        Amount.parse(text)
