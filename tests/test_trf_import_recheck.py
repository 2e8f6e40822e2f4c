"""A TRF import re-checks every round against its system's rules and the places against
the declared tie-breaks: a round that fails is a level-3 warning (nothing stored until
confirmed), then a ``### Import @ Round n: …`` line the TRF export writes back (FIDE
checklist Q54–56)."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from crosstable.cli import main
from crosstable.core.errors import CrosstableError
from crosstable.core.model import LotsMethod
from crosstable.formats.trf_read import parse_trf
from crosstable.service import Service
from crosstable.service.registration import PlayerInfo, Regulations
from crosstable.service.trf_import import (
    PLACES_CODE,
    ROUND_CODE,
    check_trf_import,
    import_notes,
    import_trf,
)
from crosstable.service.warning_levels import ConfirmationNeeded, Level
from tests.conftest import DATA
from tests.test_fuzz_support import bounded, examples, mutated_trf
from tests.test_service_support import db_url, service, store  # noqa: F401

SWISS = (DATA / "swiss-dutch" / "p01_n007_r05_clean.trf").read_text(encoding="utf-8")
ROUND_ROBIN = (DATA / "tiebreaks" / "seed-examples" / "vibe_chess_rr6.trf").read_text(
    encoding="utf-8"
)


def swapped(text: str, first: int, second: int, number: int) -> str:
    """``text`` with the colours of ``first`` and ``second`` in round ``number`` swapped
    on both players' lines (the file stays consistent; the pairing no longer follows)."""
    lines = text.splitlines()
    column = 91 + 10 * (number - 1) + 5  # 0-based colour column of the round
    for index, line in enumerate(lines):
        if line.startswith("001") and int(line[4:8]) in (first, second):
            colour = {"w": "b", "b": "w"}[line[column]]
            lines[index] = line[:column] + colour + line[column + 1 :]
    return "\n".join(lines) + "\n"


def ranked(text: str, ranks: dict[int, int], tiebreaks: str) -> str:
    """``text`` with a 202 record and the rank column (86–89) of the players given."""
    lines = []
    for line in text.splitlines():
        if line.startswith("001") and int(line[4:8]) in ranks:
            line = line[:85] + f"{ranks[int(line[4:8])]:>4}" + line[89:]
        lines.append(line)
    return "\n".join([*lines, f"202 {tiebreaks}"]) + "\n"


def test_r_or_5_a_clean_swiss_imports_without_a_warning_in_fide_mode(service: Service) -> None:
    doc = parse_trf(SWISS, "clean.trf")
    assert check_trf_import(doc).warnings == ()
    change = import_trf(service, doc, source="clean.trf")
    assert service.fide_mode(change.tournament_id).on  # an imported TRF starts in FIDE mode
    assert "### Import" not in service.export_trf(change.tournament_id)


def test_r_or_5_a_swiss_round_off_the_dutch_rules_waits_then_is_written_back(
    service: Service,
) -> None:
    doc = parse_trf(swapped(SWISS, 1, 3, 5), "swapped.trf")
    before = len(service.tournaments())
    with pytest.raises(ConfirmationNeeded) as asked:
        import_trf(service, doc, source="swapped.trf")
    assert asked.value.level is Level.CONFIRM and asked.value.steps == 1
    said = asked.value.as_json()
    assert said["codes"] == [ROUND_CODE]
    assert said["warnings"] == [
        "imported round 5 does not follow the FIDE Dutch system: "
        "3-1: the rules give 1 White against 3"
    ]
    assert len(service.tournaments()) == before  # nothing stored
    with pytest.raises(ConfirmationNeeded) as stale:
        import_trf(service, doc, source="swapped.trf", confirm="0" * 20)
    assert stale.value.stale
    other = parse_trf(swapped(SWISS, 2, 7, 5), "other.trf")
    with pytest.raises(ConfirmationNeeded):  # a token confirms its own file only
        import_trf(service, other, source="other.trf", confirm=asked.value.token)
    change = import_trf(service, doc, source="swapped.trf", confirm=asked.value.token)
    assert "confirmed warning, level 3" in str(change.summary)
    text = service.export_trf(change.tournament_id)
    lines = [line for line in text.splitlines() if line.startswith("### Import")]
    assert lines == [
        "### Import @ Round 5: the FIDE Dutch system not followed: "
        "3-1: the rules give 1 White against 3"
    ]
    again = parse_trf(text, "exported.trf")  # the export re-checks as the file did
    assert [w.message for w in check_trf_import(again).warnings] == [
        w.message for w in check_trf_import(doc).warnings
    ]


