"""What a tournament is given at its creation: the wizard says which tie-break list its
default choice gives the tournament being created (FIDE's for the format, the portal's
for a Swiss in the portal's order), and a knockout's capacity (2ⁿ) is set at creation
through the command line, the wizard and the JSON API, a capacity that is not a power
of two, or smaller than the players given, refused with nothing stored."""
# ruff: noqa: F811 - pytest fixtures imported from test_web_swiss

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from test_service_support import migrated
from test_web_swiss import Site, site  # noqa: F401

from crosstable.cli import main
from crosstable.service import Service
from crosstable.store import open_store


def _text(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def _preview(site: Site, **form: str) -> str:
    answer = site.client.post("/new/preview", data={"csrf_token": site.csrf, **form})
    assert answer.status_code == 200
    return _text(answer.text)


def test_r_rr_10_the_wizard_shows_the_default_list_for_the_tournament_created(
    site: Site,
) -> None:
    page = _text(site.client.get("/new").text)
    assert "The default for this tournament (shown in the preview)" in page
    assert "a Swiss in the portal's order: BH, BH-C1, BH-C2" in page
    portal = _preview(site, format="swiss", initial_order="portal", tiebreaks="default")
    assert "Tie-breaks: BH, BH/C1, BH/C2 (the default for this tournament)" in portal
    fide = _preview(site, format="swiss", tiebreaks="default")
    assert "Tie-breaks: BH/C1, BH, SB, DE, WIN (the default for this tournament)" in fide
    rr = _preview(site, format="round-robin", tiebreaks="default")
    assert "Tie-breaks: DE, WIN, SB, KS (the default for this tournament)" in rr
    own = _preview(site, format="round-robin", tiebreaks="custom", tiebreak_list="SB,DE")
    assert "Tie-breaks: SB, DE" in own and "the default for this tournament" not in own
    russian = site.client.post(
        "/new/preview",
        data={
            "csrf_token": site.csrf,
            "format": "swiss",
            "initial_order": "portal",
            "tiebreaks": "default",
        },
        headers={"Accept-Language": "ru"},
    ).text
    assert "по умолчанию для этого турнира" in russian
    tid = site.create(name="Portal", format="swiss", initial_order="portal", tiebreaks="default")
    assert tuple(site.service.overview(tid).settings["tiebreaks"]) == ("BH", "BH/C1", "BH/C2")


def _regulations(service: Service, tid: int) -> dict[str, str]:
    return dict(service.overview(tid).settings["regulations"])


def test_r_ko_1_the_wizard_and_the_api_set_the_capacity_at_creation(site: Site) -> None:
    tid = site.create(name="Cup", format="knockout", capacity="8", list="A\nB\nC")
    assert _regulations(site.service, tid)["capacity"] == "8"
    before = len(site.service.tournaments())
    for capacity, players, says in (
        ("6", "A\nB", "a knockout's field is a power of two"),
        ("2", "A\nB\nC", "3 players are more than the field"),
    ):
        refused = site.post("/new", name="Bad", format="knockout", capacity=capacity, list=players)
        assert refused.status_code == 422 and says in _text(refused.text), capacity
        assert says in _preview(site, format="knockout", capacity=capacity, list=players)
    hy = site.client.post(
        "/new",
        data={"csrf_token": site.csrf, "name": "Bad", "format": "knockout", "capacity": "6"},
        headers={"Accept-Language": "hy"},
    )
    assert hy.status_code == 422 and "աստիճան" in hy.text  # a power (of two), in Armenian
    assert len(site.service.tournaments()) == before
    made = site.client.post(
        "/api/v1/tournaments",
        json={"name": "Api cup", "format": "knockout", "capacity": 16},
        headers=site.auth,
    )
    assert made.status_code == 201, made.text
    assert _regulations(site.service, made.json()["id"])["capacity"] == "16"
    for body in (
        {"name": "Six", "format": "knockout", "capacity": 6},
        {"name": "Round robin", "format": "round-robin", "capacity": 8},
        {"name": "Full", "format": "knockout", "capacity": 2, "players": [{"name": "A"}] * 3},
    ):
        refused = site.client.post("/api/v1/tournaments", json=body, headers=site.auth)
        assert refused.status_code == 422, body
    assert len(site.service.tournaments()) == before + 1


def test_r_ko_1_crosstable_new_takes_the_capacity(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "cup.db")
    assert main(["new", "Cup", "--system", "knockout", "--capacity", "4", "--db", db]) == 0
    capsys.readouterr()
    for args, says in (
        (["--system", "knockout", "--capacity", "6"], "a knockout's field is a power of two"),
        (["--capacity", "8"], "--capacity is for knockout tournaments"),
    ):
        assert main(["new", "Bad", *args, "--db", db]) == 2
        out, err = capsys.readouterr()
        assert says in err and "Traceback" not in err and out == "", args
    store = open_store(migrated(f"sqlite:///{db}"))
    try:
        service = Service(store)
        (only,) = service.tournaments()
        assert _regulations(service, only.id)["capacity"] == "4"
    finally:
        store.close()
