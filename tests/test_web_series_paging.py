"""The series' news and awards a page at a time (issue 11): the pages and the JSON API
in a stable order (the news newest first, the awards oldest first), every item on
exactly one page, the page size bounded, and a bad page number a clear 4xx naming the
field — English and Russian, SQLite and PostgreSQL."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from test_series_news import PLAYERS, _series, _service, run_edition
from test_service_support import db_url, store  # noqa: F401

from crosstable.store import Store
from crosstable.web.app import create_app
from crosstable.web.routes import series_news
from tests.asgi_client import TestClient


@pytest.fixture
def finished(store: Store) -> tuple[TestClient, int]:
    service, clock = _service(store)
    sid = _series(service)
    run_edition(service, clock, sid, [("Forfeiter", 2500, None), *PLAYERS], "Forfeiter")
    return TestClient(create_app(service=service)), sid


def test_the_api_pages_news_and_awards_in_a_stable_order(finished) -> None:
    client, sid = finished
    every_news = client.get(f"/api/v1/series/{sid}/news").json()
    assert (every_news["page"], every_news["per_page"], every_news["pages"]) == (1, 20, 1)
    assert every_news["total"] == len(every_news["news"]) == 3
    ids = [n["id"] for n in every_news["news"]]
    assert ids == sorted(ids, reverse=True)  # newest first
    paged = [
        client.get(f"/api/v1/series/{sid}/news", params={"page": p, "per_page": 2}).json()
        for p in (1, 2)
    ]
    assert [len(p["news"]) for p in paged] == [2, 1] and {p["pages"] for p in paged} == {2}
    assert [n["id"] for p in paged for n in p["news"]] == ids
    awards = client.get(f"/api/v1/series/{sid}/awards").json()
    assert awards["total"] == len(awards["awards"]) == 11 and awards["per_page"] == 100
    award_ids = [a["id"] for a in awards["awards"]]
    assert award_ids == sorted(award_ids)  # oldest first
    pieces = [
        client.get(f"/api/v1/series/{sid}/awards", params={"page": p, "per_page": 4}).json()
        for p in (1, 2, 3)
    ]
    assert [len(p["awards"]) for p in pieces] == [4, 4, 3]
    assert [a["id"] for p in pieces for a in p["awards"]] == award_ids
    mine = client.get(
        f"/api/v1/series/{sid}/awards", params={"player": "player 01", "per_page": 1}
    ).json()
    assert mine["total"] >= 1 and len(mine["awards"]) == 1
    assert mine["pages"] == mine["total"]


def test_bad_pages_are_refused_with_the_field_named(finished) -> None:
    client, sid = finished
    for path in ("news", "awards"):
        for params in ({"page": 0}, {"page": "x"}, {"per_page": 0}, {"per_page": 10_000}):
            answer = client.get(f"/api/v1/series/{sid}/{path}", params=params)
            assert answer.status_code == 422, (path, params)
            assert next(iter(params)) in str(answer.json()["detail"]), (path, params)
    late = client.get(f"/api/v1/series/{sid}/news", params={"page": 3, "per_page": 2})
    assert late.status_code == 422
    assert late.json()["detail"] == "page 3: there are only 2 pages of 2"
    russian = client.get(
        f"/api/v1/series/{sid}/news",
        params={"page": 3, "per_page": 2},
        headers={"Accept-Language": "ru"},
    )
    assert russian.json()["detail"].startswith("страница 3:")
    for page in ("0", "-1", "x", "1.5", "٣"):
        answer = client.get(f"/series/{sid}/news", params={"page": page})
        assert answer.status_code == 422, page
        assert "a page is a whole number from 1" in answer.text
    assert client.get(f"/series/{sid}/awards", params={"page": "2"}).status_code == 422
    assert "there are only 1 pages" in client.get(f"/series/{sid}/awards?page=2").text
    assert client.get(f"/series/{sid}/news", params={"page": ""}).status_code == 200


def test_the_pages_link_the_next_and_the_previous(
    finished, monkeypatch: pytest.MonkeyPatch
) -> None:
    client, sid = finished
    assert 'id="pager"' not in client.get(f"/series/{sid}/news").text  # one page: no pager
    monkeypatch.setattr(series_news, "NEWS_PER_PAGE", 2)
    monkeypatch.setattr(series_news, "AWARDS_PER_PAGE", 4)
    first = client.get(f"/series/{sid}/news").text
    assert first.count('class="series-news"') == 2 and "Page 1 of 2" in first
    assert f'href="/series/{sid}/news?page=2" rel="next"' in first and 'rel="prev"' not in first
    second = client.get(f"/series/{sid}/news?page=2").text
    assert second.count('class="series-news"') == 1 and 'rel="next"' not in second
    assert f'href="/series/{sid}/news?page=1" rel="prev"' in second
    russian = client.get(f"/series/{sid}/news", headers={"Accept-Language": "ru"}).text
    assert "Страница 1 из 2" in russian and "Старше" in russian
    awards = client.get(f"/series/{sid}/awards", params={"player": "", "page": 3}).text
    assert "Page 3 of 3" in awards and 'rel="next"' not in awards
    assert f'href="/series/{sid}/awards?player=&amp;page=2" rel="prev"' in awards
    assert awards.count('class="badge place-') == 3
