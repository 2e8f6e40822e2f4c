"""Round-robin regulations of issue 12 item 5: the seeds' tie-break presets (R-RR-10),
the Buchholz warning for a round robin (R-X-8), the format advice by field size
(R-X-9) and the evenings of a group stage + knockout (R-X-10) — core, command line,
wizard preview and JSON API (SQLite and PostgreSQL)."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_service_support import db_url, store  # noqa: F401

from crosstable.cli import main
from crosstable.core.advice import format_advice
from crosstable.core.model import System
from crosstable.core.schedule.groups import plan_group_stage, stage_evenings
from crosstable.core.tiebreaks.presets import (
    PRESETS,
    buchholz_warnings,
    preset,
    preset_or_codes,
)
from crosstable.store import Store


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# -- 1. presets (R-RR-10; seeds 001/004: SB, DE, Koya; seed 003: DE, SB, Koya)


def test_the_seeds_orders_are_presets() -> None:
    assert preset("sb-de-ks") == ("SB", "DE", "KS")  # seed 001, seed 004
    assert preset("DE-SB-KS") == ("DE", "SB", "KS")  # seed 003
    assert preset("portal") == ("SB", "ARO_RATED")  # seeds 000, 002
    assert preset_or_codes("sb-de-ks") == ("SB", "DE", "KS")
    assert preset_or_codes(" de , wIn;sb ") == ("DE", "WIN", "SB")


def test_crosstable_new_takes_a_preset_name(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CROSSTABLE_ACTOR", "arbiter")
    code, _out, err = run(capsys, "new", "Club", "--preset", "sb-de-ks", "--db", db_url)
    assert (code, err) == (0, "")
    code, out, _ = run(capsys, "export", "--to", "json", "--db", db_url)
    assert code == 0
    assert json.loads(out)["tournament"]["tiebreaks"] == "SB,DE,KS"
    code, _out, err = run(capsys, "new", "Club 2", "--tiebreaks", "de-sb-ks", "--db", db_url)
    assert code == 0
    code, out, _ = run(capsys, "export", "--to", "json", "--db", db_url)
    assert json.loads(out)["tournament"]["tiebreaks"] == "DE,SB,KS"


# -- 2. Buchholz for a round robin: a warning, not a refusal (R-X-8, seed 004)


@given(st.lists(st.sampled_from(["BH", "BH/C1", "BH/M1", "FB", "AOB", "SB", "DE", "KS"])))
@settings(max_examples=40, deadline=None)
def test_one_warning_per_buchholz_code_of_a_round_robin(codes: list[str]) -> None:
    warnings = buchholz_warnings(System.ROUND_ROBIN, codes)
    family = [c for c in codes if c.split("/")[0] in ("BH", "FB", "AOB")]
    assert len(warnings) == len(family)
    assert all(f"({code})" in w for code, w in zip(family, warnings, strict=True))
    assert buchholz_warnings(System.SWISS_DUTCH, codes) == ()


def test_crosstable_new_refuses_buchholz_for_a_round_robin_in_fide_mode(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # a round robin made on the command line is in FIDE mode: its picker does not offer
    # a Buchholz (level 5); outside FIDE mode the warning stays (tests/test_fide_q105.py)
    monkeypatch.setenv("CROSSTABLE_ACTOR", "arbiter")
    code, out, err = run(capsys, "new", "Club", "--tiebreaks", "BH,SB", "--db", db_url)
    assert code == 2 and "created" not in out
    assert "BH cannot be chosen for a round robin in FIDE mode" in err
    code, _out, err = run(capsys, "new", "Open", "--system", "dutch", "--rounds", "5",
                          "--tiebreaks", "swiss", "--db", db_url)  # fmt: skip
    assert (code, err) == (0, "")


class Api:
    def __init__(self, store: Store) -> None:
        from test_service_support import make_service

        from crosstable.service.accounts import Accounts
        from crosstable.web.app import create_app
        from tests.asgi_client import TestClient

        self.service = make_service(store)
        accounts = Accounts(store)
        admin = accounts.create_user("ann", "password-ann", is_admin=True)
        self.headers = {"Authorization": f"Bearer {accounts.create_token(admin.id)}"}
        self.client = TestClient(create_app(service=self.service))

    def create(self, **body: Any) -> Any:
        answer = self.client.post(
            "/api/v1/tournaments", json={"name": "Club"} | body, headers=self.headers
        )
        assert answer.status_code == 201, answer.text
        return answer.json()


def test_the_api_creation_answer_lists_the_warnings(store: Store) -> None:
    api = Api(store)
    refused = api.client.post(  # a round robin in FIDE mode: not offered (level 5)
        "/api/v1/tournaments", json={"name": "Club", "tiebreaks": "BH/C1,SB,DE"},
        headers=api.headers,
    )  # fmt: skip
    assert refused.status_code == 422 and "in FIDE mode" in refused.text
    assert api.service.tournaments() == []
    assert api.create(tiebreaks="sb-de-ks")["warnings"] == []
    tid = api.create(tiebreaks="de-sb-ks")["id"]
    assert api.service.overview(tid).settings["tiebreaks"] == ["DE", "SB", "KS"]


def test_the_wizard_preview_warns_in_english_and_russian() -> None:
    from crosstable.web import i18n
    from crosstable.web.routes import wizard

    form = {"format": "round-robin", "count": "8", "tiebreaks": "custom", "tiebreak_list": "BH,SB"}
    # a round robin made by the wizard is in FIDE mode: a Buchholz is refused, not warned
    assert wizard.preview(form).problems[0].startswith("BH cannot be chosen for a round robin")
    assert wizard.preview(form | {"tiebreaks": "sb-de-ks"}).warnings == []
    assert wizard.preview(form | {"format": "swiss"}).warnings == []
    assert wizard.preview(form | {"format": "swiss"}).problems == []
    token = i18n.current.set("ru")
    try:
        shown = wizard.preview(form).problems[0]
    finally:
        i18n.current.reset(token)
    assert "BH" in shown and "FIDE" in shown and "cannot be chosen" not in shown


# -- 3. format advice by field size (R-X-9, seeds 001 and 004)


@given(st.integers(2, 400))
@settings(max_examples=60, deadline=None)
def test_the_advice_follows_the_seeds_bounds(players: int) -> None:
    advice = format_advice(players)
    expected = (
        "round-robin"
        if players <= 6
        else "round-robin-if-calendar"
        if players <= 10
        else "round-robin-ceiling"
        if players <= 12
        else "not-round-robin"
    )
    assert advice.kind == expected
    assert advice.rounds == (players - 1 if players % 2 == 0 else players)
    assert str(players) in advice.text


def test_crosstable_duration_gives_the_advice(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "duration", "-n", "13", "-t", "G/25 d5")
    assert code == 0 and "Format advice" in out and "quads" in out
    code, out, _ = run(capsys, "duration", "-n", "8", "-t", "G/25 d5", "-f", "json")
    data = json.loads(out)
    assert list(data)[-1] == "advice" and data["advice"]["kind"] == "round-robin-if-calendar"
    assert data["evenings"] == 4  # the contract's keys are untouched


def test_the_wizard_preview_shows_the_advice(store: Store) -> None:
    api = Api(store)
    from test_web_stages import _csrf

    client = api.client
    token = _csrf(client.get("/signin").text)
    client.post(
        "/signin",
        data={"username": "ann", "password": "password-ann", "csrf_token": token},
        follow_redirects=False,
    )
    csrf = _csrf(client.get("/").text)
    for count, words in (("5", "a swiss would run out"), ("14", "quads")):
        for language, check in (("en", words), ("ru", "квад" if count == "14" else "швейцар")):
            html = client.post(
                "/new/preview",
                data={"csrf_token": csrf, "format": "round-robin", "count": count},
                headers={"Accept-Language": language},
            ).text
            found = re.search(r'id="pv-advice"[^>]*>(.*?)</p>', html, re.S)
            assert found and check in found.group(1).lower(), html


# -- 4. the evenings of a group stage + knockout (R-X-10, seed 001's example)


def test_seed_001_group_stage_takes_six_evenings_and_51_games() -> None:
    plan = plan_group_stage(16, groups=4, cycles=2, qualifiers_per_group=1)
    evenings = stage_evenings(plan, rounds_per_evening=2)
    assert (plan.total_games, evenings.group_evenings, evenings.knockout_evenings) == (51, 3, 2)
    assert evenings.evenings == 6
    assert stage_evenings(plan, 2, reserve=0).evenings == 5
    assert stage_evenings(plan, 1).evenings == 6 + 2 + 1


def test_crosstable_duration_with_groups(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("duration", "-n", "16", "-t", "G/25 d5", "--groups", "4", "--cycles", "2")
    code, out, _ = run(capsys, *args, "-f", "json")
    data = json.loads(out)
    assert code == 0 and data["evenings"] == 8  # the straight round robin's, as before
    stage = data["group_stage"]
    assert (stage["total_games"], stage["group_evenings"], stage["evenings"]) == (51, 3, 6)
    code, out, _ = run(capsys, *args)
    assert code == 0 and re.search(r"Evenings\s*│\s*6", out), out
    code, out, err = run(capsys, "duration", "-n", "16", "-t", "G/25 d5", "--groups", "9")
    assert code == 2 and "group of 1" in err and "Traceback" not in err


def test_the_wizard_preview_counts_the_group_stage_evenings() -> None:
    from crosstable.web.routes import wizard

    shown = wizard.preview(
        {
            "format": "groups",
            "count": "16",
            "groups": "4",
            "qualifiers": "1",
            "group_cycles": "2",
            "time_control": "G/25 d5",
        }
    )
    assert shown.problems == [] and shown.games == 51
    assert shown.stage_evenings.evenings == 6


def test_presets_are_all_known_codes() -> None:
    from crosstable.core.tiebreaks.spec import parse_codes

    for codes in PRESETS.values():
        parse_codes(codes)
