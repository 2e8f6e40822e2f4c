"""Blank tables and paper templates: the FIDE Berger tables of 4 to 16 players, one
page a size (left number White, the bye marked), and a blank paper crosstable of any size,
as PDF in English and Russian, through the core, the PDF drawing, the command line, the
web (PDF, page, JSON API). The PDFs are read back with their texts' positions."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from hypothesis import given, settings
from hypothesis import strategies as st
from test_newcomer_prints import Drawn, read
from test_service_support import migrated

from crosstable.cli import main
from crosstable.core.errors import RuleError
from crosstable.core.schedule import berger_table
from crosstable.core.schedule.blank import (
    berger_sheet,
    berger_sheets,
    check_blank_crosstable,
    whole_number,
)
from crosstable.service import Regulations, Service
from crosstable.store import open_store
from crosstable.web import i18n
from crosstable.web.app import create_app
from crosstable.web.pdf.blanks import berger_pdf, blank_crosstable_pdf
from tests.asgi_client import TestClient

RU = {"Accept-Language": "ru"}
PAIR = re.compile(r"^(\d+|\(bye\)|\(свободен\)) — (\d+|\(bye\)|\(свободен\))$")


def in_language(locale: str, make: object) -> bytes:
    token = i18n.current.set(locale)
    try:
        assert callable(make)
        data = make()
        assert isinstance(data, bytes)
        return data
    finally:
        i18n.current.reset(token)


def page_pairs(drawn: Drawn, page: int, bye: str) -> list[tuple[int | None, int | None]]:
    """The pairs printed on ``page``, in the order drawn (round by round, board 1 first)."""
    out = []
    for text in (t for t in drawn.texts if t.page == page):
        found = PAIR.match(text.text)
        if found:
            out.append(tuple(None if g == bye else int(g) for g in found.groups()))
    return out  # type: ignore[return-value]


def inside(drawn: Drawn) -> None:
    assert drawn.rects
    assert all(x >= 0 and x + w <= drawn.width + 0.01 for _p, x, _y, w, _h in drawn.rects)
    assert all(0 <= t.x < drawn.width for t in drawn.texts)
    assert all(t.y > 0 for t in drawn.texts)


# -- the core ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(4, 17))
def test_r_x_5_a_blank_berger_table_is_the_core_table_with_the_bye_marked(players: int) -> None:
    sheet = berger_sheet(players)
    table = berger_table(players + players % 2)
    assert sheet.table == table.players
    assert len(sheet.rounds) == len(table.rounds)
    for blank, scheduled in zip(sheet.rounds, table.rounds, strict=True):
        ghost = players + 1 if players % 2 else None
        assert blank.pairs == tuple(
            (None if w == ghost else w, None if b == ghost else b) for w, b in scheduled.boards
        )
    byes = [r.bye for r in sheet.rounds]
    if players % 2:
        assert sorted(byes) == list(range(1, players + 1))  # each once
    else:
        assert byes == [None] * len(byes)
    met = [frozenset((w, b)) for r in sheet.rounds for w, b in r.pairs if None not in (w, b)]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in combinations(range(1, players + 1), 2)), key=sorted
    )


def test_r_x_5_every_size_from_4_to_16_and_nothing_else() -> None:
    assert [s.players for s in berger_sheets()] == list(range(4, 17))
    for bad in (3, 17, 0, -4):
        with pytest.raises(RuleError, match=f"4 to 16 players, not {bad}"):
            berger_sheet(bad)


@settings(max_examples=60, deadline=None)
@given(st.integers(-1000, 1000), st.integers(-20, 20))
def test_r_x_5_a_blank_crosstable_takes_2_to_100_players_and_0_to_6_tiebreaks(
    players: int, tiebreaks: int
) -> None:
    if 2 <= players <= 100 and 0 <= tiebreaks <= 6:
        assert check_blank_crosstable(players, tiebreaks) == (players, tiebreaks)
    else:
        with pytest.raises(RuleError, match="not"):
            check_blank_crosstable(players, tiebreaks)


def test_r_x_5_numbers_typed_in_are_read_or_named() -> None:
    assert whole_number("7", "players") == 7
    with pytest.raises(RuleError, match="players must be a whole number, not 'seven'"):
        whole_number("seven", "players")
    with pytest.raises(RuleError, match=r"tie-breaks must be a whole number, not '2\.5'"):
        whole_number("2.5", "tie-breaks")


# -- the PDFs ---------------------------------------------------------------------------


@pytest.mark.parametrize(("locale", "bye"), [("en", "(bye)"), ("ru", "(свободен)")])
def test_r_x_5_the_berger_pdf_has_a_page_per_size_with_the_core_pairings(
    locale: str, bye: str
) -> None:
    drawn = read(in_language(locale, berger_pdf))
    pages = sorted({t.page for t in drawn.texts})
    assert pages == list(range(1, 14))
    heading = "Таблица Бергера на {n} участников" if locale == "ru" else ""
    heading = heading or "Berger table for {n} players"
    caption = "The left number plays White." if locale == "en" else "Левый номер играет белыми."
    for page, sheet in zip(pages, berger_sheets(), strict=True):
        texts = [t.text for t in drawn.texts if t.page == page]
        assert heading.format(n=sheet.players) in texts
        assert caption in texts
        pairs = page_pairs(drawn, page, bye)
        assert pairs == [p for r in sheet.rounds for p in r.pairs]
        marked = sum(None in p for p in pairs)
        assert marked == (sheet.players if sheet.players % 2 else 0)
        assert (bye in " ".join(texts)) == bool(sheet.players % 2)
    inside(drawn)


@pytest.mark.parametrize(("players", "orientation"), [(4, "P"), (12, "P"), (30, "L"), (100, "L")])
def test_r_x_5_a_blank_crosstable_has_every_row_and_opponent_column(
    players: int, orientation: str
) -> None:
    drawn = read(blank_crosstable_pdf(players, 2))
    assert (drawn.width < 600) == (orientation == "P")  # A4 portrait is 595 pt wide
    inside(drawn)
    assert min(t.size for t in drawn.texts if t.text.strip()) >= 6
    heads = [t for t in drawn.texts if t.text == "Player"]
    columns: set[int] = set()
    for head in heads:  # the digits on each header line are the opponents' columns
        columns |= {
            int(t.text)
            for t in drawn.texts
            if t.page == head.page and abs(t.y - head.y) < 0.5 and t.text.isdigit()
        }
    assert columns == set(range(1, players + 1))
    # the rows: each number 1..N in the № column (left of the names' header) once a part
    firsts = [t for t in drawn.texts if t.text.isdigit() and t.x < heads[0].x]
    assert {int(t.text) for t in firsts} == set(range(1, players + 1))
    parts = len({(h.page, h.y) for h in heads})
    if players == 100:
        assert parts >= 3
        assert sum(t.text == "1" for t in firsts) >= 2  # the row headers repeated
    texts = {t.text for t in drawn.texts}
    assert {"№", "Title", "Rating", "Pts", "TB 1", "TB 2", "Place"} <= texts
    assert "TB 3" not in texts


def test_r_x_5_the_blank_crosstable_in_russian() -> None:
    drawn = read(in_language("ru", lambda: blank_crosstable_pdf(10, 3)))
    texts = {t.text for t in drawn.texts}
    assert {"Участник", "Звание", "Рейтинг", "Очки", "Доп. 1", "Доп. 3", "Место"} <= texts
    assert "Турнирная таблица на 10 участников" in texts
    assert not [t for t in texts if re.search(r"[A-Za-z]{3,}", t)]  # no English left


# -- the command line -------------------------------------------------------------------


def test_r_x_5_the_command_line_writes_the_pdfs(tmp_path: Path) -> None:
    every = tmp_path / "berger.pdf"
    assert main(["blank", "berger", "--all", "-o", str(every)]) == 0
    assert sorted({t.page for t in read(every.read_bytes()).texts}) == list(range(1, 14))
    seven = tmp_path / "b7.pdf"
    assert main(["blank", "berger", "--players", "7", "--lang", "ru", "-o", str(seven)]) == 0
    drawn = read(seven.read_bytes())
    expected = [p for r in berger_sheet(7).rounds for p in r.pairs]
    assert page_pairs(drawn, 1, "(свободен)") == expected
    blank = tmp_path / "c.pdf"
    args = ["blank", "crosstable", "--players", "20", "--tiebreaks", "4", "-o", str(blank)]
    assert main(args) == 0
    assert "TB 4" in {t.text for t in read(blank.read_bytes()).texts}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["berger", "--players", "17"], "4 to 16 players, not 17"),
        (["berger", "--players", "3"], "4 to 16 players, not 3"),
        (["berger"], "give --players N or --all"),
        (["berger", "--players", "6", "--all"], "give --players N or --all"),
        (["crosstable", "--players", "1"], "2 to 100 players, not 1"),
        (["crosstable", "--players", "101"], "2 to 100 players, not 101"),
        (["crosstable", "--players", "8", "--tiebreaks", "7"], "0 to 6 tie-break columns, not 7"),
    ],
)
def test_r_x_5_bad_sizes_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    out = tmp_path / "x.pdf"
    assert main(["blank", *args, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert err.count("\n") == 1
    assert not out.exists()  # nothing written


# -- the web ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("blank") / "blank.db"
    service = Service(open_store(migrated(f"sqlite:///{db}")), random=random.Random(3))
    service.create_tournament(Regulations(name="Клубный"))
    with TestClient(create_app(service=service)) as web:
        yield web


def pdf_answer(client: TestClient, path: str, **headers: str) -> Drawn:
    answer = client.get(path, headers=headers)
    assert answer.status_code == 200, answer.text[:300]
    assert answer.headers["content-type"] == "application/pdf"
    assert "attachment" in answer.headers["content-disposition"]
    return read(answer.content)


def test_r_x_5_the_web_serves_the_berger_tables(client: TestClient) -> None:
    for path in ("/print/blank/berger.pdf", "/print/blank/berger.pdf?players=all"):
        drawn = pdf_answer(client, path)
        assert sorted({t.page for t in drawn.texts}) == list(range(1, 14))
    drawn = pdf_answer(client, "/print/blank/berger.pdf?players=9", **RU)
    assert "Таблица Бергера на 9 участников" in {t.text for t in drawn.texts}
    expected = [p for r in berger_sheet(9).rounds for p in r.pairs]
    assert page_pairs(drawn, 1, "(свободен)") == expected


def test_r_x_5_the_web_serves_the_blank_crosstable(client: TestClient) -> None:
    drawn = pdf_answer(client, "/print/blank/crosstable.pdf?players=16&tiebreaks=1", **RU)
    texts = {t.text for t in drawn.texts}
    assert {"Доп. 1", "16", "Место"} <= texts and "Доп. 2" not in texts


@pytest.mark.parametrize(
    ("path", "english", "russian"),
    [
        ("/print/blank/berger.pdf?players=18", "4 to 16 players, not 18", "на 4–16 участников"),
        ("/print/blank/berger.pdf?players=x", "must be a whole number", "должно быть целым"),
        ("/print/blank/crosstable.pdf?players=101", "2 to 100 players", "на 2–100 участников"),
        ("/print/blank/crosstable.pdf", "must be a whole number", "должно быть целым"),
        (
            "/print/blank/crosstable.pdf?players=5&tiebreaks=a",
            "tie-breaks must be a whole number",
            "показателей должно быть целым",
        ),
        (
            "/print/blank/crosstable.pdf?players=5&tiebreaks=9",
            "0 to 6 tie-break columns, not 9",
            "от 0 до 6 столбцов",
        ),
        ("/api/v1/blank/berger/3", "4 to 16 players, not 3", "на 4–16 участников"),
    ],
)
def test_r_x_5_bad_sizes_on_the_web_are_a_422_in_the_readers_language(
    client: TestClient, path: str, english: str, russian: str
) -> None:
    answer = client.get(path)
    assert answer.status_code == 422 and english in answer.text
    answer = client.get(path, headers=RU)
    assert answer.status_code == 422 and russian in answer.text
    assert "Traceback" not in answer.text


def test_r_x_5_the_json_api_gives_the_blank_berger_table(client: TestClient) -> None:
    answer = client.get("/api/v1/blank/berger/5")
    assert answer.status_code == 200
    body = answer.json()
    assert body == berger_sheet(5).to_json()
    assert body["table"] == 6
    assert body["rounds"][0] == {"round": 1, "pairs": [[1, None], [2, 5], [3, 4]], "bye": 1}


def test_r_x_5_the_pages_link_the_blank_tables(client: TestClient) -> None:
    home = client.get("/", headers=RU).text
    assert 'href="/print/blank"' in home and "Бланки таблиц" in home
    page = client.get("/print/blank?players=12", headers=RU)
    assert page.status_code == 200
    assert 'href="/print/blank/berger.pdf?players=all"' in page.text
    for n in range(4, 17):
        assert f'href="/print/blank/berger.pdf?players={n}"' in page.text
    assert 'action="/print/blank/crosstable.pdf"' in page.text and 'value="12"' in page.text
    listing = client.get("/t/1/print").text
    assert 'href="/print/blank?players=0"' in listing
    assert 'href="/print/blank/crosstable.pdf?players=2"' in listing
