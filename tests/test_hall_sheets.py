"""The sheets of a tournament hall (issue 16.5): the pairing list by player name next to
the list by board (print page and PDF) for every system, and the wall chart on A3.

The order is checked against the Russian alphabet written out here (ё right after е),
not against the product's own sort key; the by-name lines against the by-board list.
"""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from test_service_support import migrated

from crosstable.core.model import LotsMethod, System
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.test_web_print import read_pdf, tables

ALPHABET = "абвгдеёжзийклмнопрстуфхцчшщъыьэюя"
NAMES = [
    "Жуков, Олег",
    "Ёлкина, Жанна",
    "Елисеев, Пётр",
    "Ефимова, Анна",
    "Абрамов, Илья",
    "Яковлев, Борис",
    "Ещенко, Ян",
    "Ёжиков, Лев",
]


def russian(name: str) -> list[int]:
    return [ALPHABET.index(c) if c in ALPHABET else -1 for c in name.lower()]


def build(service: Service, system: System, names: list[str]) -> int:
    details = {"match_format": "1"} if system == System.KNOCKOUT else {}
    regulations = Regulations(name="Зал", system=system, rounds=3, details=details)
    if system != System.SWISS_DUTCH:
        regulations = Regulations(name="Зал", system=system, details=details)
    tid = service.create_tournament(regulations).tournament_id
    for i, name in enumerate(names):
        team = ("Север" if i % 2 else "Юг") if system == System.SCHEVENINGEN else None
        info = PlayerInfo(name, rating=2000 - 10 * i, team=team) if team else None
        service.add_player(tid, info or PlayerInfo(name, rating=2000 - 10 * i))
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    if system == System.SWISS_DUTCH:
        service.publish_round(tid)
    return tid


@pytest.fixture
def service(tmp_path: Path) -> Service:
    return Service(
        open_store(migrated(f"sqlite:///{tmp_path / 'hall.db'}")), random=random.Random(3)
    )


SYSTEMS = [System.ROUND_ROBIN, System.SWISS_DUTCH, System.KNOCKOUT, System.SCHEVENINGEN]


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_list_by_name_stands_next_to_the_list_by_board(
    service: Service, system: System
) -> None:
    names = NAMES[:7] if system == System.SWISS_DUTCH else NAMES  # an odd Swiss: a PAB
    tid = build(service, system, names)
    with TestClient(create_app(service=service)) as client:
        page = client.get(f"/t/{tid}/print/pairings?round=1")
        pdf = client.get(f"/t/{tid}/hall/pairings.pdf?round=1")
    assert page.status_code == 200 and pdf.status_code == 200
    found = tables(page.text)
    boards, by_name = found["pairings-1"][1:], found["names-1"][1:]
    knockout = system == System.KNOCKOUT
    where: dict[str, tuple[str, str, str]] = {}
    for row in boards:
        board, white, black = row[0], row[2 if knockout else 1], row[3 if knockout else 2]
        where[white] = (board, "White", black)
        where[black] = (board, "Black", white)
    listed = [row[0] for row in by_name]
    assert sorted(listed) == sorted(f"{p.start}. {p.name}" for p in service.overview(tid).players)
    assert len(set(listed)) == len(listed)  # each player once
    plain = [entry.split(". ", 1)[1] for entry in listed]
    assert plain == sorted(plain, key=russian)  # the Russian alphabet: ё after е
    for row in by_name:
        if row[0] in where:
            assert tuple(row[1:]) == where[row[0]]
        else:  # the pairing-allocated bye of the odd Swiss
            assert system == System.SWISS_DUTCH and row[1] == "pairing-allocated bye"
    strings = read_pdf(pdf.content).strings
    rest = strings[strings.index("Opponent") + 1 :]
    # a row's first cell is a player followed by the board (or the bye's label)
    in_pdf = [s for s, after in itertools.pairwise(rest) if s in listed and after not in listed]
    assert in_pdf[: len(listed)] == listed


def test_yo_sorts_after_ye_and_before_zhe(service: Service) -> None:
    tid = build(service, System.ROUND_ROBIN, NAMES)
    with TestClient(create_app(service=service)) as client:
        page = client.get(f"/t/{tid}/print/pairings?round=1", headers={"Accept-Language": "ru"})
    plain = [row[0].split(". ", 1)[1] for row in tables(page.text)["names-1"][1:]]
    surnames = [name.split(",")[0] for name in plain]
    assert surnames == [
        "Абрамов",
        "Елисеев",
        "Ефимова",
        "Ещенко",
        "Ёжиков",
        "Ёлкина",
        "Жуков",
        "Яковлев",
    ]
    assert "По фамилии" in page.text or "По имени" in page.text


def _media_boxes(data: bytes) -> list[tuple[float, float]]:
    boxes = re.findall(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    return [(float(w), float(h)) for w, h in boxes]


@pytest.mark.parametrize("system", [System.ROUND_ROBIN, System.SWISS_DUTCH])
def test_the_wall_chart_is_a3_landscape(service: Service, system: System) -> None:
    tid = build(service, system, NAMES)
    with TestClient(create_app(service=service)) as client:
        a3 = client.get(f"/t/{tid}/hall/wallchart.pdf")
        a4 = client.get(f"/t/{tid}/pdf/crosstable.pdf")
        page = client.get(f"/t/{tid}/hall/wallchart")
    # A3 is 420 × 297 mm: 1190.55 × 841.89 points; landscape puts the long side across
    for width, height in _media_boxes(a3.content):
        assert (round(width), round(height)) == (1191, 842)
    assert _media_boxes(a3.content)
    assert all((round(w), round(h)) == (842, 595) for w, h in _media_boxes(a4.content))
    strings = read_pdf(a3.content).strings
    assert any("Ёлкина, Жанна" in s for s in strings)
    assert page.status_code == 200 and "size: A3 landscape" in page.text
    table_id = "print-swiss" if system == System.SWISS_DUTCH else None
    if table_id:
        assert table_id in tables(page.text)
    else:
        assert 'class="self"' in page.text  # the round robin's grid