def test_r_rr_10_a_round_robin_off_its_berger_table_and_places_off_the_order_are_warned(
    service: Service,
) -> None:
    assert check_trf_import(parse_trf(ROUND_ROBIN)).warnings == ()
    doc = parse_trf(swapped(ROUND_ROBIN, 1, 3, 3), "rr.trf")
    found = check_trf_import(doc).warnings
    assert [(w.code, w.round) for w in found] == [(ROUND_CODE, 3)]
    assert "FIDE Berger table" in str(found[0].message) and "1-3: the rules give 3 White" in str(
        found[0].message
    )
    wrong = ranked(ROUND_ROBIN, {1: 2, 2: 1, 3: 3, 4: 4, 5: 5, 6: 6}, "SB")
    places = check_trf_import(parse_trf(wrong, "places.trf")).warnings
    assert [(w.code, w.round, w.level) for w in places] == [(PLACES_CODE, 5, Level.CONFIRM)]
    assert "tie-break order SB" in str(places[0].message)
    with pytest.raises(ConfirmationNeeded) as asked:
        import_trf(service, parse_trf(wrong, "places.trf"))
    change = import_trf(service, parse_trf(wrong), confirm=asked.value.token)
    assert "### Import @ Round 5: places not in the order SB: " in service.export_trf(
        change.tournament_id
    )


def test_r_or_5_a_battle_chess_export_imports_again_its_drawn_colours_not_warned(
    service: Service,
) -> None:
    tid = service.create_tournament(
        Regulations(name="Battle", details={"variant": "battle"})
    ).tournament_id
    for name in "ABCDEF":
        service.add_player(tid, PlayerInfo(name, 1800))
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4, 5, 6))
    service.start(tid)
    for game in service.overview(tid).games:
        if game.round <= 2:
            service.record_result(tid, game.round, game.board, "1-0")
    doc = parse_trf(service.export_trf(tid), "battle.trf")
    assert check_trf_import(doc).warnings == ()
    assert any("battle chess" in note for note in import_notes(doc))
    # the same file without its battle-chess words: the drawn colours are off the table
    text = service.export_trf(tid)
    plain = re.sub(r"; battle chess[^\n]*", "", text)
    assert plain != text and check_trf_import(parse_trf(plain)).warnings
    imported = import_trf(service, doc, source="battle.trf")
    assert service.tournament(imported.tournament_id).rounds[0].games


def test_r_or_5_an_unknown_tiebreak_in_202_is_refused_naming_the_records() -> None:
    with pytest.raises(CrosstableError, match=r"records 202/212"):
        check_trf_import(parse_trf(ranked(ROUND_ROBIN, {1: 1}, "XYZ")), "bad.trf")


def test_r_or_5_the_command_line_import_asks_then_confirms_and_exports_the_line(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "swapped.trf"
    path.write_text(swapped(SWISS, 1, 3, 5), encoding="utf-8")
    assert main(["import", str(path), "--db", db_url]) == 2
    err = capsys.readouterr().err
    assert "warning (level 3)" in err and "imported round 5 does not follow" in err
    assert "note: the file declares no tie-break order (202 or 212)" in err  # said, too
    token = re.search(r"--confirm ([0-9a-f]+)", err)
    assert token is not None
    assert main(["import", str(path), "--db", db_url, "--confirm", token.group(1)]) == 0
    assert "confirmed warning, level 3" in capsys.readouterr().out
    assert main(["export", "--to", "trf2026", "--db", db_url]) == 0
    assert "### Import @ Round 5: the FIDE Dutch system" in capsys.readouterr().out


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(mutated_trf())
def test_the_import_check_of_a_mutated_file_never_fails_with_a_traceback(text: str) -> None:
    with bounded("re-checking a mutated TRF for import"):
        try:
            doc = parse_trf(text, source="fuzz")
            checked = check_trf_import(doc, "fuzz")
        except CrosstableError:
            return
        for warning in checked.warnings:
            assert warning.level is Level.CONFIRM and warning.round >= 1
            assert warning.trf.startswith("Import: ")
