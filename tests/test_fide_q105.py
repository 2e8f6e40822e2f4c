"""FIDE checklist Q105 (a hard fail): Buchholz, Fore Buchholz and AOB cannot be chosen
for a round robin in FIDE mode — the picker does not offer them, and a list naming one
is refused (level 5) at the creation and at every edit; outside FIDE mode the level-3
warning stays; a Swiss offers them; an imported round robin that declares them keeps
them after a level-3 import warning. The core, the service and the command line."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.cli import main
from crosstable.core.errors import RuleError
from crosstable.core.model import LotsMethod, System
from crosstable.core.tiebreaks import REGISTRY
from crosstable.core.tiebreaks.picker import (
    check_offered,
    hidden_codes,
    offered_codes,
    offered_presets,
)
from crosstable.core.tiebreaks.presets import PRESETS
from crosstable.formats.trf_read import parse_trf
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.series import SeriesSettings
from crosstable.service.series.edit import SeriesChanges, edit_series
from crosstable.service.trf_import import BUCHHOLZ_CODE, check_trf_import, import_trf
from crosstable.service.warning_levels import ConfirmationNeeded, Level
from tests.fide_support import confirmed
from tests.test_service_support import db_url, registered, service, store  # noqa: F401

FAMILY = ("BH", "FB", "AOB")
SERIES = SeriesSettings("Evening", "workdays", "18:00", "Europe/Moscow")
CODES = st.sampled_from(
    ["BH", "BH/C1", "bh/m1", "BH-C1", "FB", "FB/C2", "AOB", "AOB/F", "SB", "DE", "KS", "WIN"]
)


@settings(max_examples=60, deadline=None)
@given(st.lists(CODES, max_size=6), st.sampled_from(list(System)), st.booleans())
def test_q105_the_picker_refuses_exactly_the_buchholz_family_of_a_fide_round_robin(
    codes: list[str], system: System, fide: bool
) -> None:
    family = [c for c in codes if c.upper().replace("-", "/").split("/")[0] in FAMILY]
    hides = fide and system is System.ROUND_ROBIN
    assert hidden_codes(system, codes, fide=fide) == (
        tuple(c.upper() for c in family) if hides else ()
    )
    if hides and family:
        with pytest.raises(RuleError, match="cannot be chosen for a round robin in FIDE mode"):
            check_offered(system, codes, fide=fide)
    else:
        check_offered(system, codes, fide=fide)
    offered = offered_codes(system, fide=fide)
    assert set(offered) == set(REGISTRY) - (set(FAMILY) if hides else set())
    presets = offered_presets(system, fide=fide)
    assert ("swiss" in presets, "portal-swiss" in presets) == (not hides, not hides)
    assert all(not hidden_codes(system, PRESETS[name], fide=fide) for name in presets)


def test_q105_a_round_robin_in_fide_mode_is_created_without_them_and_refuses_them(
    service: Service,
) -> None:
    for codes in (("BH", "SB"), ("SB", "FB/C1"), ("AOB",), ("BH-C1",)):
        with pytest.raises(RuleError, match=r"\(level 5\)"):
            service.create_tournament(Regulations(name="Club", tiebreaks=codes))
    assert service.tournaments() == []  # nothing stored
    tid = registered(service, 4, tiebreaks=("DE", "SB"))
    revision = service.revision(tid)
    with pytest.raises(RuleError, match="BH/C1 cannot be chosen for a round robin in FIDE"):
        service.edit_regulations(tid, tiebreaks=("BH/C1", "SB"))
    with pytest.raises(RuleError, match="level 5"):  # no token confirms it
        service.edit_regulations(tid, tiebreaks=("BH",), confirm="0" * 20)
    assert service.tournament(tid).settings.tiebreaks == ("DE", "SB")
    assert service.revision(tid) == revision
    service.edit_regulations(tid, tiebreaks=("SB", "KS"))  # what it offers goes through
    assert service.tournament(tid).settings.tiebreaks == ("SB", "KS")


def test_q105_a_swiss_offers_them_and_outside_fide_mode_they_are_a_level_3_warning(
    service: Service,
) -> None:
    swiss = service.create_tournament(
        Regulations(name="Open", system=System.SWISS_DUTCH, rounds=5, tiebreaks=("BH/C1", "BH"))
    ).tournament_id
    service.edit_regulations(swiss, tiebreaks=("AOB", "FB", "BH"))  # no warning at all
    assert service.tournament(swiss).settings.tiebreaks == ("AOB", "FB", "BH")
    off = Regulations(name="Club", tiebreaks=("BH", "SB"), details={"fide_mode": "off"})
    club = service.create_tournament(off).tournament_id  # seed 004 only advises against
    assert service.tournament(club).settings.tiebreaks == ("BH", "SB")
    with pytest.raises(ConfirmationNeeded) as asked:
        service.edit_regulations(club, tiebreaks=("FB", "SB"))
    assert asked.value.level == Level.CONFIRM
    left = registered(service, 4, tiebreaks=("DE",))  # a round robin that left FIDE mode
    confirmed(service.leave_fide_mode, left)
    assert not service.fide_mode(left).on
    with pytest.raises(ConfirmationNeeded):  # the warning again, not the refusal
        service.edit_regulations(left, tiebreaks=("BH",))


def _exported_round_robin_with_buchholz(service: Service) -> str:
    off = Regulations(name="Club", tiebreaks=("BH", "SB"), details={"fide_mode": "off"})
    tid = service.create_tournament(off).tournament_id
    for index, name in enumerate(("Anna", "Boris", "Clara", "Dmitri")):
        service.add_player(tid, PlayerInfo(name, rating=2000 - index))
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(tid)
    for board in (1, 2):
        service.record_result(tid, 1, board, "1-0")
    return service.export_trf(tid)


def test_q105_an_imported_round_robin_keeps_them_after_a_level_3_warning(
    service: Service,
) -> None:
    text = _exported_round_robin_with_buchholz(service)
    doc = parse_trf(text)
    said = [w for w in check_trf_import(doc).warnings if w.code == BUCHHOLZ_CODE]
    assert len(said) == 1 and said[0].level == Level.CONFIRM
    assert "declares the tie-breaks BH,SB" in str(said[0].message)
    with pytest.raises(ConfirmationNeeded) as asked:
        import_trf(service, doc, source="club.trf")
    assert "Buchholz (BH) is not for a round robin" in str(asked.value)
    tid = import_trf(service, doc, source="club.trf", confirm=asked.value.token).tournament_id
    assert service.fide_mode(tid).on  # an imported file is in FIDE mode, its list kept
    assert service.tournament(tid).settings.tiebreaks == ("BH", "SB")
    assert "### Import @ Round 1: Buchholz declared for a round robin (BH,SB)" in (
        service.export_trf(tid)
    )
    with pytest.raises(RuleError, match="level 5"):  # choosing one again is not offered
        service.edit_regulations(tid, tiebreaks=("SB", "BH"))


def test_q105_the_command_line_refuses_them_for_a_round_robin_and_not_for_a_swiss(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CROSSTABLE_ACTOR", "arbiter")
    assert main(["new", "Club", "--tiebreaks", "swiss", "--db", db_url]) == 2
    said = capsys.readouterr().err
    assert "BH/C1, BH cannot be chosen for a round robin in FIDE mode (level 5)" in said
    assert main(["new", "Club", "--tiebreaks", "de-sb-ks", "--db", db_url]) == 0
    capsys.readouterr()
    assert main(["tiebreaks", "FB,SB", "--db", db_url]) == 2
    assert "FB cannot be chosen for a round robin in FIDE mode" in capsys.readouterr().err
    assert main(["tiebreaks", "SB,KS", "--db", db_url]) == 0
    capsys.readouterr()
    swiss = ["new", "Open", "--system", "dutch", "--rounds", "5", "--tiebreaks", "swiss"]
    assert main([*swiss, "--db", db_url]) == 0
    assert capsys.readouterr().err == ""
    assert main(["tiebreaks", "AOB,FB,BH/C1", "--db", db_url]) == 0


def test_q105_a_series_whose_groups_are_round_robins_refuses_them(service: Service) -> None:
    with pytest.raises(RuleError, match="BH/C1 cannot be chosen for a round robin in FIDE"):
        service.create_series(replace(SERIES, tiebreaks=("SB", "BH/C1")))
    sid = service.create_series(replace(SERIES, tiebreaks=("SB", "DE")))
    with pytest.raises(RuleError, match="AOB cannot be chosen"):
        edit_series(service, sid, SeriesChanges(tiebreaks=("AOB",)))
    assert edit_series(service, sid, SeriesChanges(tiebreaks=("KS",)))  # offered: changed
