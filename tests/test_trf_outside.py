# ruff: noqa: F811 - pytest fixtures imported from test_service_support
"""Files that outside programs read: a stored tournament's TRF as py4swiss (a pairing
program on PyPI) and our own reader take it, running or finished."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from py4swiss.engines import DutchEngine
from py4swiss.trf import TrfParser
from test_service_support import db_url, service, store  # noqa: F401

from crosstable.cli import main
from crosstable.core.model import ByeKind, Colour, LotsMethod, System
from crosstable.core.pairing.dutch.generator import GeneratorSettings, generate
from crosstable.core.pairing.dutch.matching import NoValidPairingError
from crosstable.formats.trf import TrfDocument, parse_trf, read_trf, write_trf
from crosstable.formats.trf_export import kept_records
from crosstable.service import PlayerInfo, Regulations, Service

RESULTS = ("1-0", "½-½", "0-1")


def _event(service: Service, system: System, players: int, rounds: int | None) -> int:
    regulations = Regulations(name="Open", system=system, rounds=rounds, details={})
    tid = service.create_tournament(regulations).tournament_id
    for index in range(players):
        service.add_player(tid, PlayerInfo(f"Player {index + 1}", rating=2400 - 10 * index))
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    return tid


def _results(service: Service, tid: int, chooser: random.Random, at_most: int = 999) -> None:
    for game in service.overview(tid).games:
        if game.result is None and at_most > 0:
            service.record_result(tid, game.round, game.board, chooser.choice(RESULTS))
            at_most -= 1


def _py4swiss(text: str, folder: Path, *, strict: bool = False) -> set[tuple[int, int]]:
    """py4swiss's Dutch pairing of the file's next round (``strict``: every line must be
    one it knows, as TRF-16 lines are; TRF-2026's own tags are skipped otherwise)."""
    path = folder / "export.trf"
    path.write_text(text, encoding="utf-8")
    pairings = DutchEngine.generate_pairings(TrfParser.parse(path, strict=strict))
    return {(p.white, p.black) for p in pairings}


def _ours(proposal_boards: object, bye: int | None) -> set[tuple[int, int]]:
    pairs = {(white, black) for white, black in proposal_boards}  # type: ignore[attr-defined]
    return pairs | ({(bye, 0)} if bye is not None else set())


def _codes(text: str) -> set[str]:
    """Every result code of every round field of the player lines."""
    codes = set()
    for line in text.splitlines():
        if line.startswith("001"):
            for at in range(91, len(line), 10):
                codes.add(line[at : at + 8][7:8])
    return codes


def test_r_or_5_a_withdrawn_player_is_absent_in_the_next_round_and_py4swiss_agrees(
    service: Service, tmp_path: Path
) -> None:
    chooser = random.Random(7)
    tid = _event(service, System.SWISS_DUTCH, 9, 4)
    service.publish_round(tid)
    _results(service, tid, chooser)
    service.withdraw(tid, 3, from_round=2)
    text = service.export_trf(tid)
    line = next(row for row in text.splitlines() if row.startswith("001    3"))
    assert line[101:109] == "0000 - Z"  # round 2: a known absence, not paired
    doc = parse_trf(text)
    assert doc.pending_round == 2
    # every rank column is filled: the current places, 1…9, each once
    assert sorted(r for r in doc.file_ranks.values() if r is not None) == list(range(1, 10))
    proposal = service.propose_round(tid)
    assert 3 not in {p for board in proposal.boards for p in board}
    assert _py4swiss(text, tmp_path) == _ours(proposal.boards, proposal.bye)
    old = service.export_trf(tid, "trf16")
    assert _py4swiss(old, tmp_path, strict=True) == _ours(proposal.boards, proposal.bye)
    # and again mid-round: round 2 published, one result in; the file is the one that
    # pairs round 2, and py4swiss pairs it as we did
    service.publish_round(tid)
    _results(service, tid, chooser, at_most=1)
    text = service.export_trf(tid)
    assert " " not in _codes(text) - {""}  # no blank result code anywhere
    assert _py4swiss(text, tmp_path) == _ours(proposal.boards, proposal.bye)
    # finished: the final places in the rank column
    for _ in range(3):
        _results(service, tid, chooser)
        if (
            service.overview(tid).status == "running"
            and len({g.round for g in service.overview(tid).games}) < 4
        ):
            service.publish_round(tid)
    _results(service, tid, chooser)
    if service.overview(tid).status != "finished":
        service.finish(tid)
    final = parse_trf(service.export_trf(tid))
    places = {p.start: p.place for p in service.overview(tid).players}
    ranked = sorted(final.file_ranks, key=lambda start: final.file_ranks[start] or 0)
    assert [places[start] for start in ranked] == sorted(places[start] for start in ranked)
    assert len(final.tournament.rounds) == 4


def test_r_or_5_a_round_robin_in_progress_has_no_blank_codes(service: Service) -> None:
    tid = _event(service, System.ROUND_ROBIN, 5, None)
    round_two = [g for g in service.overview(tid).games if g.round == 2]
    service.record_result(tid, 1, 1, "1-0")  # round 1 board 2 postponed
    for game in round_two:
        service.record_result(tid, 2, game.board, "½-½")
    service.record_result(tid, 3, 1, "0-1")  # round 3 being played
    text = service.export_trf(tid)
    assert " " not in _codes(text)
    doc = parse_trf(text)
    # round 3 (being played) and rounds 4–5 (not begun) are left out
    assert [r.number for r in doc.tournament.rounds] == [1, 2]
    assert doc.tournament.settings.rounds == 5  # XXR/142 still say how many
    free = [b for r in doc.tournament.rounds for b in r.byes]
    assert [b.kind for b in free] == [ByeKind.FREE, ByeKind.FREE]  # written 0000 - Z
    unknown = [g for g in doc.tournament.rounds[0].games if g.result.white.value == "*"]
    assert len(unknown) == 1 and doc.unknown_result_points is not None  # ?, 162 X
    notes = service.trf_export_notes(tid)
    assert "round 3 is being played (games without a result: 1): left out of the file" in notes
    # TRF-16 has no code for it: that file stops before round 1, never a blank code
    old = parse_trf(service.export_trf(tid, "trf16"))
    assert old.tournament.rounds == ()
    assert write_trf(doc) == text  # what we read is what we wrote


def _line(start: int, name: str, rating: str, points: str, rank: int, *rounds: str) -> str:
    """A 001 line by its columns (name 15, rating 49, points 81, rank 86, rounds 92…)."""
    head = f"001 {start:4d}      {name:<33} {rating:>4}" + " " * 28 + f"{points:>4} {rank:4d}  "
    return head + "  ".join(rounds)


def test_r_or_5_a_file_without_xxr_counts_its_own_rounds() -> None:
    lines = [
        "012 No XXR",
        "092 Individual: Swiss-System",
        _line(1, "A", "", "2.0", 1, "   2 w 1", "   2 b 1"),
        _line(2, "B", "", "0.0", 2, "   1 b 0", "   1 w 0"),
    ]
    doc = parse_trf("\n".join(lines) + "\n", source="noxxr.trf")
    assert doc.tournament.settings.system is System.SWISS_DUTCH
    assert doc.tournament.settings.rounds == 2
    assert any("no XXR or 142" in warning for warning in doc.warnings)


def test_r_or_5_late_entries_round_trip_through_the_store(service: Service) -> None:
    # player 4 joined in round 2: a zero-point absence in round 1
    lines = [
        "012 Late entry",
        _line(1, "A", "2300", "2.0", 1, "   2 w 1", "   3 b 1"),
        _line(2, "B", "2200", "0.0", 4, "   1 b 0", "   4 w 0"),
        _line(3, "C", "2100", "1.0", 2, "0000 - U", "   1 w 0"),
        _line(4, "D", "2000", "1.0", 3, "0000 - Z", "   2 b 1"),
        "XXR 3",
    ]
    text = "\n".join(lines) + "\n"
    doc = parse_trf(text)
    tid = service.import_tournament(doc.tournament, headers=doc.headers).tournament_id
    again = parse_trf(service.export_trf(tid))
    assert again.tournament.rounds[:2] == doc.tournament.rounds
    second = service.import_tournament(again.tournament, headers=again.headers).tournament_id
    assert service.export_trf(second) == service.export_trf(tid)


def test_r_or_5_the_command_line_says_what_the_file_leaves_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CROSSTABLE_ACTOR", "arbiter")
    db = str(tmp_path / "club.db")

    def run(*args: str) -> tuple[str, str]:
        capsys.readouterr()
        assert main([*args, "--db", db]) == 0
        return capsys.readouterr()

    run("new", "Club")
    for name in ("Anna", "Boris", "Clara", "Dmitri", "Elena"):
        run("player", "add", name)
    run("draw", "--by", "hand", "--order", "1,2,3,4,5")
    run("start")
    run("result", "1", "1", "1-0")  # round 1 board 2 postponed
    run("result", "2", "1", "1-0")
    run("result", "2", "2", "0-1")
    out, err = run("export", "--to", "trf16")
    assert "note: TRF-16 has no code for a game without a result" in err
    assert "note: rounds 3–5 have not begun: left out of the file" in err
    assert not [line for line in out.splitlines() if line.startswith("001") and len(line) > 90]
    out, err = run("export", "--to", "trf2026")
    assert "games without a result yet, written as ? (result not known, record 162 X): 1" in err
    rows = [line for line in out.splitlines() if line.startswith("001")]
    assert sum(" ? " in line for line in rows) == 2  # round 1 board 2, both sides
    assert sum("0000 - Z" in line for line in rows) == 2  # the free rounds of rounds 1, 2


# -- import → export → import keeps every record ------------------------------------------


def _round_trip(service: Service, doc: TrfDocument) -> tuple[str, TrfDocument]:
    """``doc`` imported, exported, read: the file and what it reads as."""
    tid = service.import_tournament(
        doc.tournament, headers=doc.headers, records=kept_records(doc)
    ).tournament_id
    text = service.export_trf(tid)
    return text, parse_trf(text, source="export")


def _same_file_twice(service: Service, doc: TrfDocument) -> TrfDocument:
    """Import → export → import → export gives the same file (and document) twice."""
    text, first = _round_trip(service, doc)
    again, second = _round_trip(service, first)
    assert again == text
    assert second == first
    return first


RECORDS = "\n".join(
    [
        "012 Records",
        "092 FIDE_DUTCH_2025 (an open)",
        "132" + " " * 88 + "26/03/01  26/03/02",
        "162 W 1.0    D 0.5    L 0.0    A 0.0    X 0.5",
        "202 BH, SB",
        "212 PTS, SB, BH",
        "222 5400+30",
        _line(1, "A", "2300", "1.5", 1, "   2 w 1", "   3 b ="),
        _line(2, "B", "2200", "1.0", 2, "   1 b 0", "   4 w 1"),
        _line(3, "C", "2100", "1.0", 3, "   4 w =", "   1 w ="),
        _line(4, "D", "2000", "0.5", 4, "   3 b =", "   2 b 0"),
        "250    1.0    0.0  1  2    1    2",
        "260  1  3    1    4",
        "299 -   1.0              2    4",
        "XXR 3",
        "XXC black1",
    ]
)


def test_r_or_5_every_record_survives_import_export_import(service: Service) -> None:
    doc = parse_trf(RECORDS + "\n", source="records.trf")
    first = _same_file_twice(service, doc)
    assert first.headers["092"] == "FIDE_DUTCH_2025 (an open)" and first.headers["222"]
    assert first.initial_colour is doc.initial_colour is not None
    for name in ("accelerations", "prohibited", "abnormal_points", "standings_tiebreaks"):
        assert getattr(first, name) == getattr(doc, name), name
    assert first.round_dates == doc.round_dates and first.unknown_result_points == Fraction(1, 2)
    assert first.tournament.settings.tiebreaks == doc.tournament.settings.tiebreaks


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    players=st.integers(6, 12),
    rounds=st.integers(1, 4),
    seed=st.integers(0, 10_000),
    forfeits=st.floats(0, 0.3),
    half_byes=st.floats(0, 0.2),
    colour=st.sampled_from([Colour.WHITE, Colour.BLACK]),
)
def test_r_or_5_generated_swiss_files_survive_import_export_import(
    service: Service,
    players: int,
    rounds: int,
    seed: int,
    forfeits: float,
    half_byes: float,
    colour: Colour,
) -> None:
    made_with = GeneratorSettings(
        players=players,
        rounds=rounds,
        seed=seed,
        forfeit_rate=forfeits,
        half_bye_rate=half_byes,
        initial_colour=colour,
    )
    try:
        tournament = generate(made_with)
    except NoValidPairingError:  # a history the generator itself cannot pair on
        assume(False)
    doc = parse_trf(
        write_trf(replace(TrfDocument.from_tournament(tournament), initial_colour=colour))
    )
    first = _same_file_twice(service, doc)
    assert first.tournament.rounds == doc.tournament.rounds
    assert first.initial_colour is colour


@pytest.mark.parametrize(
    "name",
    [
        "tiebreaks/real/fr_bretagne_jeunes_2026_open_b_rr.trf",  # an odd round robin
        "tiebreaks/seed-examples/vibe_chess_rr6.trf",
        "swiss-dutch/p03_n009_r06_byes.trf",  # byes, XXC
    ],
)
def test_r_or_5_reference_files_survive_import_export_import(
    service: Service, data_dir: Path, name: str
) -> None:
    doc = read_trf(data_dir / name)
    first = _same_file_twice(service, doc)
    assert first.tournament.rounds == doc.tournament.rounds
    assert first.headers.get("092") == doc.headers.get("092")
    assert first.initial_colour == doc.initial_colour
