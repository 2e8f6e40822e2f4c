"""Scoring rules (FIDE checklist Q74, Q81, Q83, Q75–77, Q85): two draws are never worth
more than a win and a loss, a bye never more than a win, and with standard scoring a
bye is 1, ½ or 0 — refused in the settings (the service, ``crosstable new``, the JSON
API) and in imported files (162, XXS); a change of the scoring after the start takes a
level-3 warning and a ``### Scoring @ Round n`` line."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.cli import main
from crosstable.core.errors import InputError, RuleError
from crosstable.core.model import Settings, System
from crosstable.core.scoring import PointSystem, check_bye_value
from crosstable.formats.trf_read import parse_trf
from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.service.registration import Regulations
from crosstable.service.warning_levels import ConfirmationNeeded, Level
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.conftest import DATA
from tests.test_service_support import db_url, migrated, registered, service, started, store  # noqa: F401

SWISS = (DATA / "swiss-dutch" / "p01_n007_r05_clean.trf").read_text(encoding="utf-8")
HALF = Fraction(1, 2)


def test_r_rr_2_a_bye_worth_more_than_a_win_is_refused() -> None:
    with pytest.raises(RuleError, match=r"a bye worth 1\.5 would be worth more than a win \(1\)"):
        PointSystem(pairing_bye=Fraction(3, 2))
    with pytest.raises(RuleError, match=r"more than a win \(3\)"):
        Settings(point_system=PointSystem.three_one_zero(), bye_points=Fraction(4))
    with pytest.raises(RuleError, match="less than nothing"):
        Settings(bye_points=Fraction(-1))
    # a PAB worth nothing is a value the organiser may choose (Q82)
    assert Settings(system=System.SWISS_DUTCH, bye_points=Fraction(0)).free_round_points == 0


@pytest.mark.parametrize("value", [Fraction(1, 4), Fraction(3, 4), Fraction(1, 3)])
def test_r_sw_2_with_standard_scoring_a_bye_is_1_a_half_or_0(value: Fraction) -> None:
    with pytest.raises(RuleError, match=r"with standard scoring .* 1, 0\.5 or 0"):
        PointSystem(pairing_bye=value)
    with pytest.raises(RuleError, match="with standard scoring"):
        Settings(system=System.SWISS_DUTCH, bye_points=value)
    # with another scoring any value up to a win is the organiser's choice (Q84)
    check_bye_value(PointSystem.three_one_zero(), value)


@settings(max_examples=80, deadline=None)
@given(
    st.fractions(min_value=0, max_value=4, max_denominator=4),
    st.fractions(min_value=0, max_value=4, max_denominator=4),
    st.fractions(min_value=0, max_value=4, max_denominator=4),
    st.fractions(min_value=-1, max_value=5, max_denominator=4),
)
def test_r_rr_2_a_point_system_is_accepted_exactly_when_the_rules_allow_it(
    win: Fraction, draw: Fraction, loss: Fraction, bye: Fraction
) -> None:
    allowed_points = win > draw >= loss and 2 * draw <= win + loss
    standard = (win, draw, loss) == (1, HALF, 0)
    allowed_bye = 0 <= bye <= win and (not standard or bye in (0, HALF, 1))
    try:
        PointSystem(win=win, draw=draw, loss=loss, pairing_bye=bye)
    except RuleError:
        assert not (allowed_points and allowed_bye)
    else:
        assert allowed_points and allowed_bye


def _with_162(text: str) -> str:
    return SWISS.replace("092 FIDE_DUTCH_2025\n", f"092 FIDE_DUTCH_2025\n162 {text}\n")


@pytest.mark.parametrize(
    ("record", "words"),
    [
        ("W 1.0 D 0.5 L 0.0 P 1.5", "more than a win"),
        ("W 1.0 D 0.5 L 0.0 P 0.7", "with standard scoring"),
        ("W 1.0 D 0.6 L 0.0", "two draws"),
    ],
)
def test_r_rr_2_an_imported_points_table_that_breaks_the_rules_is_refused_at_its_line(
    record: str, words: str
) -> None:
    with pytest.raises(InputError, match=words) as refused:
        parse_trf(_with_162(record), "points.trf")
    assert refused.value.line == 10 and "162" in str(refused.value)
    xxs = SWISS + "XXS WW=3 BW=3 WD=1 BD=1 PAB=4\n"
    with pytest.raises(InputError, match="more than a win"):
        parse_trf(xxs, "xxs.trf")


def test_r_rr_2_the_service_refuses_a_bye_value_against_the_rules(service: Service) -> None:
    with pytest.raises(RuleError, match="with standard scoring"):
        service.create_tournament(
            Regulations(name="Open", system=System.SWISS_DUTCH, bye_points=Fraction(3, 4))
        )
    tid = registered(service, 4, system=System.SWISS_DUTCH, rounds=3)
    with pytest.raises(RuleError, match="more than a win"):
        service.edit_regulations(tid, bye_points=Fraction(2))
    service.edit_regulations(tid, bye_points=HALF)  # before the start: as any setting
    assert service.tournament(tid).settings.free_round_points == HALF


def test_r_rr_2_a_change_of_scoring_after_the_start_takes_a_level_3_warning(
    service: Service,
) -> None:
    tid = started(service, 4)
    service.record_result(tid, 1, 1, "1-0")
    with pytest.raises(RuleError, match="point system was published"):  # still locked
        service.edit_regulations(tid, point_system=PointSystem.three_one_zero())
    with pytest.raises(ConfirmationNeeded) as asked:
        service.edit_regulations(
            tid, point_system=PointSystem.three_one_zero(), override_reason="misprint"
        )
    assert asked.value.level is Level.CONFIRM
    assert asked.value.as_json()["warnings"] == [
        "changing the scoring after the start, from 1-0.5-0, bye 0 to 3-1-0, bye 0: "
        "the points already scored are counted again"
    ]
    assert service.tournament(tid).settings.point_system == PointSystem()  # nothing yet
    service.edit_regulations(
        tid,
        point_system=PointSystem.three_one_zero(),
        override_reason="misprint",
        confirm=asked.value.token,
    )
    assert service.tournament(tid).settings.point_system == PointSystem.three_one_zero()
    assert (
        "### Scoring @ Round 1: changed from 1-0.5-0, bye 0 to 3-1-0, bye 0"
        in service.export_trf(tid).splitlines()
    )
    with pytest.raises(ConfirmationNeeded) as bye:  # the bye's value, as the scoring (Q85)
        service.edit_regulations(tid, bye_points=Fraction(1), override_reason="misprint")
    assert "from 3-1-0, bye 0 to 3-1-0, bye 1" in bye.value.as_json()["warnings"][0]


def test_r_rr_2_crosstable_new_refuses_a_bye_against_the_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CROSSTABLE_DB", raising=False)
    db = str(tmp_path / "cli.db")
    new = ["new", "Open", "--system", "dutch", "--rounds", "5", "--db", db]
    assert main([*new, "--bye-points", "0.75"]) == 2
    assert "with standard scoring (1-0.5-0) a bye is worth 1, 0.5 or 0" in capsys.readouterr().err
    assert main([*new, "--points", "3-1-0", "--bye-points", "4"]) == 2
    assert "more than a win (3)" in capsys.readouterr().err
    assert main([*new, "--points", "1-0.6-0"]) == 2
    assert "two draws" in capsys.readouterr().err
    assert main([*new, "--bye-points", "0.5"]) == 0


@pytest.fixture()
def api(tmp_path: Path) -> Any:
    service = Service(open_store(migrated(f"sqlite:///{tmp_path / 'web.db'}")))
    accounts = Accounts(service.store)
    user = accounts.create_user("admin", "password-admin", is_admin=True)
    token = accounts.create_token(user.id, "script")
    with TestClient(create_app(service=service)) as client:
        yield client, {"Authorization": f"Bearer {token}"}


def test_r_rr_2_the_api_refuses_a_bye_against_the_rules(api: Any) -> None:
    client, auth = api
    body = {"name": "Open", "system": "swiss-dutch", "rounds": 5}
    for bye, words in (("0.75", "with standard scoring"), ("2", "more than a win")):
        refused = client.post("/api/v1/tournaments", json=body | {"bye_points": bye}, headers=auth)
        assert 400 <= refused.status_code < 500 and words in refused.text, refused.text
    made = client.post("/api/v1/tournaments", json=body | {"bye_points": "0.5"}, headers=auth)
    assert made.status_code == 201, made.text
