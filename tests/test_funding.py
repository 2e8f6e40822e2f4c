"""Who pays for a tournament (seed 002: the regulations name the funding source and how
a sponsor is credited): checked at the creation and at an edit of the regulations,
nothing stored when refused, and shown on the regulations page in words (SQLite and
PostgreSQL)."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support and test_web_swiss

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_service_support import db_url, service, store  # noqa: F401
from test_web_swiss import Site, site  # noqa: F401

from crosstable.cli import main
from crosstable.core.errors import RuleError
from crosstable.core.funding import SOURCES, Funding
from crosstable.service import Regulations, Service
from crosstable.web import i18n
from crosstable.web.regulation_text import regulation_items


@pytest.mark.parametrize(
    ("details", "error"),
    [
        ({"funding": "lottery"}, "funding: 'lottery' is not a funding source"),
        ({"funding": "sponsor"}, "a sponsor pays, so name the sponsor"),
        ({"funding": "entry fees", "sponsor": "Ararat"}, "a sponsor is named, so the funding"),
        ({"funding": "sponsor", "sponsor": "A" * 301}, "sponsor is longer than 300 characters"),
    ],
)
def test_r_x_13_the_funding_that_does_not_read_is_refused_at_creation(
    service: Service, details: dict[str, str], error: str
) -> None:
    before = len(service.tournaments())
    with pytest.raises(RuleError, match=error):
        service.create_tournament(Regulations(name="Open", details=details))
    assert len(service.tournaments()) == before  # nothing stored


def test_r_x_13_the_regulations_state_who_pays_and_an_edit_is_checked(service: Service) -> None:
    details = {"funding": "entry_fees, sponsor", "sponsor": "Ararat", "sponsor_credit": "logo"}
    tid = service.create_tournament(Regulations(name="Open", details=details)).tournament_id
    stored = service.overview(tid).settings.regulations
    assert stored.funding == Funding(("entry_fees", "sponsor"), "Ararat", "logo")
    with pytest.raises(RuleError, match="a sponsor pays, so name the sponsor"):
        service.edit_regulations(tid, details={"funding": "sponsor"})
    assert service.overview(tid).settings.regulations.funding.sponsor == "Ararat"  # unchanged
    service.edit_regulations(tid, details={"funding": "own funds"})
    assert service.overview(tid).settings.regulations.funding.sources == ("own_funds",)


def test_r_x_13_the_regulations_page_says_who_pays_in_russian() -> None:
    details = {"funding": "entry_fees,sponsor", "sponsor": "Ararat", "sponsor_credit": "logo"}
    token = i18n.current.set("ru")
    try:
        items = dict(regulation_items(details))
    finally:
        i18n.current.reset(token)
    assert items == {
        "Финансирование": "турнирные взносы и спонсор",
        "Спонсор": "Ararat",
        "Как упоминается спонсор": "logo",
    }


@given(st.lists(st.sampled_from(SOURCES), max_size=6), st.text(max_size=20))
def test_r_x_13_any_funding_text_reads_or_is_refused_with_its_reason(
    sources: list[str], noise: str
) -> None:
    text = ", ".join([*sources, noise])
    try:
        funding = Funding.read({"funding": text, "sponsor": "S"})
    except RuleError as error:
        assert str(error).startswith("funding: ")
    else:
        assert set(funding.sources) <= set(SOURCES) and len(set(funding.sources)) == len(
            funding.sources
        )


# -- every surface of the creation -------------------------------------------------------


def _details(service: Service, tid: int) -> dict[str, str]:
    return dict(service.overview(tid).settings["regulations"])


def test_r_x_13_the_wizard_the_api_and_the_command_line_take_who_pays(
    site: Site, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = site.client.get("/new").text
    assert 'name="funding_sponsor"' in page and 'name="sponsor_credit"' in page
    assert 'name="level"' not in page  # the portal keeps no levels: no choice offered
    tid = site.create(
        name="Sponsored", funding_entry_fees="on", funding_sponsor="on", sponsor="Ararat",
        sponsor_credit="named at the prize-giving", list="A\nB\nC\nD",
    )  # fmt: skip
    assert _details(site.service, tid) == {
        "funding": "sponsor,entry_fees",
        "sponsor": "Ararat",
        "sponsor_credit": "named at the prize-giving",
    }
    shown = site.client.get(f"/t/{tid}/regulations", headers={"Accept-Language": "ru"}).text
    assert "спонсор и турнирные взносы" in shown and "Ararat" in shown
    before = len(site.service.tournaments())
    refused = site.post("/new", name="Bad", funding_sponsor="on", list="A\nB\nC")
    assert refused.status_code == 422 and "name the sponsor" in refused.text
    made = site.client.post(
        "/api/v1/tournaments",
        json={"name": "Api", "funding": "own_funds"},
        headers=site.auth,
    )
    assert made.status_code == 201, made.text
    assert _details(site.service, made.json()["id"])["funding"] == "own_funds"
    bad = site.client.post(
        "/api/v1/tournaments",
        json={"name": "Api", "funding": "lottery"},
        headers=site.auth | {"Accept-Language": "ru"},
    )
    assert bad.status_code == 422 and "не источник финансирования" in bad.text
    assert len(site.service.tournaments()) == before + 1
    db = str(tmp_path / "cli.db")
    args = ["new", "Cup", "--funding", "sponsor", "--sponsor", "Ararat", "--db", db]
    assert main(args) == 0
    assert main(["new", "Bad", "--sponsor", "Ararat", "--db", db]) == 2
    _out, err = capsys.readouterr()
    assert "a sponsor is named, so the funding sources include sponsor" in err


def test_r_x_13_the_manage_page_edits_who_pays(site: Site) -> None:
    tid = site.create(name="Club", list="A\nB\nC\nD")
    page = site.client.get(f"/t/{tid}/manage").text
    assert 'name="funding_sponsor"' in page and 'name="detail_sponsor"' in page
    form = {"funding_shown": "1", "funding_sponsor": "on", "detail_sponsor": "Ararat"}
    assert site.post(f"/t/{tid}/manage/regulations", **form).status_code == 200
    assert _details(site.service, tid)["funding"] == "sponsor"
    page = site.client.get(f"/t/{tid}/manage").text
    assert 'name="funding_sponsor" checked' in page and 'value="Ararat"' in page
    refused = site.post(f"/t/{tid}/manage/regulations", funding_shown="1", detail_sponsor="")
    assert "a sponsor is named" not in refused.text  # none ticked, none named: nothing paid
    assert (
        "funding" not in _details(site.service, tid) or not _details(site.service, tid)["funding"]
    )
    bad = site.post(f"/t/{tid}/manage/regulations", funding_shown="1", funding_sponsor="on")
    assert "name the sponsor" in bad.text
